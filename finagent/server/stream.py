"""``POST /v1/ask/stream``: one agent run as Server-Sent Events.

Event names and payloads are a stable contract (docs/serving.md, "Streaming"):

- ``progress``: ``{"stage": "scenario" | "sources" | "live_data", "message": <Russian>, ...}``
- ``token``: ``{"text": <piece of the answer>}`` as the LLM produces it; offline (no LLM)
  and for answers that need no LLM, the composed answer in chunks
- ``final``: ``{"answer", "scenario", "sources", "citations", "chat_id"}``; ``answer`` is the
  checked text (citations verified, source list appended) and replaces the tokens
- ``error``: ``{"message": <Russian>}``; the stream ends after it

The run happens in its own task. When the client disconnects, the response is cancelled,
which cancels that task: the graph stops where it is and, as a chat turn is written in one
store item at the very end of the answer, no half turn is saved.
"""

from __future__ import annotations

import asyncio
import contextvars
import json
from collections.abc import AsyncGenerator, AsyncIterator, Iterable
from contextlib import aclosing
from typing import TYPE_CHECKING, Any

from langchain_core.messages import AIMessageChunk
from langgraph.types import StreamMode

from finagent.answering.citations import citations
from finagent.clients.budget import answer_budget
from finagent.graph.agent import Agent, InvalidRequestError, PreparedRun
from finagent.nodes.common import decision_of
from finagent.observability import get_logger
from finagent.retrieval.fairness import embedding_user

if TYPE_CHECKING:  # the SSE library loads with the server, not with `finagent ask`
    from sse_starlette import EventSourceResponse, ServerSentEvent

log = get_logger("finagent.server.stream")

#: The event names of the contract.
PROGRESS, TOKEN, FINAL, ERROR = "progress", "token", "final", "error"
STREAM_MODES: list[StreamMode] = ["updates", "messages", "custom", "values"]
CHUNK_CHARS = 40  # size of the pieces an answer composed without an LLM is sent in
QUEUE_SIZE = 256
PING_SECONDS = 15

SCENARIO_NAMES = {
    1: "поиск по всем документам пользователя",
    2: "база знаний и живые данные",
    3: "выбранные документы целиком",
    4: "поиск по выбранным документам",
    5: "нужно уточнение",
}
LIVE_NAMES = {"fetch_cbr": "Банк России", "fetch_news": "финансовые новости"}
SEARCH_NODES = frozenset(
    {"search_all_documents", "search_selected_documents", "load_full_documents", "search_kb"}
)
ANSWER_NODES = frozenset({"answer"})
MSG_SCENARIO = "Сценарий S{number}: {name}."
MSG_SOURCES = "Найдено фрагментов источников: {count}."
MSG_LIVE_OK = "Живые данные получены: {name}."
MSG_LIVE_FAILED = "Живые данные недоступны: {name}."
MSG_FAILED = "Не удалось получить ответ: внутренняя ошибка сервиса. Повторите запрос позже."


#: One event of the contract: its name and its JSON object.
StreamEvent = tuple[str, dict[str, Any]]


def sse(event: str, data: dict[str, Any]) -> StreamEvent:
    return (event, data)


def to_sse(event: StreamEvent) -> ServerSentEvent:
    from sse_starlette import ServerSentEvent

    return ServerSentEvent(data=json.dumps(event[1], ensure_ascii=False), event=event[0])


def chunked(text: str, size: int = CHUNK_CHARS) -> list[str]:
    """``text`` in pieces of about ``size`` characters, cut after whitespace when possible."""
    pieces: list[str] = []
    while text:
        cut = len(text) if len(text) <= size else text.rfind(" ", 0, size) + 1 or size
        pieces.append(text[:cut])
        text = text[cut:]
    return pieces


class Translator:
    """Turns LangGraph stream parts into the contract's events."""

    def __init__(self) -> None:
        self.tokens = 0
        self.chunks = 0
        self.state: dict[str, Any] = {}

    def feed(self, mode: str, part: Any) -> Iterable[StreamEvent]:
        if mode == "values" and isinstance(part, dict):
            self.state = part
        elif mode == "messages":
            message, meta = part
            if (
                isinstance(message, AIMessageChunk)
                and meta.get("langgraph_node") in ANSWER_NODES
                and message.text
            ):
                self.tokens += 1
                yield sse(TOKEN, {"text": message.text})
        elif mode == "custom" and isinstance(part, dict) and "stage" in part:
            yield sse(PROGRESS, part)
        elif mode == "updates" and isinstance(part, dict):
            for node, update in part.items():
                yield from self._progress(node, update)

    def _progress(self, node: str, update: Any) -> Iterable[StreamEvent]:
        if not isinstance(update, dict):
            return
        if node == "orchestrate" and update.get("decision") is not None:
            decision = decision_of(update)  # type: ignore[arg-type]
            number = int(decision.scenario)
            yield sse(
                PROGRESS,
                {
                    "stage": "scenario",
                    "scenario": number,
                    "intents": list(decision.intents),
                    "message": MSG_SCENARIO.format(
                        number=number, name=SCENARIO_NAMES.get(number, "")
                    ),
                },
            )
        elif node in SEARCH_NODES and "chunks" in update:
            self.chunks += len(update.get("chunks") or [])
            yield sse(
                PROGRESS,
                {
                    "stage": "sources",
                    "node": node,
                    "count": self.chunks,
                    "message": MSG_SOURCES.format(count=self.chunks),
                },
            )
        elif node in LIVE_NAMES and update.get("external"):
            for item in update["external"]:
                ok = bool(getattr(item, "ok", False))
                name = LIVE_NAMES[node]
                yield sse(
                    PROGRESS,
                    {
                        "stage": "live_data",
                        "source": node.removeprefix("fetch_"),
                        "ok": ok,
                        "message": (MSG_LIVE_OK if ok else MSG_LIVE_FAILED).format(name=name),
                    },
                )


def final_payload(agent: Agent, state: dict[str, Any], chat_id: str | None) -> dict[str, Any]:
    result = agent.result_of(state)
    sources = [
        {"id": c.id, "title": c.title, "document_id": c.document_id, "source": c.source}
        for c in result.used_chunks
    ]
    return {
        "answer": result.answer,
        "scenario": result.scenario,
        "sources": sources,
        "citations": citations(
            list(state.get("chunks") or []),
            list(state.get("external") or []),
            agent.settings.max_context_chars,
            (state.get("debug") or {}).get("source_numbers"),
        ),
        "chat_id": chat_id,
    }


async def run_events(agent: Agent, prepared: PreparedRun) -> AsyncGenerator[StreamEvent]:
    """The events of one run, ending with ``final`` or ``error``."""
    graph = await agent.graph()
    translator = Translator()
    # aclosing: an async generator left by an exception is not closed until collected;
    # closing it now makes LangGraph cancel the running nodes (client disconnects)
    parts: Any = graph.astream(
        prepared.input,
        prepared.config,
        context=agent.context_of(prepared),
        stream_mode=STREAM_MODES,
    )
    async with aclosing(parts):
        async for mode, part in parts:
            for event in translator.feed(mode, part):
                yield event
    state = translator.state
    try:
        payload = final_payload(agent, state, prepared.input.get("chat_id"))
    except InvalidRequestError as exc:
        yield sse(ERROR, {"message": str(exc)})
        return
    if not translator.tokens:  # no LLM tokens: the composed answer in pieces
        for piece in chunked(payload["answer"]):
            yield sse(TOKEN, {"text": piece})
    yield sse(FINAL, payload)


async def _produce(
    agent: Agent, prepared: PreparedRun, queue: asyncio.Queue[StreamEvent | None]
) -> None:
    embedding_user.set(prepared.user_id)  # this task's own context: fair query embedding
    try:
        # every external call made for this answer shares one time budget
        with answer_budget(agent.settings.answer_budget_s):
            async with aclosing(run_events(agent, prepared)) as run:
                async for event in run:
                    await queue.put(event)
    except Exception:
        log.exception("stream_failed")
        await queue.put(sse(ERROR, {"message": MSG_FAILED}))
    finally:
        await queue.put(None)


_cancelled_runs: set[asyncio.Task[None]] = set()
_NEXT: StreamEvent = ("", {})  # marker: nothing taken from the queue yet


def coalesced(
    event: StreamEvent, queue: asyncio.Queue[StreamEvent | None]
) -> tuple[StreamEvent, StreamEvent | None]:
    """``event`` with the tokens already waiting behind it joined into it, and the next
    event taken from the queue (``_NEXT`` when none was taken).

    A client that keeps up gets every token as its own event; under load, tokens that
    piled up go out as one event instead of one write each.
    """
    if event[0] != TOKEN:
        return event, _NEXT
    text = [str(event[1]["text"])]
    while not queue.empty():
        following = queue.get_nowait()
        if following is None or following[0] != TOKEN:
            return (TOKEN, {"text": "".join(text)}), following
        text.append(str(following[1]["text"]))
    return (TOKEN, {"text": "".join(text)}), _NEXT


async def events(agent: Agent, prepared: PreparedRun) -> AsyncIterator[ServerSentEvent]:
    """``run_events`` in a task of its own; closing this iterator cancels the run."""
    queue: asyncio.Queue[StreamEvent | None] = asyncio.Queue(QUEUE_SIZE)
    task = asyncio.create_task(_produce(agent, prepared, queue), context=contextvars.copy_context())
    try:
        pending: StreamEvent | None = await queue.get()
        while pending is not None:
            event, pending = coalesced(pending, queue)
            yield to_sse(event)
            if pending is _NEXT:
                pending = await queue.get()
    finally:
        if not task.done():
            task.cancel()
            log.info("stream_cancelled")
            _cancelled_runs.add(task)  # referenced until its clean-up ends
            task.add_done_callback(_cancelled_runs.discard)
        # never cancel the task a second time (as gather would when this generator is
        # cancelled): LangGraph unwinds a cancelled run in a task of its own, and a second
        # cancellation would stop that unwinding before the running nodes are cancelled
        await asyncio.wait([task])


def stream_response(agent: Agent, prepared: PreparedRun) -> EventSourceResponse:
    """The SSE response of a checked request (see the module docstring for the events)."""
    from sse_starlette import EventSourceResponse

    return EventSourceResponse(
        events(agent, prepared),
        ping=PING_SECONDS,
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )
