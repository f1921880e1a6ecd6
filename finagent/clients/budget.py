"""The overall time budget of one answer, shared by every external call made for it.

``answer_budget(seconds)`` sets an absolute deadline in a context variable; asyncio tasks
(LangGraph nodes, concurrent tool calls) copy it when they start, so every external call
made while answering sees the same deadline. :func:`remaining_s` is what is left of it
(``None`` outside a budget). Calls then wait at most ``min(own deadline, remaining)``.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

_deadline: ContextVar[float | None] = ContextVar("finagent_answer_deadline", default=None)


@contextmanager
def answer_budget(seconds: float | None) -> Iterator[None]:
    """Bound every external call inside the block to ``seconds`` in total (None: no bound).

    A budget inside a budget never extends the outer one.
    """
    if seconds is None:
        yield
        return
    deadline = time.monotonic() + seconds
    outer = _deadline.get()
    token = _deadline.set(deadline if outer is None else min(outer, deadline))
    try:
        yield
    finally:
        _deadline.reset(token)


def remaining_s() -> float | None:
    """Seconds left of the current answer's budget, or None when no budget is set."""
    deadline = _deadline.get()
    return None if deadline is None else deadline - time.monotonic()
