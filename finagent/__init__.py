"""finagent: a LangGraph agent answering Russian finance and tax questions with cited
sources.

The public API (imported on first use, so ``import finagent`` stays light)::

    from finagent import Agent, AgentResult, create_agent_graph, create_research_graph
"""

from __future__ import annotations

TYPE_CHECKING = False  # not ``typing``'s: importing typing would double the import time
if TYPE_CHECKING:
    from finagent.graph.agent import Agent, AgentResult
    from finagent.graph.factories import create_agent_graph, create_research_graph

__all__ = [
    "Agent",
    "AgentResult",
    "__version__",
    "aclose_graphs",
    "create_agent_graph",
    "create_research_graph",
]

_LAZY = {
    "Agent": "finagent.graph.agent",
    "AgentResult": "finagent.graph.agent",
    "aclose_graphs": "finagent.graph.factories",
    "create_agent_graph": "finagent.graph.factories",
    "create_research_graph": "finagent.graph.factories",
}


def __getattr__(name: str) -> object:
    if name == "__version__":
        from importlib.metadata import version

        return version("finagent")
    if name in _LAZY:
        from importlib import import_module

        return getattr(import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'finagent' has no attribute {name!r}")
