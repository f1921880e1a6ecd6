"""``finagent ask`` streaming to the terminal: progress lines on stderr, answer tokens on stdout.

The events are those of ``POST /v1/ask/stream`` (finagent/server/stream.py). Tokens are
printed as they arrive; the checked final answer then completes them: when it continues
the streamed text only the rest is printed (the source list), otherwise it is printed
whole after a separator (the checks changed the LLM's text).
"""

from __future__ import annotations

from typing import Any, TextIO

from finagent.clients.budget import answer_budget
from finagent.config import Settings
from finagent.graph.agent import Agent, InvalidRequestError
from finagent.retrieval.fairness import embedding_user

CHECKED_HEADER = "\n\n--- проверенный ответ ---\n"


class TerminalRenderer:
    """Writes stream events to two text streams."""

    def __init__(self, out: TextIO, err: TextIO, progress: bool = True) -> None:
        self.out = out
        self.err = err
        self.progress = progress
        self.streamed = ""

    def notice(self, text: str) -> None:
        """A line for the user on the error stream (always shown)."""
        self.err.write(text + "\n")
        self.err.flush()

    def event(self, name: str, data: dict[str, Any]) -> None:
        if name == "progress":
            if not self.progress:
                return
            self.err.write(f"… {data.get('message', '')}\n")
            self.err.flush()
        elif name == "token":
            text = str(data.get("text", ""))
            self.streamed += text
            self.out.write(text)
            self.out.flush()
        elif name == "final":
            answer = str(data.get("answer", ""))
            if answer.startswith(self.streamed):
                self.out.write(answer[len(self.streamed) :])
            else:
                self.out.write(CHECKED_HEADER + answer)
            self.out.write("\n")
            self.out.flush()
        elif name == "error":
            raise InvalidRequestError(str(data.get("message", "")))


async def stream_answer(
    settings: Settings,
    renderer: TerminalRenderer,
    *,
    user: str,
    query: str,
    chat_id: str | None,
    document_ids: list[str] | None,
) -> None:
    """Answer ``query`` and render its events; InvalidRequestError for bad input."""
    from finagent.commands.hints import empty_index_hint
    from finagent.server.stream import run_events

    agent = await Agent.create(settings, defer_tools=True)  # most questions call none
    try:
        prepared = agent.prepare(user, query, chat_id, document_ids)
        hint = await empty_index_hint(agent.deps, user)
        if hint:
            renderer.notice(hint)
        embedding_user.set(user)
        with answer_budget(agent.settings.answer_budget_s):
            async for name, data in run_events(agent, prepared):
                renderer.event(name, data)
    finally:
        await agent.aclose()
