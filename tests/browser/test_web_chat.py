"""The web chat at ``/`` driven in headless Chromium (Debian's chromium + chromium-driver).

One flow: sign in, upload a document, ask about it and watch the answer stream in, open a
citation, research through one clarification, then a second user sees none of it. The
service runs under uvicorn on 127.0.0.1 with a scripted LLM; screenshots of every step go
to ``test-artifacts/browser/``.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import socket
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from langchain_core.messages import AIMessage

from finagent.bootstrap import Root
from finagent.config import Settings
from finagent.retrieval.embeddings import Embedder
from finagent.server.app import create_app
from tests.conftest import LEASE, REPO_ROOT
from tests.fakes.streaming_llm import StreamingChatModel
from tests.integration.test_agent_graph import decision
from tests.integration.test_langserve import step

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
ARTIFACTS = REPO_ROOT / "test-artifacts" / "browser"
TOKENS = "alice-token-0001:alice,bob-token-00002:bob"
ANSWER = "Пени составляют 0,1 % от суммы долга за каждый день просрочки [1]."
RESEARCH_ANSWER = "Для договора аренды пени 0,1 % в день; НДС в арендной плате 20 %."
WAIT = 120  # seconds: the machine is shared; these are upper bounds, not sleeps


def _unavailable(reason: str) -> None:
    if os.environ.get("CI"):
        pytest.fail(f"CI is set but {reason}; .ci/run installs it", pytrace=False)
    pytest.skip(reason)


class ServiceThread:
    """``finagent serve``'s app in a thread with its own event loop (selenium blocks)."""

    def __init__(self, settings: Settings, llm: Any, embedder: Embedder) -> None:
        self.settings, self.llm, self.embedder = settings, llm, embedder
        self.sock = socket.socket()
        self.sock.bind(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.ready = threading.Event()
        self.server: uvicorn.Server | None = None
        self.error: BaseException | None = None
        self.thread = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        try:
            asyncio.run(self._main())
        except BaseException as exc:  # reported by start()
            self.error = exc
            self.ready.set()

    async def _main(self) -> None:
        services = Root(self.settings, llm=self.llm, embedder=self.embedder)
        app = create_app(self.settings, services)
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
        serve = asyncio.create_task(self.server.serve(sockets=[self.sock]))
        while not self.server.started:  # readiness polling
            if serve.done():
                await serve
            await asyncio.sleep(0.01)
        self.ready.set()
        try:
            await serve
        finally:
            await services.aclose()

    def start(self) -> None:
        self.thread.start()
        assert self.ready.wait(WAIT), "the service did not start"
        if self.error is not None:
            raise self.error

    def stop(self) -> None:
        if self.server is not None:
            self.server.should_exit = True
        self.thread.join(WAIT)
        self.sock.close()


@pytest.fixture
def browser() -> Iterator[Any]:
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        _unavailable('selenium is not installed (pip install -e ".[dev]")')
    if not CHROMIUM.exists() or not CHROMEDRIVER.exists():
        _unavailable("Chromium is not installed (apt-get install chromium chromium-driver)")
    profile = ARTIFACTS.parent / "chromium-profile"
    shutil.rmtree(profile, ignore_errors=True)
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for flag in (
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--disable-dev-shm-usage",
        "--window-size=1400,1000",
        f"--user-data-dir={profile}",
    ):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


def test_web_chat_flow(browser: Any, tmp_path: Path, embedder: Embedder) -> None:
    from selenium.common.exceptions import StaleElementReferenceException
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    release = threading.Event()
    first_token = threading.Event()
    clarification = step(
        "clarification",
        reasoning="Неясно, о каком договоре речь",
        unclear_terms=["договор"],
        assumptions=["Договор аренды помещения", "Договор поставки"],
        questions=["О каком договоре идёт речь?"],
    )
    final = step(
        "final_answer",
        reasoning="Данных достаточно",
        completed_steps=["Уточнение", "Ответ"],
        answer=RESEARCH_ANSWER,
        status="completed",
    )
    llm = StreamingChatModel(
        [decision(1), AIMessage(ANSWER), clarification, final],
        hold_after=3,
        release=release,
        hold_first=first_token,
    )
    settings = Settings(  # type: ignore[call-arg]
        data_dir=tmp_path / "data", api_tokens=TOKENS, cbr_enabled=False, _env_file=None
    )
    service = ServiceThread(settings, llm, embedder)
    service.start()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    shots: list[Path] = []
    # lists re-render when the service answers: an element found just before may be gone
    wait = WebDriverWait(browser, WAIT, ignored_exceptions=[StaleElementReferenceException])

    def shot(name: str) -> None:
        path = ARTIFACTS / f"{len(shots) + 1:02d}-{name}.png"
        browser.save_screenshot(str(path))
        shots.append(path)

    def by_id(element_id: str) -> Any:
        return browser.find_element(By.ID, element_id)

    def click(css: str) -> None:
        """Click the element ``css`` selects, found again if a re-render replaced it."""
        wait.until(lambda _: browser.find_element(By.CSS_SELECTOR, css).click() or True)

    def sign_in(token: str) -> None:
        field = wait.until(ec.visibility_of_element_located((By.ID, "token")))
        field.clear()
        field.send_keys(token)
        by_id("signin-button").click()
        wait.until(ec.visibility_of_element_located((By.ID, "app")))

    try:
        browser.get(service.url + "/")
        assert browser.title.startswith("finagent") and "Войти" in browser.page_source
        # a wrong token: the service's Russian message
        field = wait.until(ec.visibility_of_element_located((By.ID, "token")))
        field.send_keys("wrong-token-000")
        by_id("signin-button").click()
        wait.until(ec.text_to_be_present_in_element((By.ID, "signin-error"), "Неверный"))
        shot("wrong-token")
        sign_in("alice-token-0001")
        shot("signed-in")

        # upload: one good file and one empty file, each with its own status
        lease = tmp_path / "lease.md"
        lease.write_text(LEASE, encoding="utf-8")
        empty = tmp_path / "empty.md"
        empty.write_text("", encoding="utf-8")
        by_id("files").send_keys(f"{lease}\n{empty}")
        # the upload request is held in the page until released: «Спросить» waits for it
        browser.execute_script(
            "window.uploadHeld = new Promise((r) => { window.releaseUpload = r; });"
            "const send = window.fetch;"
            "window.fetch = async (url, options) => {"
            "  if (String(url).endsWith('/v1/documents') && options && options.method === 'POST')"
            "    await window.uploadHeld;"
            "  return send(url, options);"
            "};"
        )
        by_id("question").send_keys("какие пени?")
        by_id("upload-button").click()
        wait.until(ec.text_to_be_present_in_element((By.ID, "upload-status"), "Загрузка"))
        ask_button = by_id("ask-button")
        assert not ask_button.is_enabled()
        assert "Дождитесь окончания загрузки" in (ask_button.get_attribute("title") or "")
        shot("upload-waits")
        browser.execute_script("window.releaseUpload();")
        wait.until(ec.text_to_be_present_in_element((By.ID, "upload-status"), "lease.md"))
        wait.until(lambda _: by_id("ask-button").is_enabled())
        by_id("question").clear()
        statuses = by_id("upload-status").text
        assert "lease.md: загружен" in statuses and "empty.md: пустой файл" in statuses
        wait.until(ec.text_to_be_present_in_element((By.ID, "documents"), "Договор аренды"))
        shot("uploaded")

        # ask about the chosen document: the answer streams in (the LLM holds mid-answer)
        click("#documents input[type=checkbox]")
        assert by_id("selection").text == "Вопрос по выбранным документам: 1"
        by_id("question").send_keys("какие пени в моём договоре аренды?")
        by_id("ask-button").click()
        # until the first token the bubble and the progress line show the current step
        waiting = wait.until(
            ec.presence_of_element_located((By.CSS_SELECTOR, ".msg.assistant.waiting"))
        )
        step_line = "Сценарий S3: выбранные документы целиком"
        wait.until(
            lambda _: (
                waiting.text.strip() != "Готовлю ответ…" and step_line in by_id("progress").text
            )
        )
        current = by_id("progress").text.split(" · ")[-1]  # the latest step
        assert waiting.text.startswith(current) and "Пени" not in waiting.text
        shot("before-first-token")
        first_token.set()
        streaming = wait.until(
            ec.presence_of_element_located((By.CSS_SELECTOR, ".msg.assistant.streaming"))
        )
        wait.until(lambda _: streaming.text.strip() == "Пени составляют 0,1")
        assert "[1]" not in streaming.text  # part of the answer, before the rest
        assert "Сценарий S3: выбранные документы целиком" in by_id("progress").text
        shot("streaming")
        release.set()
        done = wait.until(
            ec.presence_of_element_located((By.CSS_SELECTOR, ".msg.assistant[data-done='1']"))
        )
        assert "за каждый день просрочки" in done.text and "Источники" in done.text
        # sources show the document's title (and the user's own file name), never a path,
        # slug or internal id
        sources = done.text.split("Источники", 1)[1]
        assert sources.strip().startswith("[1] Договор аренды нежилого помещения № 7")
        assert not re.search(r"[0-9a-f]{12,}|/|\bdoc[-_]", sources), sources
        shot("answered")

        # the citation opens the cited passage
        done.find_element(By.CSS_SELECTOR, "a.cite").click()
        wait.until(ec.visibility_of_element_located((By.ID, "passage")))
        assert "0,1 %" in by_id("passage-body").text
        assert "[1]" in by_id("passage-title").text
        shot("citation")

        # the chat is listed; reopening it shows its history
        wait.until(ec.text_to_be_present_in_element((By.ID, "chats"), "какие пени"))
        by_id("new-chat").click()
        wait.until(lambda _: not by_id("messages").text)
        click("#chats li button")
        wait.until(ec.text_to_be_present_in_element((By.ID, "messages"), "за каждый день"))
        shot("history")

        # research: the clarification is answered inline and the run resumes
        by_id("new-chat").click()
        by_id("mode-research").click()
        by_id("question").send_keys("Какие платежи по договору?")
        by_id("ask-button").click()
        clarify = wait.until(ec.visibility_of_element_located((By.CSS_SELECTOR, ".msg.clarify")))
        assert "О каком договоре идёт речь?" in clarify.text
        shot("clarification")
        clarify.find_element(By.NAME, "answer").send_keys("Договор аренды помещения")
        clarify.find_element(By.CSS_SELECTOR, "button").click()
        answer = wait.until(
            ec.visibility_of_element_located((By.CSS_SELECTOR, ".msg.research-answer"))
        )
        assert RESEARCH_ANSWER in answer.text
        shot("research-answer")
        assert llm.calls == 4  # orchestrator, answer, research step, research step after it

        # another user sees none of alice's documents or chats
        by_id("signout").click()
        sign_in("bob-token-00002")
        wait.until(ec.text_to_be_present_in_element((By.ID, "documents"), "Документов пока нет"))
        assert by_id("chats").text == "" and by_id("messages").text == ""
        assert "Договор аренды" not in by_id("sidebar").text and "пени" not in browser.page_source
        shot("second-user")
    finally:
        release.set()
        first_token.set()
        if shots:
            print(f"\nscreenshots: {ARTIFACTS}")
        service.stop()
    assert len(shots) == 12


def test_web_chat_layout_markdown_and_phone_width(
    browser: Any, tmp_path: Path, embedder: Embedder
) -> None:
    """Before sign-in nothing of the signed-in view shows; answers render Markdown with
    any HTML escaped; «Спросить» waits for uploads; at 390 px the chat is full width and
    the sidebar opens from a menu button; the page has a favicon."""
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support import expected_conditions as ec
    from selenium.webdriver.support.ui import WebDriverWait

    settings = Settings(  # type: ignore[call-arg]
        data_dir=tmp_path / "data", api_tokens=TOKENS, cbr_enabled=False, _env_file=None
    )
    service = ServiceThread(settings, StreamingChatModel([]), embedder)
    service.start()
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    wait = WebDriverWait(browser, WAIT)
    try:
        for width in (1366, 390):
            browser.set_window_size(width, 900)
            browser.get(service.url + "/")
            token = wait.until(ec.visibility_of_element_located((By.ID, "token")))
            assert not browser.find_element(By.ID, "sidebar").is_displayed()
            assert not browser.find_element(By.ID, "app").is_displayed()
            icon = browser.find_element(By.CSS_SELECTOR, "link[rel=icon]")
            assert icon.get_attribute("href").startswith("data:image/svg+xml")
            browser.save_screenshot(str(ARTIFACTS / f"layout-{width}-signin.png"))
            token.send_keys("alice-token-0001")
            browser.find_element(By.ID, "signin-button").click()
            wait.until(ec.visibility_of_element_located((By.ID, "question")))
            chat = browser.find_element(By.ID, "chat").size["width"]
            sidebar = browser.find_element(By.ID, "sidebar")
            if width == 390:
                assert chat >= 0.9 * browser.execute_script("return window.innerWidth")
                assert not sidebar.is_displayed()
                browser.find_element(By.ID, "menu").click()
                assert sidebar.is_displayed()
            else:
                assert sidebar.is_displayed() and chat > 600
            # an answer with Markdown and HTML in it (rendered by the page's own renderer)
            html = browser.execute_script(
                "const d = document.createElement('div');"
                "renderAnswer(d, arguments[0], []); return d.innerHTML;",
                "## Краткий вывод\nСрок — _три месяца_ и **10 дней** <script>x()</script>\n"
                "- первый пункт\n- второй пункт\n\n| вид | ставка |\n|---|---|\n| А | 5 % |",
            )
            assert "<em>три месяца</em>" in html and "<strong>10 дней</strong>" in html
            assert "<ul><li>первый пункт</li><li>второй пункт</li></ul>" in html
            assert "<td>5 %</td>" in html and "<script>" not in html and "&lt;script&gt;" in html
            # the passage panel renders Markdown the same way, HTML escaped
            passage = browser.execute_script(
                "showPassage({number: 2, title: 'Налоговые ставки', reference: '',"
                " passages: [{text: '**Ставка 0 %** при экспорте <b>x</b>'}]});"
                "return document.getElementById('passage-body').innerHTML;"
            )
            assert "<strong>Ставка 0 %</strong>" in passage and "&lt;b&gt;" in passage
            assert browser.find_element(By.ID, "passage-title").text == "[2] Налоговые ставки"
            browser.execute_script("document.getElementById('passage').hidden = true;")
            # «Спросить» waits while an upload is in progress
            browser.execute_script("state.uploads = 1; updateAskButton();")
            assert not browser.find_element(By.ID, "ask-button").is_enabled()
            browser.execute_script("state.uploads = 0; updateAskButton();")
            assert browser.find_element(By.ID, "ask-button").is_enabled()
            browser.save_screenshot(str(ARTIFACTS / f"layout-{width}-signed-in.png"))
            browser.find_element(By.ID, "signout").click()
    finally:
        service.stop()
