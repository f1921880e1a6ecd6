"""Graph factories of the public API: the agent and research graphs over a model, a
checkpointer and a store of the caller's choosing.

Both start finagent's dependencies (indexes, stores, clients) from ``settings`` in the
running event loop; they stay open until :func:`aclose_graphs` (``Agent`` closes its own).
Call it before the event loop ends to close them cleanly (a host that forgets still exits:
finagent/storage/sqlite_exit.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from finagent.bootstrap import Root
from finagent.config import Settings, get_settings

if TYPE_CHECKING:
    from langchain_core.language_models import BaseChatModel
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.graph.state import CompiledStateGraph
    from langgraph.store.base import BaseStore

#: ``llm`` not given: the model configured in ``settings`` (or none: offline answers).
CONFIGURED: Any = object()


#: The roots the factories started: held until ``aclose_graphs`` (a root collected would
#: close its stores under a graph still in use).
_STARTED: list[Root] = []


def _root(settings: Settings | None, llm: Any) -> Root:
    settings = settings or get_settings()
    root = Root(settings) if llm is CONFIGURED else Root(settings, llm=llm)
    _STARTED.append(root)
    return root


async def aclose_graphs() -> None:
    """Close every dependency the factories started (their graphs stop working)."""
    while _STARTED:
        await _STARTED.pop().aclose()


async def create_agent_graph(
    settings: Settings | None = None,
    *,
    llm: BaseChatModel | None = CONFIGURED,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    store: BaseStore | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The agent graph: input ``query`` or ``messages``, the user in the run's context
    (``context={"user_id": ...}``) or ``configurable.user_id``.

    With a ``checkpointer`` a thread is a conversation (its id names the chat); with a
    ``store`` the chats are kept there. ``llm=None`` answers offline.
    """
    from finagent.graph.agent import compile_agent_graph
    from finagent.graph.api_graph import for_langgraph_api
    from finagent.nodes.context import DEPS_KEY

    deps = await _root(settings, llm).start()
    graph = for_langgraph_api(
        compile_agent_graph(checkpointer, store), deps.settings.answer_budget_s
    )
    return graph.with_config({"configurable": {DEPS_KEY: deps}})


async def create_research_graph(
    settings: Settings | None = None,
    *,
    llm: BaseChatModel | None = CONFIGURED,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    store: BaseStore | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The research graph (schema-guided reasoning over tools; needs a model with
    structured output); clarifications interrupt it, which needs a ``checkpointer``."""
    from finagent.graph.research import research_graph_over

    deps = await _root(settings, llm).start()
    return research_graph_over(deps, checkpointer=checkpointer, store=store)
