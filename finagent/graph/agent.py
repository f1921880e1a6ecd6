"""The RAG agent graph and the ``Agent`` Python API."""

from __future__ import annotations

import uuid
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import quote

from langchain_core.callbacks import BaseCallbackHandler
from langchain_core.runnables import Runnable, RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.store.base import BaseStore

from finagent.bootstrap import Deps, Root
from finagent.clients.budget import answer_budget
from finagent.config import Settings
from finagent.input_checks import (  # noqa: F401  (re-exported: the servers import them here)
    MAX_CHAT_ID_CHARS,
    MAX_DOCUMENT_ID_CHARS,
    MAX_INSTRUCTIONS_CHARS,
    MAX_SELECTED_DOCUMENTS,
    InvalidRequestError,
    checked_documents,
    checked_query,
    checked_text,
    checked_user,
)
from finagent.nodes.answer import answer
from finagent.nodes.calc import after_calculate, calculate_node
from finagent.nodes.clarify import clarify
from finagent.nodes.common import decision_of
from finagent.nodes.context import AgentContext
from finagent.nodes.documents import (
    load_full_documents,
    no_documents,
    search_all_documents,
    search_selected_documents,
)
from finagent.nodes.intents import (
    INTENT_NODES,
    fan_out,
    fetch_cbr,
    fetch_news,
    route_intent,
    search_kb,
    smalltalk,
)
from finagent.nodes.load_history import load_history
from finagent.nodes.orchestrate import orchestrate
from finagent.nodes.reply import reply
from finagent.nodes.save_turn import save_turn
from finagent.nodes.tools import after_answer, tools
from finagent.retrieval.fairness import embedding_user
from finagent.state import AgentInput, AgentOutput, AgentState, Chunk, Scenario

SCENARIO_NODES = {
    Scenario.ALL_DOCUMENTS: "search_all_documents",
    Scenario.ROUTED: "route_intent",
    Scenario.FULL_DOCUMENTS: "load_full_documents",
    Scenario.SELECTED_SEARCH: "search_selected_documents",
    Scenario.CLARIFY: "clarify",
}


def stop_on_error(state: AgentState) -> str:
    """After load_history: reply at once when the input was refused."""
    return "reply" if state.get("error") else "orchestrate"


def by_scenario(state: AgentState) -> str:
    if state.get("error"):
        return "reply"
    decision = decision_of(state)
    if decision.scenario == Scenario.ALL_DOCUMENTS and (
        decision.user_documents == 0 or decision.missing_document
    ):
        # nothing uploaded: say how to upload; the document named is not held: say which are
        return "no_documents"
    return SCENARIO_NODES[decision.scenario]


def compile_agent_graph(
    checkpointer: BaseCheckpointSaver[Any] | None = None, store: BaseStore | None = None
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the agent graph; its nodes reach the dependencies through the run context."""
    graph = StateGraph(
        AgentState,
        context_schema=AgentContext,
        input_schema=AgentInput,
        output_schema=AgentOutput,
    )
    graph.add_node("load_history", load_history)
    graph.add_node("orchestrate", orchestrate)
    graph.add_node("search_all_documents", search_all_documents)
    graph.add_node("route_intent", route_intent)
    graph.add_node("search_kb", search_kb)
    graph.add_node("fetch_cbr", fetch_cbr)
    graph.add_node("fetch_news", fetch_news)
    graph.add_node("smalltalk", smalltalk)
    graph.add_node("calculate", calculate_node)
    graph.add_node("load_full_documents", load_full_documents)
    graph.add_node("search_selected_documents", search_selected_documents)
    graph.add_node("clarify", clarify)
    graph.add_node("no_documents", no_documents)
    graph.add_node("answer", answer)
    graph.add_node("tools", tools)
    graph.add_node("save_turn", save_turn)
    graph.add_node("reply", reply)

    graph.add_edge(START, "load_history")
    graph.add_conditional_edges("load_history", stop_on_error, ["orchestrate", "reply"])
    graph.add_conditional_edges(
        "orchestrate", by_scenario, [*SCENARIO_NODES.values(), "no_documents", "reply"]
    )
    graph.add_conditional_edges("route_intent", fan_out, list(INTENT_NODES.values()))
    for node in (
        "search_all_documents",
        "load_full_documents",
        "search_selected_documents",
        *(n for n in INTENT_NODES.values() if n != "calculate"),
    ):
        graph.add_edge(node, "answer")
    # the calc node answers the turn itself, unless it found nothing to compute
    graph.add_conditional_edges("calculate", after_calculate, ["save_turn", "answer"])
    graph.add_conditional_edges("answer", after_answer, {"tools": "tools", "end": "save_turn"})
    graph.add_edge("tools", "answer")
    # every answering path ends in the one node that saves the turn
    graph.add_edge("clarify", "save_turn")
    graph.add_edge("no_documents", "save_turn")
    graph.add_edge("save_turn", "reply")
    graph.add_edge("reply", END)  # the answer joins the conversation as an AI message
    return graph.compile(checkpointer=checkpointer, store=store, name="finagent")


def build_agent_graph(
    deps: Deps, checkpointer: BaseCheckpointSaver[Any] | None = None
) -> Runnable[Any, Any]:
    """The agent graph over ``deps``: a run without a context of its own gets them in the
    default one (who asks then comes from ``configurable``, as for LangServe)."""
    return compile_agent_graph(checkpointer).bind(context=AgentContext(deps=deps))


def chat_thread_id(user_id: str, chat_id: str) -> str:
    """The checkpointer thread of one user's chat, injective in (user, chat).

    The user id is percent-encoded, so its ``:`` cannot reach the separator: user
    ``a:b`` with chat ``c`` and user ``a`` with chat ``b:c`` get different threads.
    """
    return f"{quote(user_id, safe='')}:{chat_id}"


@dataclass
class PreparedRun:
    """A checked request: the graph input and the run configuration (user from the caller)."""

    user_id: str
    input: dict[str, Any]
    config: RunnableConfig
    context: AgentContext


@dataclass
class AgentResult:
    """One answer: the Russian Markdown text, the passages it drew on, the scenario."""

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
        self._graph: Runnable[Any, Any] | None = None

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

    async def graph(self) -> Runnable[Any, Any]:
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
        config: RunnableConfig | None = None,
    ) -> PreparedRun:
        """Check the input (InvalidRequestError in Russian) and build the run's graph input
        and configuration; ``run`` and the streaming service both start from here."""
        user_id = checked_user(user_id)
        text = checked_query(query, self.settings.max_query_chars)
        if chat_id is not None:
            chat_id = checked_text(chat_id, "чат", MAX_CHAT_ID_CHARS, key=True)
        selected = checked_documents(selected_document_ids)
        if answer_instructions is not None:
            answer_instructions = checked_text(
                answer_instructions, "указания к ответу", MAX_INSTRUCTIONS_CHARS
            )
        thread = chat_thread_id(user_id, chat_id or uuid.uuid4().hex)
        run: RunnableConfig = {"recursion_limit": 40, **(config or {})}  # tags, metadata, name
        # who asks and the thread are the checked ones, whatever the caller's config says
        run["configurable"] = {
            **(run.get("configurable") or {}),
            "user_id": user_id,
            "chat_id": chat_id,
            "thread_id": thread,
        }
        if callbacks:
            run["callbacks"] = [*(run.get("callbacks") or []), *callbacks]  # type: ignore[misc]
        graph_input = {
            "query": text,
            "chat_id": chat_id,
            "selected_document_ids": selected,
            "answer_instructions": answer_instructions,
        }
        context = AgentContext(user_id=user_id, chat_id=chat_id, deps=self._deps)
        return PreparedRun(user_id=user_id, input=graph_input, config=run, context=context)

    def context_of(self, prepared: PreparedRun) -> AgentContext:
        """The prepared run's context with this agent's (started) dependencies."""
        return replace(prepared.context, deps=self.deps)

    @staticmethod
    def result_of(state: dict[str, Any]) -> AgentResult:
        """The result of a finished run's final state (InvalidRequestError for documents
        the user does not have)."""
        if state.get("error") == "unknown_documents":
            raise InvalidRequestError(state["answer"])
        decision = state.get("decision")
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
        config: RunnableConfig | None = None,
    ) -> AgentResult:
        """Answer ``query`` for ``user_id``; ``callbacks`` (LangChain handlers) see every
        model call of the run, e.g. to count LLM round-trips; ``config`` is the run's
        LangChain configuration (tags, metadata, run name, callbacks)."""
        prepared = self.prepare(
            user_id,
            query,
            chat_id,
            selected_document_ids,
            answer_instructions,
            callbacks=callbacks,
            config=config,
        )
        graph = await self.graph()
        token = embedding_user.set(user_id)  # fair query embedding: one queue per user
        try:
            # every external call made for this answer shares one time budget
            with answer_budget(self.settings.answer_budget_s):
                state = await graph.ainvoke(
                    prepared.input, prepared.config, context=self.context_of(prepared)
                )
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
