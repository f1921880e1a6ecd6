"""LangServe routes for both graphs: ``/langserve/agent`` and ``/langserve/research``.

Each gets invoke, batch, stream, stream_log, stream_events and the playground
(``langserve.add_routes``). The user is the bearer token's, set by a per-request config
modifier: whatever ``user_id`` a client puts in ``config.configurable`` is overwritten,
and its ``thread_id`` is kept under that user. LangServe is installed without its
``[server]`` extra, whose ``sse-starlette<2`` pin conflicts with langgraph-api; its routes
run on the project's sse-starlette (tests/integration/test_langserve.py).
"""

from __future__ import annotations

import dataclasses
import uuid
from typing import Any, Required, get_type_hints

from fastapi import FastAPI, Request
from langchain_core.runnables import ConfigurableFieldSpec, Runnable, RunnableBinding
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Send
from pydantic import BaseModel, ConfigDict
from typing_extensions import TypedDict

from finagent.bootstrap import Deps
from finagent.graph.agent import chat_thread_id, compile_agent_graph
from finagent.graph.api_graph import for_langgraph_api
from finagent.nodes.context import AgentContext
from finagent.observability import get_logger
from finagent.server.identity import identify
from finagent.server.redacting import redacted_dumps
from finagent.state import AgentOutput

log = get_logger("finagent.server.langserve")

AGENT_PATH = "/langserve/agent"
RESEARCH_PATH = "/langserve/research"


def graph_objects(obj: Any) -> Any:
    """JSON for what LangGraph puts in events besides LangChain objects (``Send`` from the
    intent fan-out, ``Interrupt``, ``Command``): their fields, or their text."""
    if isinstance(obj, BaseModel):
        return obj.model_dump()
    if isinstance(obj, Send):
        return {"node": obj.node, "arg": obj.arg}
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return dataclasses.asdict(obj)
    return {"type": type(obj).__name__, "repr": repr(obj)[:2000]}


def make_serializer() -> Any:
    from langserve.serialization import WellKnownLCSerializer

    class GraphSerializer(WellKnownLCSerializer):
        def dumps(self, obj: Any) -> bytes:
            # structural redaction: run outputs carry provider replies and errors
            # (``response_metadata`` of a ChatOpenAI generation in a stream_log patch)
            return redacted_dumps(obj, default=graph_objects)

    return GraphSerializer()


def make_config_modifier(deps: Deps):  # type: ignore[no-untyped-def]
    """The per-request config modifier: identity from ``Authorization``, never the body."""

    async def modify(config: dict[str, Any], request: Request) -> dict[str, Any]:
        user = identify(deps.settings, request.headers.get("authorization"))
        configurable = dict(config.get("configurable") or {})
        thread = str(configurable.get("thread_id") or uuid.uuid4().hex)
        configurable["user_id"] = user
        configurable["thread_id"] = chat_thread_id(user, thread)
        return {**config, "configurable": configurable}

    return modify


class ServedAgentInput(TypedDict, total=False):
    """The agent's input over LangServe: a ``query`` (required; chat ``messages`` are for
    the LangGraph API, where a thread holds the conversation)."""

    __pydantic_config__ = ConfigDict(use_attribute_docstrings=True)  # type: ignore[misc]

    query: Required[str]
    """The question, in Russian."""
    chat_id: str | None
    """The chat whose history the turn continues (none: a single turn)."""
    selected_document_ids: list[str]
    """Answer from these documents of the user only."""
    answer_instructions: str | None
    """How to answer (length, form); never changes what the sources say."""


class ServedResearchInput(TypedDict):
    """The research graph's input over LangServe."""

    query: str


CHAT_SPEC = ConfigurableFieldSpec(
    id="thread_id",
    annotation=str | None,
    name="Chat",
    description=(
        "The chat this call continues, kept under the bearer token's user "
        "(at most 200 characters; none: a new single turn)."
    ),
    default=None,
)


class ClientConfig(RunnableBinding[Any, Any]):
    """A graph whose published config is what a LangServe client may set: the chat
    (``configurable.thread_id``). The user is the token's, so ``user_id`` is not offered
    (the config modifier overwrites it), and the graph's own context fields stay hidden."""

    @property
    def config_specs(self) -> list[ConfigurableFieldSpec]:
        return [CHAT_SPEC]


def client_config(runnable: Runnable[Any, Any]) -> Runnable[Any, Any]:
    """``runnable`` publishing :data:`CHAT_SPEC` as its config schema."""
    return ClientConfig(bound=runnable)


def research_reply_type() -> Any:
    """The research graph's output over LangServe: its output schema and ``__interrupt__``
    (the questions of a clarification; LangServe drops keys its output type lacks)."""
    from finagent.graph.research_schema import ResearchOutput

    fields = {**get_type_hints(ResearchOutput, include_extras=True), "__interrupt__": list[Any]}
    return TypedDict("ResearchReply", fields, total=False)  # type: ignore[misc, operator]


def research_graph(deps: Deps) -> Any:
    """The research graph over ``deps``."""
    from finagent.graph.research import research_graph_over

    # clarifications interrupt the run, which needs a checkpointer; LangServe cannot
    # resume a run, so these live in memory only (the web chat uses /v1/research)
    return research_graph_over(deps, checkpointer=InMemorySaver())


def mount_langserve(app: FastAPI, deps: Deps) -> None:
    """Add both graphs' LangServe routes to ``app``."""
    from langserve import add_routes

    modifier = make_config_modifier(deps)
    # no checkpointer: a LangServe call is one turn; chat history comes from the store
    # the answer budget per run, as Agent.run has (LangServe calls the graph directly)
    agent = (
        for_langgraph_api(
            compile_agent_graph(), deps.settings.answer_budget_s, thread_is_chat=False
        )
        .bind(context=AgentContext(deps=deps))
        .with_config(recursion_limit=40)
        .with_types(input_type=ServedAgentInput, output_type=AgentOutput)
    )
    # typed input, output and config schemas: a query is required, and a research call
    # that stops on a clarification returns its ``__interrupt__`` as well
    research = research_graph(deps).with_types(
        input_type=ServedResearchInput, output_type=research_reply_type()
    )
    for path, runnable in ((AGENT_PATH, agent), (RESEARCH_PATH, research)):
        add_routes(
            app,
            client_config(runnable),
            path=path,
            per_req_config_modifier=modifier,
            serializer=make_serializer(),
        )
