"""Today's date in Moscow: the Bank of Russia's and the tax authority's calendar day."""

from __future__ import annotations

from datetime import date, datetime
from zoneinfo import ZoneInfo

MOSCOW = ZoneInfo("Europe/Moscow")


def moscow_today() -> date:
    return datetime.now(MOSCOW).date()
