"""The overall time budget of one answer, shared by every external call made for it.

``answer_budget(seconds)`` sets an absolute deadline in a context variable; asyncio tasks
(LangGraph nodes, concurrent tool calls) copy it when they start, so every external call
made while answering sees the same deadline. :func:`remaining_s` is what is left of it
(``None`` outside a budget). Calls then wait at most ``min(own deadline, remaining)``.

A run started by the LangGraph API carries its deadline in the run's configuration instead
(``RUN_DEADLINE_KEY``, set by ``finagent.graph.api_graph``): the API drives a graph from
changing tasks, so a context variable set at its entry would not reach later nodes, while
LangChain hands every node and model call the run's configuration.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_deadline: ContextVar[float | None] = ContextVar("finagent_answer_deadline", default=None)
# configurable key of a LangGraph run's absolute deadline (time.monotonic); "__" keeps it
# out of checkpoint metadata
RUN_DEADLINE_KEY = "__finagent_answer_deadline"


def _run_deadline() -> float | None:
    """The deadline of the LangGraph run being executed, if it carries one."""
    from langchain_core.runnables.config import var_child_runnable_config

    config = var_child_runnable_config.get() or {}
    value = (config.get("configurable") or {}).get(RUN_DEADLINE_KEY)
    return float(value) if isinstance(value, int | float) else None


def current_deadline() -> float | None:
    """The earliest of this context's budget and the running graph's, or None."""
    found = [d for d in (_deadline.get(), _run_deadline()) if d is not None]
    return min(found) if found else None


@contextmanager
def answer_budget(seconds: float | None) -> Iterator[None]:
    """Bound every external call inside the block to ``seconds`` in total (None: no bound).

    A budget inside a budget never extends the outer one.
    """
    if seconds is None:
        yield
        return
    deadline = time.monotonic() + seconds
    outer = current_deadline()
    token = _deadline.set(deadline if outer is None else min(outer, deadline))
    try:
        yield
    finally:
        _deadline.reset(token)


def remaining_s() -> float | None:
    """Seconds left of the current answer's budget, or None when no budget is set."""
    deadline = current_deadline()
    return None if deadline is None else deadline - time.monotonic()
