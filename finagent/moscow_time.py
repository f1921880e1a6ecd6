"""Today's date in Moscow: the Bank of Russia's and the tax authority's calendar day.

``pinned_today`` fixes "today" for the code running inside it (a context value, so
concurrent runs keep their own): evaluations pin each question's as-of date with it.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import date, datetime
from zoneinfo import ZoneInfo

MOSCOW = ZoneInfo("Europe/Moscow")
_PINNED: ContextVar[date | None] = ContextVar("finagent_pinned_today", default=None)


def moscow_today() -> date:
    """The pinned date inside :func:`pinned_today`, else today's date in Moscow."""
    pinned = _PINNED.get()
    return pinned if pinned is not None else datetime.now(MOSCOW).date()


@contextmanager
def pinned_today(day: date | None) -> Iterator[None]:
    """Inside the block (and the tasks it starts) ``moscow_today()`` is ``day``; None
    leaves the real date."""
    token = _PINNED.set(day)
    try:
        yield
    finally:
        _PINNED.reset(token)
