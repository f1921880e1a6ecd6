"""The answer budget for graphs run by the LangGraph API / Studio.

``Agent.run``, the SSE service and the CLI wrap a run in ``answer_budget``; the LangGraph
API calls the compiled graph itself. :func:`with_answer_budget` returns the same graph
whose every run (``invoke``, ``stream``, ``astream_events``: all go through ``astream``)
starts a deadline of ``seconds`` and carries it in the run's configuration, where each
external call finds it (``finagent.clients.budget.remaining_s``). A run inside a run (a
subgraph) keeps the deadline it was given.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.graph.state import CompiledStateGraph

from finagent.clients.budget import RUN_DEADLINE_KEY

BUDGET_KEY = "__finagent_answer_budget_s"


class BudgetedGraph(CompiledStateGraph):  # type: ignore[type-arg]
    """A compiled graph whose runs each get one answer budget (``BUDGET_KEY`` in its config)."""

    async def astream(  # type: ignore[override]
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        configurable = dict((config or {}).get("configurable") or {})
        seconds = (self.config or {}).get("configurable", {}).get(BUDGET_KEY)
        if RUN_DEADLINE_KEY not in configurable and isinstance(seconds, int | float):
            configurable[RUN_DEADLINE_KEY] = time.monotonic() + seconds
            config = {**(config or {}), "configurable": configurable}
        async for chunk in super().astream(input, config, **kwargs):
            yield chunk


def with_answer_budget(
    graph: CompiledStateGraph[Any, Any, Any, Any], seconds: float | None
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """``graph`` with an answer budget of ``seconds`` per run (None: unchanged)."""
    if seconds is None:
        return graph
    attrs = {k: v for k, v in graph.__dict__.items() if k != "__orig_class__"}
    budgeted = BudgetedGraph(**attrs)
    return budgeted.with_config({"configurable": {BUDGET_KEY: seconds}})
