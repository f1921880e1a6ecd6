"""The checks every LLM answer passes before anyone reads it.

A weak or quirky model's reply is not an answer when it is empty, cut at ``max_tokens``
(after one continuation), a tool call written as text (no tool ran), or a copy of its
prompt: of the instructions and headings (``copied_prompt``) or of the retrieved passages
with nothing of its own (``copied_context``). The pipeline then answers extractively with
a note that says why (``messages.OUTPUT_CHECK_NOTE``), and counts the check in debug
(``output_check``) and in ``finagent_llm_output_checks_total``.

Thresholds (shares of the reply's word 4-grams, ``finagent.language.overlap``):

- ``COPIED_PROMPT_SHARE`` 0.3 of the reply found in the prompt's own words (instructions,
  the user template, section headings; the passages, the question and its reading are not
  part of them). An answer shares a few short phrases with its instructions («Краткий
  вывод»); a reply that repeats them has most of its 4-grams there.
- ``COPIED_CONTEXT_SHARE`` 0.8 of the reply's words outside «…» quotations found in the
  context. The format asks for a verbatim quotation in «…»: quoted text is not counted,
  so an answer that quotes and explains passes, and a reply made of the passages fails.

Replies under ``MIN_WORDS`` words are too short to judge copying.

The format's pattern for the first line is written with placeholders in angle brackets
(«<что спросили> — <значение> …»), never with a real example: a small model repeats an
example's figures as its answer (docs/real-model.md, stop 33), while a placeholder left
in a reply is a copy whatever its share (``copied_prompt``).
"""

from __future__ import annotations

import re
from typing import Any, Literal

from langchain_core.messages import BaseMessage

from finagent.answering import messages
from finagent.clients.text_tool_calls import holds_tool_markup
from finagent.language.overlap import copied_share, unquoted, words
from finagent.observability import LLM_OUTPUT_CHECKS

Problem = Literal["empty", "cut", "tool_call_text", "copied_prompt", "copied_context"]

COPIED_PROMPT_SHARE = 0.3
COPIED_CONTEXT_SHARE = 0.8
MIN_WORDS = 12
_N = 4
_PLACEHOLDER = re.compile(r"<[^<>\n]{2,40}>")

#: why a reply was not shown, as the note under the extractive answer says it
REASONS: dict[Problem, str] = {
    "empty": "модель вернула пустой ответ",
    "cut": "ответ модели оборвался на ограничении длины и после продолжения",
    "tool_call_text": "вместо ответа модель написала текст вызова инструмента",
    "copied_prompt": "модель повторила текст своих инструкций вместо ответа",
    "copied_context": "модель дословно скопировала найденные фрагменты вместо ответа",
}


def finish_reason(reply: BaseMessage) -> str | None:
    """Why the model stopped (``length``: cut at ``max_tokens``), as the server said."""
    meta: dict[str, Any] = getattr(reply, "response_metadata", None) or {}
    reason = meta.get("finish_reason") or meta.get("stop_reason")
    return str(reason) if reason else None


def was_cut(reply: BaseMessage) -> bool:
    return finish_reason(reply) in ("length", "max_tokens")


def prompt_scaffold(system: str, user_template: str, context: str) -> str:
    """The prompt's own words: the system text, the user template and the context's
    headings, without the passages (which an answer may quote)."""
    headings = "\n".join(line for line in context.splitlines() if line.startswith("#"))
    return "\n".join([system, user_template, headings])


def reply_problem(text: str, cut: bool, scaffold: str, context: str) -> Problem | None:
    """What makes ``text`` no answer for a reader, or None when it passes every check."""
    if not text.strip():
        return "empty"
    if holds_tool_markup(text):
        return "tool_call_text"
    if len(words(text)) >= MIN_WORDS and copied_share(text, scaffold, _N) >= COPIED_PROMPT_SHARE:
        return "copied_prompt"
    if placeholders_left(text, scaffold):
        return "copied_prompt"
    own = unquoted(text)
    if len(words(own)) >= MIN_WORDS and copied_share(own, context, _N) >= COPIED_CONTEXT_SHARE:
        return "copied_context"
    if cut:
        return "cut"
    return None


def placeholders_left(text: str, scaffold: str) -> bool:
    """Whether ``text`` still holds a placeholder of the prompt's patterns («<значение>»)."""
    return any(slot in text for slot in set(_PLACEHOLDER.findall(scaffold)))


def reply_shares(text: str, scaffold: str, context: str) -> dict[str, float | int]:
    """What the copy checks measure on ``text``, whether or not they fire: its words,
    the share of its 4-grams in the prompt's own words, and the share of its unquoted
    4-grams in the context (logged and kept in debug to tune the thresholds on real
    replies; docs/real-model.md)."""
    own = unquoted(text)
    return {
        "words": len(words(text)),
        "prompt": round(copied_share(text, scaffold, _N), 3),
        "context": round(copied_share(own, context, _N), 3),
    }


def note_for(problem: Problem) -> str:
    """The Russian note under the extractive answer that replaced the reply."""
    return messages.OUTPUT_CHECK_NOTE.format(reason=REASONS[problem])


def count(role: str, problem: str) -> None:
    LLM_OUTPUT_CHECKS.labels(role=role, check=problem).inc()
