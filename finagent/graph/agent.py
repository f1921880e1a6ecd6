"""The RAG agent graph and the ``Agent`` Python API."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from finagent.answering import messages
from finagent.bootstrap import Deps, Root
from finagent.clients.budget import answer_budget
from finagent.config import Settings
from finagent.nodes.answer import after_answer, make_answer, make_tools
from finagent.nodes.calc import make_calculate
from finagent.nodes.clarify import make_clarify
from finagent.nodes.common import decision_of
from finagent.nodes.documents import (
    make_load_full_documents,
    make_no_documents,
    make_search_all_documents,
    make_search_selected_documents,
)
from finagent.nodes.intents import (
    INTENT_NODES,
    fan_out,
    make_fetch_cbr,
    make_fetch_news,
    make_search_kb,
    route_intent,
    smalltalk,
)
from finagent.nodes.load_history import make_load_history
from finagent.nodes.orchestrate import make_orchestrate
from finagent.retrieval.fairness import embedding_user
from finagent.state import AgentState, Chunk, Scenario
from finagent.text_safety import is_utf8

SCENARIO_NODES = {
    Scenario.ALL_DOCUMENTS: "search_all_documents",
    Scenario.ROUTED: "route_intent",
    Scenario.FULL_DOCUMENTS: "load_full_documents",
    Scenario.SELECTED_SEARCH: "search_selected_documents",
    Scenario.CLARIFY: "clarify",
}


def _stop_on_error(next_node: str):  # type: ignore[no-untyped-def]
    def route(state: AgentState) -> str:
        return END if state.get("error") else next_node

    return route


def _by_scenario(state: AgentState) -> str:
    if state.get("error"):
        return END
    decision = decision_of(state)
    if decision.scenario == Scenario.ALL_DOCUMENTS and decision.user_documents == 0:
        return "no_documents"  # nothing uploaded: say how to upload instead of searching
    return SCENARIO_NODES[decision.scenario]


def build_agent_graph(
    services: Deps, checkpointer: BaseCheckpointSaver[Any] | None = None
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the agent graph over ``services``."""
    graph = StateGraph(AgentState)
    graph.add_node("load_history", make_load_history(services))
    graph.add_node("orchestrate", make_orchestrate(services))
    graph.add_node("search_all_documents", make_search_all_documents(services))
    graph.add_node("route_intent", route_intent)
    graph.add_node("search_kb", make_search_kb(services))
    graph.add_node("fetch_cbr", make_fetch_cbr(services))
    graph.add_node("fetch_news", make_fetch_news(services))
    graph.add_node("smalltalk", smalltalk)
    graph.add_node("calculate", make_calculate(services))
    graph.add_node("load_full_documents", make_load_full_documents(services))
    graph.add_node("search_selected_documents", make_search_selected_documents(services))
    graph.add_node("clarify", make_clarify(services))
    graph.add_node("no_documents", make_no_documents(services))
    graph.add_node("answer", make_answer(services))
    graph.add_node("tools", make_tools(services))

    graph.add_edge(START, "load_history")
    graph.add_conditional_edges("load_history", _stop_on_error("orchestrate"), ["orchestrate", END])
    graph.add_conditional_edges(
        "orchestrate", _by_scenario, [*SCENARIO_NODES.values(), "no_documents", END]
    )
    graph.add_conditional_edges("route_intent", fan_out, list(INTENT_NODES.values()))
    for node in (
        "search_all_documents",
        "load_full_documents",
        "search_selected_documents",
        *INTENT_NODES.values(),
    ):
        graph.add_edge(node, "answer")
    graph.add_conditional_edges("answer", after_answer, {"tools": "tools", "end": END})
    graph.add_edge("tools", "answer")
    graph.add_edge("clarify", END)
    graph.add_edge("no_documents", END)
    return graph.compile(checkpointer=checkpointer, name="finagent")


def chat_thread_id(user_id: str, chat_id: str) -> str:
    """The checkpointer thread of one user's chat, injective in (user, chat).

    The user id is percent-encoded, so its ``:`` cannot reach the separator: user
    ``a:b`` with chat ``c`` and user ``a`` with chat ``b:c`` get different threads.
    """
    return f"{quote(user_id, safe='')}:{chat_id}"


class InvalidRequestError(ValueError):
    """Bad input to ``Agent.run``; the message is for the user (Russian)."""


# The limits of the FastAPI service's AskRequest, so every entry point takes the same input.
MAX_CHAT_ID_CHARS = 200
MAX_DOCUMENT_ID_CHARS = 200
MAX_SELECTED_DOCUMENTS = 50
MAX_INSTRUCTIONS_CHARS = 2000


def _checked_text(value: object, field: str, limit: int | None = None, *, key: bool = False) -> str:
    """``value`` if it is a string that can be stored and sent (UTF-8), else InvalidRequestError.

    ``key`` values (chat and document ids) become PostgreSQL keys, which cannot hold NUL.
    """
    if not isinstance(value, str):
        raise InvalidRequestError(messages.FIELD_WRONG_TYPE.format(field=field, expected="строкой"))
    if not is_utf8(value):  # lone surrogates: no store, index or HTTP client takes them
        raise InvalidRequestError(messages.FIELD_BAD_TEXT.format(field=field))
    if key and "\x00" in value:
        raise InvalidRequestError(messages.FIELD_BAD_TEXT.format(field=field))
    if limit is not None and len(value) > limit:
        raise InvalidRequestError(
            messages.FIELD_TOO_LONG.format(field=field, length=len(value), limit=limit)
        )
    return value


def _checked_documents(value: object) -> list[str]:
    if value is None:
        return []
    field = "выбранные документы"
    if not isinstance(value, list | tuple):
        raise InvalidRequestError(
            messages.FIELD_WRONG_TYPE.format(field=field, expected="списком идентификаторов")
        )
    if len(value) > MAX_SELECTED_DOCUMENTS:
        raise InvalidRequestError(
            messages.TOO_MANY_DOCUMENTS.format(count=len(value), limit=MAX_SELECTED_DOCUMENTS)
        )
    return [
        _checked_text(v, "идентификатор документа", MAX_DOCUMENT_ID_CHARS, key=True) for v in value
    ]


@dataclass
class PreparedRun:
    """A checked request: the graph input and the run configuration (user from the caller)."""

    user_id: str
    input: dict[str, Any]
    config: RunnableConfig


@dataclass
class AgentResult:
    answer: str
    used_chunks: list[Chunk] = field(default_factory=list)
    scenario: int | None = None
    debug: dict[str, Any] = field(default_factory=dict)


class Agent:
    """The public Python API: ``await Agent.run(user_id=..., query=...)``."""

    def __init__(self, deps: Deps | Root) -> None:
        """Over started ``deps``, or over a root it starts on the first run and closes."""
        self._root = deps if isinstance(deps, Root) else None
        self._deps = deps if isinstance(deps, Deps) else None
        self.settings: Settings = deps.settings
        self._graph: CompiledStateGraph[Any, Any, Any, Any] | None = None

    @classmethod
    async def create(cls, settings: Settings | None = None, **overrides: Any) -> Agent:
        from finagent.config import get_settings

        root = Root(settings or get_settings(), **overrides)
        await root.start()
        return cls(root)

    @property
    def deps(self) -> Deps:
        """The started dependencies (RuntimeError before the first run of a root's agent)."""
        return self._deps if self._deps is not None else self._root.deps  # type: ignore[union-attr]

    async def graph(self) -> CompiledStateGraph[Any, Any, Any, Any]:
        if self._graph is None:
            deps = self._deps if self._deps is not None else await self._root.start()  # type: ignore[union-attr]
            self._graph = build_agent_graph(deps, deps.checkpointer)
        return self._graph

    def prepare(
        self,
        user_id: str,
        query: str,
        chat_id: str | None = None,
        selected_document_ids: list[str] | None = None,
        answer_instructions: str | None = None,
        *,
        callbacks: list[BaseCallbackHandler] | None = None,
    ) -> PreparedRun:
        """Check the input (InvalidRequestError in Russian) and build the run's graph input
        and configuration; ``run`` and the streaming service both start from here."""
        if user_id is None or (isinstance(user_id, str) and not user_id.strip()):
            raise InvalidRequestError("Не указан пользователь (user_id).")
        _checked_text(user_id, "пользователь")
        text = _checked_text(query if query is not None else "", "вопрос").strip()
        limit = self.settings.max_query_chars
        if not text:
            raise InvalidRequestError(messages.EMPTY_QUERY)
        if len(text) > limit:
            raise InvalidRequestError(messages.QUERY_TOO_LONG.format(length=len(text), limit=limit))
        if chat_id is not None:
            chat_id = _checked_text(chat_id, "чат", MAX_CHAT_ID_CHARS, key=True)
        selected = _checked_documents(selected_document_ids)
        if answer_instructions is not None:
            answer_instructions = _checked_text(
                answer_instructions, "указания к ответу", MAX_INSTRUCTIONS_CHARS
            )
        thread = chat_thread_id(user_id, chat_id or uuid.uuid4().hex)
        config: RunnableConfig = {
            "configurable": {"user_id": user_id, "chat_id": chat_id, "thread_id": thread},
            "recursion_limit": 40,
        }
        if callbacks:
            config["callbacks"] = list(callbacks)
        graph_input = {
            "query": text,
            "chat_id": chat_id,
            "selected_document_ids": selected,
            "answer_instructions": answer_instructions,
        }
        return PreparedRun(user_id=user_id, input=graph_input, config=config)

    @staticmethod
    def result_of(state: dict[str, Any]) -> AgentResult:
        """The result of a finished run's final state (InvalidRequestError for documents
        the user does not have)."""
        if state.get("error") == "unknown_documents":
            raise InvalidRequestError(state["answer"])
        decision = state.get("decision")
        if isinstance(decision, dict):
            decision = decision_of(state)  # type: ignore[arg-type]
        return AgentResult(
            answer=state.get("answer", ""),
            used_chunks=list(state.get("chunks") or []),
            scenario=int(decision.scenario) if decision is not None else None,
            debug=dict(state.get("debug") or {}),
        )

    async def run(
        self,
        user_id: str,
        query: str,
        chat_id: str | None = None,
        selected_document_ids: list[str] | None = None,
        answer_instructions: str | None = None,
        *,
        callbacks: list[BaseCallbackHandler] | None = None,
    ) -> AgentResult:
        """Answer ``query`` for ``user_id``; ``callbacks`` (LangChain handlers) see every
        model call of the run, e.g. to count LLM round-trips."""
        prepared = self.prepare(
            user_id,
            query,
            chat_id,
            selected_document_ids,
            answer_instructions,
            callbacks=callbacks,
        )
        graph = await self.graph()
        token = embedding_user.set(user_id)  # fair query embedding: one queue per user
        try:
            # every external call made for this answer shares one time budget
            with answer_budget(self.settings.answer_budget_s):
                state = await graph.ainvoke(prepared.input, prepared.config)
        finally:
            embedding_user.reset(token)
        return self.result_of(state)

    async def aclose(self) -> None:
        """Close the root this agent was given (started deps belong to their opener)."""
        if self._root is not None:
            await self._root.aclose()

    async def __aenter__(self) -> Agent:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()
