"""The agent graph's run context (its ``context_schema``) and how nodes reach their deps.

Studio and the LangGraph API set ``user_id``, ``chat_id`` and the per-run options as the
run's ``context``; ``Agent.run`` and the FastAPI service set them too. The dependencies
travel in the same context (``deps``, skipped in the JSON schema Studio shows); a run
without them (the LangGraph API, whose context is JSON) uses the process-wide root that
its graph factory started (finagent/graph/server.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.runnables import RunnableConfig
from langgraph.config import get_config
from langgraph.runtime import Runtime
from pydantic.json_schema import SkipJsonSchema

from finagent.bootstrap import Deps
from finagent.storage.history import ChatHistory
from finagent.tools.base import ToolContext, ToolError

AnswerToolsOption = Literal["scenario", "all"]

#: ``configurable`` key of the dependencies a graph built by a factory carries
#: (finagent/graph/factories.py); a context set by the caller then needs none.
DEPS_KEY = "__finagent_deps"


@dataclass(kw_only=True)
class AgentContext:
    """Who asks and how to answer, for one run."""

    user_id: str | None = field(
        default=None,
        metadata={"description": "The user whose documents and chats the run may use."},
    )
    chat_id: str | None = field(
        default=None, metadata={"description": "The chat whose history the run continues."}
    )
    answer_tools: AnswerToolsOption | None = field(
        default=None,
        metadata={"description": "Tools offered to the answer model (default: the setting)."},
    )
    deps: SkipJsonSchema[Deps | None] = field(default=None, repr=False, compare=False)


def _context(runtime: Runtime[AgentContext]) -> AgentContext | None:
    context = runtime.context
    return context if isinstance(context, AgentContext) else None


def deps_of(runtime: Runtime[AgentContext]) -> Deps:
    """The run's dependencies: the context's, the graph's (``DEPS_KEY``), else the
    process-wide root's (started)."""
    context = _context(runtime)
    if context is not None and context.deps is not None:
        return context.deps
    carried = (run_config().get("configurable") or {}).get(DEPS_KEY)
    if isinstance(carried, Deps):
        return carried
    from finagent.bootstrap import default_root

    return default_root().deps


def run_config() -> RunnableConfig:
    """The running node's configuration (empty outside a graph run, e.g. in unit tests)."""
    try:
        return get_config()
    except RuntimeError:
        return {}


def caller(runtime: Runtime[AgentContext], state: dict[str, Any] | None = None) -> ToolContext:
    """The caller's identity (never from the question): the LangGraph API's authenticated
    user first, then the run context, then ``configurable.user_id``; ToolError without one.

    With ``state``, documents the question selected narrow the tools' scope.
    """
    config = run_config()
    configurable = config.get("configurable") or {}
    context = _context(runtime)
    user_id = configurable.get("langgraph_auth_user_id") or (context and context.user_id)
    if user_id:
        chat_id = (context and context.chat_id) or configurable.get("chat_id")
        ctx = ToolContext(user_id=user_id, chat_id=chat_id)
    else:
        ctx = ToolContext.from_config(config)
    if state is not None and state.get("selected_document_ids"):
        return ToolContext(
            user_id=ctx.user_id,
            chat_id=state.get("chat_id") or ctx.chat_id,
            selected_document_ids=tuple(state.get("selected_document_ids") or ()),
        )
    return ctx


def caller_or_none(runtime: Runtime[AgentContext]) -> ToolContext | None:
    try:
        return caller(runtime)
    except ToolError:
        return None


def answer_tools_option(runtime: Runtime[AgentContext], deps: Deps) -> str:
    """The run's answer-tools option, else the setting."""
    context = _context(runtime)
    return (context and context.answer_tools) or deps.settings.answer_tools


def history_of(runtime: Runtime[AgentContext], deps: Deps) -> ChatHistory:
    """Where chats are kept: the graph's store when it has one (the LangGraph API injects
    the platform's), else finagent's own."""
    store = runtime.store
    return deps.history if store is None or store is deps.store else ChatHistory(store)
