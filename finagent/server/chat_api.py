"""JSON endpoints the web chat needs besides ask and documents: chats and research runs.

- ``GET /v1/chats``: the caller's chats (id, title = first question, number of turns)
- ``GET /v1/chats/{chat_id}``: one chat's turns
- ``POST /v1/research``: start a research run; it ends or stops at a clarification
- ``POST /v1/research/{run_id}/answer``: answer the clarification; the run resumes

Every id lives under the caller's user (from the bearer token): another user's chat or
run is simply not found.
"""

from __future__ import annotations

import asyncio
import uuid
from typing import Any

from fastapi import APIRouter, HTTPException, Request
from langgraph.types import Command
from pydantic import BaseModel, Field

from finagent.graph.agent import MAX_CHAT_ID_CHARS, Agent, chat_thread_id
from finagent.input_checks import InvalidRequestError, checked_text
from finagent.observability import get_logger
from finagent.server.app import Text, User
from finagent.server.body_checks import Utf8JsonRoute
from finagent.server.http_errors import AUTH_ERRORS, BODY_ERRORS
from finagent.server.input_limits import MAX_RESEARCH_QUERY_CHARS

log = get_logger("finagent.server.chat_api")

MAX_CHATS = 200
MAX_TURNS = 1000
NO_LLM = "Режим исследования недоступен: в сервисе не настроена языковая модель."
NO_RUN = "Исследование не найдено или не ждёт ответа на уточнение."
RUN_FAILED = "Исследование не удалось: внутренняя ошибка сервиса. Повторите запрос позже."
EMPTY = "Текст пуст: напишите вопрос или ответ."


class ResearchRequest(BaseModel):
    query: Text = Field(max_length=MAX_RESEARCH_QUERY_CHARS, description="The research question")


class ClarificationAnswer(BaseModel):
    answer: Text = Field(max_length=MAX_RESEARCH_QUERY_CHARS, description="The user's reply")


def _research_thread(user: str, run_id: str) -> str:
    return chat_thread_id(user, f"research:{run_id}")


class ResearchRuns:
    """The research graph over the started dependencies, built on first use."""

    def __init__(self, agent: Agent) -> None:
        self.agent = agent
        self._graph: Any = None
        self._lock = asyncio.Lock()

    async def graph(self) -> Any:
        from finagent.graph.research import research_graph_over

        deps = self.agent.deps
        if deps.llm is None:
            raise HTTPException(422, NO_LLM)
        async with self._lock:
            if self._graph is None:
                self._graph = research_graph_over(deps, checkpointer=deps.checkpointer)
        return self._graph

    async def run(self, user: str, run_id: str, value: Any) -> dict[str, Any]:
        graph = await self.graph()
        config = {"configurable": {"thread_id": _research_thread(user, run_id), "user_id": user}}
        try:
            result = await graph.ainvoke(value, config)
        except Exception as exc:
            log.exception("research_failed")
            raise HTTPException(422, RUN_FAILED) from exc
        return outcome(run_id, result)

    async def waiting(self, user: str, run_id: str) -> bool:
        graph = await self.graph()
        config = {"configurable": {"thread_id": _research_thread(user, run_id)}}
        state = await graph.aget_state(config)
        return any(task.interrupts for task in state.tasks)


def outcome(run_id: str, result: dict[str, Any]) -> dict[str, Any]:
    """The JSON answer for a run that ended or stopped at a clarification."""
    interrupts = result.get("__interrupt__") or []
    if interrupts:
        request = dict(interrupts[0].value)
        return {
            "run_id": run_id,
            "status": "needs_clarification",
            "questions": list(request.get("questions") or []),
            "unclear_terms": list(request.get("unclear_terms") or []),
            "assumptions": list(request.get("assumptions") or []),
        }
    return {
        "run_id": run_id,
        "status": result.get("status", "completed"),
        "answer": result.get("answer", ""),
        "sources": list(result.get("sources") or []),
        "report": result.get("report"),
    }


def build_router() -> APIRouter:
    router = APIRouter(route_class=Utf8JsonRoute)  # JSON bodies must be UTF-8, as elsewhere

    def runs(request: Request) -> ResearchRuns:
        state = request.app.state
        if getattr(state, "research_runs", None) is None:
            state.research_runs = ResearchRuns(state.agent)
        runs_: ResearchRuns = state.research_runs
        return runs_

    @router.get("/v1/chats", responses=AUTH_ERRORS)
    async def list_chats(request: Request, user: User) -> list[dict[str, Any]]:
        history = request.app.state.deps.history
        chats = []
        for chat_id in await history.chats(user, MAX_CHATS):
            turns = await history.last(user, chat_id, MAX_TURNS)
            title = next((t.content for t in turns if t.role == "user"), chat_id)
            chats.append({"id": chat_id, "title": title[:120], "turns": len(turns)})
        return chats

    @router.get("/v1/chats/{chat_id}", responses=AUTH_ERRORS)
    async def chat_turns(chat_id: str, request: Request, user: User) -> dict[str, Any]:
        try:
            checked_text(chat_id, "чат", MAX_CHAT_ID_CHARS, key=True)
        except InvalidRequestError as exc:
            raise HTTPException(422, str(exc)) from exc
        history = request.app.state.deps.history
        turns = await history.last(user, chat_id, MAX_TURNS)
        return {"id": chat_id, "turns": [t.model_dump() for t in turns]}

    @router.post("/v1/research", responses=BODY_ERRORS)
    async def start_research(body: ResearchRequest, request: Request, user: User) -> dict[str, Any]:
        if not body.query.strip():
            raise HTTPException(422, EMPTY)
        return await runs(request).run(user, uuid.uuid4().hex, {"query": body.query.strip()})

    @router.post("/v1/research/{run_id}/answer", responses=BODY_ERRORS)
    async def answer_research(
        run_id: str, body: ClarificationAnswer, request: Request, user: User
    ) -> dict[str, Any]:
        if not body.answer.strip():
            raise HTTPException(422, EMPTY)
        research = runs(request)
        if len(run_id) > 64 or not await research.waiting(user, run_id):
            raise HTTPException(422, NO_RUN)
        return await research.run(user, run_id, Command(resume=body.answer.strip()))

    return router
