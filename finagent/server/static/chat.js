// finagent web chat: vanilla JS, no build step. Talks to the same JSON/SSE API as any client.
"use strict";

const TOKEN_KEY = "finagent.token";
const state = { token: null, chatId: null, selected: new Set(), busy: false, uploads: 0 };
const $ = (id) => document.getElementById(id);

// --- HTTP ----------------------------------------------------------------------------------
async function api(path, options = {}) {
  const headers = { Authorization: `Bearer ${state.token}`, ...(options.headers || {}) };
  const response = await fetch(path, { ...options, headers });
  let body = null;
  try {
    body = await response.json();
  } catch (err) {
    body = null;
  }
  if (!response.ok) {
    const detail = body && body.detail ? body.detail : `Ошибка сервиса (HTTP ${response.status}).`;
    throw new Error(detail);
  }
  return body;
}

function postJson(path, data) {
  return api(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(data),
  });
}

// Server-Sent Events over fetch (EventSource cannot POST): calls onEvent(name, data).
async function streamEvents(path, data, onEvent) {
  const response = await fetch(path, {
    method: "POST",
    headers: { Authorization: `Bearer ${state.token}`, "Content-Type": "application/json" },
    body: JSON.stringify(data),
  });
  if (!response.ok) {
    let detail = `Ошибка сервиса (HTTP ${response.status}).`;
    try {
      detail = (await response.json()).detail || detail;
    } catch (err) { /* keep the generic text */ }
    throw new Error(detail);
  }
  const reader = response.body.getReader();
  const decoder = new TextDecoder("utf-8");
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true }).replace(/\r\n/g, "\n");
    let end;
    while ((end = buffer.indexOf("\n\n")) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      let name = "message";
      const lines = [];
      for (const line of block.split("\n")) {
        if (line.startsWith("event:")) name = line.slice(6).trim();
        else if (line.startsWith("data:")) lines.push(line.slice(5).replace(/^ /, ""));
      }
      if (lines.length) onEvent(name, JSON.parse(lines.join("\n")));
    }
  }
}

// --- rendering -----------------------------------------------------------------------------
function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}

function addMessage(role, text, extraClass) {
  const div = document.createElement("div");
  div.className = `msg ${role}${extraClass ? " " + extraClass : ""}`;
  div.textContent = text;
  $("messages").appendChild(div);
  div.scrollIntoView({ block: "end" });
  return div;
}

// Inline Markdown on already escaped text: **bold**, *em* / _em_, `code`.
function inlineMarkdown(html) {
  return html
    .replace(/`([^`\n]+)`/g, "<code>$1</code>")
    .replace(/\*\*([^*\n]+)\*\*/g, "<strong>$1</strong>")
    .replace(/(^|[\s(«])\*([^*\s][^*\n]*?)\*(?=[\s).,;:!?»]|$)/g, "$1<em>$2</em>")
    .replace(/(^|[\s(«])_([^_\s][^_\n]*?)_(?=[\s).,;:!?»]|$)/g, "$1<em>$2</em>");
}

// Markdown to HTML, safely: the text is escaped first, so no HTML of the answer survives.
// Headings, bullet and numbered lists, tables (| a | b |) and paragraphs.
function renderMarkdown(text) {
  const lines = escapeHtml(text).split("\n");
  const out = [];
  let list = null;
  const closeList = () => { if (list) { out.push(`</${list}>`); list = null; } };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const heading = line.match(/^#{1,6} (.*)$/);
    const bullet = line.match(/^\s*[-*•] (.*)$/);
    const numbered = line.match(/^\s*\d{1,3}[.)] (.*)$/);
    if (/^\s*\|.*\|\s*$/.test(line)) {
      closeList();
      const rows = [];
      while (i < lines.length && /^\s*\|.*\|\s*$/.test(lines[i])) rows.push(lines[i++]);
      i--;
      const cells = (row) => row.trim().slice(1, -1).split("|").map((c) => inlineMarkdown(c.trim()));
      const body = rows.filter((row) => !/^\s*\|[\s:|-]+\|\s*$/.test(row));
      const [head, ...rest] = body;
      out.push("<table><thead><tr>" + cells(head).map((c) => `<th>${c}</th>`).join("") + "</tr></thead><tbody>"
        + rest.map((r) => "<tr>" + cells(r).map((c) => `<td>${c}</td>`).join("") + "</tr>").join("")
        + "</tbody></table>");
    } else if (heading) {
      closeList();
      out.push(`<h3>${inlineMarkdown(heading[1])}</h3>`);
    } else if (bullet || numbered) {
      const kind = bullet ? "ul" : "ol";
      if (list !== kind) { closeList(); out.push(`<${kind}>`); list = kind; }
      out.push(`<li>${inlineMarkdown((bullet || numbered)[1])}</li>`);
    } else if (!line.trim()) {
      closeList();
    } else {
      closeList();
      out.push(`<p>${inlineMarkdown(line)}</p>`);
    }
  }
  closeList();
  return out.join("");
}

// The answer as Markdown, with each [n] that has a passage turned into a link opening it.
function renderAnswer(div, answer, citations) {
  const byNumber = new Map((citations || []).map((c) => [c.number, c]));
  div.classList.add("markdown");
  div.innerHTML = renderMarkdown(answer).replace(/\[(\d{1,3})\]/g, (match, n) => {
    const source = byNumber.get(Number(n));
    if (!source || !source.passages.length) return match;
    return `<a class="cite" href="#" data-n="${n}">[${n}]</a>`;
  });
  for (const link of div.querySelectorAll("a.cite")) {
    link.addEventListener("click", (event) => {
      event.preventDefault();
      showPassage(byNumber.get(Number(link.dataset.n)));
    });
  }
}

function showPassage(source) {
  $("passage-title").textContent = `[${source.number}] ${source.title}`;
  const body = $("passage-body");
  body.innerHTML = "";
  if (source.reference) {
    const ref = document.createElement("p");
    ref.className = "hint";
    ref.textContent = source.reference;
    body.appendChild(ref);
  }
  for (const passage of source.passages) {
    const p = document.createElement("div");
    p.className = "passage markdown";
    p.innerHTML = renderMarkdown(passage.text);
    body.appendChild(p);
  }
  $("passage").hidden = false;
}

function setProgress(text) {
  $("progress").textContent = text || "";
}

// The run's progress so far, one line: "Сценарий S3: … · Найдено фрагментов …".
function addProgress(text) {
  const now = $("progress").textContent;
  $("progress").textContent = now ? `${now} · ${text}` : text;
}

const WAITING = "Готовлю ответ…";

// --- documents -----------------------------------------------------------------------------
async function loadDocuments() {
  const docs = await api("/v1/documents");
  const list = $("documents");
  list.innerHTML = "";
  if (!docs.length) {
    const li = document.createElement("li");
    li.className = "hint";
    li.textContent = "Документов пока нет.";
    list.appendChild(li);
  }
  for (const doc of docs) {
    const li = document.createElement("li");
    const label = document.createElement("label");
    const box = document.createElement("input");
    box.type = "checkbox";
    box.value = doc.id;
    box.checked = state.selected.has(doc.id);
    box.addEventListener("change", () => {
      if (box.checked) state.selected.add(doc.id);
      else state.selected.delete(doc.id);
      updateSelection();
    });
    label.appendChild(box);
    label.append(` ${doc.title || doc.filename || doc.id}`);
    li.appendChild(label);
    list.appendChild(li);
  }
  updateSelection();
}

function updateSelection() {
  const n = state.selected.size;
  $("selection").textContent = n
    ? `Вопрос по выбранным документам: ${n}`
    : "Вопрос по всем документам и базе знаний";
}

async function upload(event) {
  event.preventDefault();
  const files = $("files").files;
  const status = $("upload-status");
  status.innerHTML = "";
  if (!files.length) {
    status.innerHTML = '<li class="error">Выберите файлы.</li>';
    return;
  }
  const form = new FormData();
  for (const file of files) form.append("files", file, file.name);
  const waiting = document.createElement("li");
  waiting.textContent = "Загрузка…";
  status.appendChild(waiting);
  state.uploads += 1;
  updateAskButton();
  try {
    const result = await api("/v1/documents", { method: "POST", body: form });
    status.innerHTML = "";
    for (const r of result.results) {
      const li = document.createElement("li");
      const ok = r.status !== "error";
      li.className = ok ? "ok" : "error";
      li.textContent = ok ? `${r.file}: загружен` : r.error || `${r.file}: ошибка`;
      status.appendChild(li);
    }
    $("files").value = "";
    $("chosen").textContent = "Файлы не выбраны";
    await loadDocuments();
  } catch (err) {
    status.innerHTML = "";
    const li = document.createElement("li");
    li.className = "error";
    li.textContent = err.message;
    status.appendChild(li);
  } finally {
    state.uploads -= 1;
    updateAskButton();
  }
}

// «Спросить» waits for a question in progress and for uploads (the question may be about them).
function updateAskButton() {
  const button = $("ask-button");
  button.disabled = state.busy || state.uploads > 0;
  button.title = state.uploads > 0 ? "Дождитесь окончания загрузки документов" : "";
}

// --- chats ---------------------------------------------------------------------------------
function newChatId() {
  return "chat-" + (crypto.randomUUID ? crypto.randomUUID() : String(Date.now()));
}

async function loadChats() {
  const chats = await api("/v1/chats");
  const list = $("chats");
  list.innerHTML = "";
  for (const chat of chats) {
    const li = document.createElement("li");
    if (chat.id === state.chatId) li.className = "active";
    const button = document.createElement("button");
    button.type = "button";
    button.textContent = chat.title;
    button.addEventListener("click", () => openChat(chat.id));
    li.appendChild(button);
    list.appendChild(li);
  }
}

async function openChat(chatId) {
  state.chatId = chatId;
  $("messages").innerHTML = "";
  $("passage").hidden = true;
  const chat = await api(`/v1/chats/${encodeURIComponent(chatId)}`);
  for (const turn of chat.turns) addMessage(turn.role, turn.content);
  await loadChats();
}

function startNewChat() {
  state.chatId = newChatId();
  $("messages").innerHTML = "";
  $("passage").hidden = true;
  setProgress("");
  loadChats();
}

// --- asking --------------------------------------------------------------------------------
async function ask(question) {
  setProgress("");
  addMessage("user", question);
  // until the first token the bubble shows the current step, never an empty box
  const div = addMessage("assistant", WAITING, "streaming waiting");
  let streamed = "";
  let failed = false;
  const body = { query: question, chat_id: state.chatId, document_ids: [...state.selected] };
  await streamEvents("/v1/ask/stream", body, (name, data) => {
    if (name === "progress") {
      addProgress(data.message);
      if (!streamed) div.textContent = `${data.message} ${WAITING}`;
    } else if (name === "token") {
      div.classList.remove("waiting");
      streamed += data.text;
      div.textContent = streamed;
    } else if (name === "final") {
      div.classList.remove("streaming");
      div.dataset.done = "1";
      renderAnswer(div, data.answer, data.citations);
    } else if (name === "error") {
      failed = true;
      div.className = "msg error";
      div.textContent = data.message;
      setProgress("");
    }
  });
  if (!failed) await loadChats();
}

function showResearch(result, div) {
  if (result.status === "needs_clarification") {
    div.className = "msg clarify";
    div.innerHTML = "";
    const title = document.createElement("p");
    title.textContent = "Нужно уточнение:";
    div.appendChild(title);
    const list = document.createElement("ol");
    for (const q of result.questions) {
      const li = document.createElement("li");
      li.textContent = q;
      list.appendChild(li);
    }
    div.appendChild(list);
    const form = document.createElement("form");
    form.className = "clarify-form";
    const input = document.createElement("input");
    input.name = "answer";
    input.placeholder = "Ваш ответ";
    input.required = true;
    const button = document.createElement("button");
    button.type = "submit";
    button.textContent = "Ответить";
    form.append(input, button);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      const answer = input.value.trim();
      if (!answer) return;
      form.remove();
      addMessage("user", answer);
      const next = addMessage("assistant", "Исследование продолжается…", "streaming");
      try {
        showResearch(await postJson(`/v1/research/${result.run_id}/answer`, { answer }), next);
      } catch (err) {
        next.className = "msg error";
        next.textContent = err.message;
      }
    });
    div.appendChild(form);
    input.focus();
    return;
  }
  div.className = "msg assistant research-answer";
  div.dataset.done = "1";
  div.textContent = result.answer || "Исследование завершилось без ответа.";
}

async function research(question) {
  addMessage("user", question);
  const div = addMessage("assistant", "Исследование идёт…", "streaming");
  showResearch(await postJson("/v1/research", { query: question }), div);
}

async function submitQuestion(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  if (!question || state.busy || state.uploads > 0) return;
  state.busy = true;
  updateAskButton();
  $("question").value = "";
  try {
    if ($("mode-research").checked) await research(question);
    else await ask(question);
  } catch (err) {
    addMessage("assistant", err.message, "error");
    setProgress("");
  } finally {
    state.busy = false;
    updateAskButton();
  }
}

// --- sign-in -------------------------------------------------------------------------------
async function signIn(token) {
  state.token = token;
  await loadDocuments(); // fails with the service's Russian message on a bad token
  sessionStorage.setItem(TOKEN_KEY, token);
  $("signin").hidden = true;
  $("app").hidden = false;
  startNewChat();
}

function signOut() {
  sessionStorage.removeItem(TOKEN_KEY);
  state.token = null;
  state.selected.clear();
  state.chatId = null;
  // nothing of this user stays on the page for the next one
  for (const id of ["messages", "chats", "documents", "upload-status", "passage-body"]) {
    $(id).innerHTML = "";
  }
  $("passage").hidden = true;
  $("token").value = "";
  setProgress("");
  $("app").hidden = true;
  $("signin").hidden = false;
}

window.addEventListener("DOMContentLoaded", () => {
  $("signin-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    $("signin-error").textContent = "";
    try {
      await signIn($("token").value.trim());
    } catch (err) {
      state.token = null;
      $("signin-error").textContent = err.message;
    }
  });
  $("signout").addEventListener("click", signOut);
  $("new-chat").addEventListener("click", startNewChat);
  $("upload-form").addEventListener("submit", upload);
  $("files").addEventListener("change", () => {
    const names = [...$("files").files].map((f) => f.name);
    $("chosen").textContent = names.length ? names.join(", ") : "Файлы не выбраны";
  });
  $("ask-form").addEventListener("submit", submitQuestion);
  $("passage-close").addEventListener("click", () => { $("passage").hidden = true; });
  $("menu").addEventListener("click", () => {
    const open = $("app").classList.toggle("menu-open");
    $("menu").setAttribute("aria-expanded", String(open));
  });
  const saved = sessionStorage.getItem(TOKEN_KEY);
  if (saved) signIn(saved).catch(() => signOut());
});
