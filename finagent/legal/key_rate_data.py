"""The key-rate history shipped with the package (``data/key_rate_history.csv``).

The CSV lists the days a new Bank of Russia key rate took effect; its metadata
(``data/key_rate_history.toml``) records ``as_of``, the last day the history vouches for,
and the source. The calculators use it offline, and the evaluation's loopback Bank of
Russia responder publishes the same rows, so there is one copy of the history.
"""

from __future__ import annotations

import csv
import tomllib
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal, InvalidOperation
from functools import lru_cache
from importlib.resources import files

HISTORY_CSV = "data/key_rate_history.csv"
HISTORY_META = "data/key_rate_history.toml"


class KeyRateDataError(ValueError):
    """The shipped history is malformed (a packaging error, not a user error)."""


@dataclass(frozen=True)
class ShippedKeyRates:
    """Rate steps ``(effective_from, percent)`` in ascending order, known up to ``as_of``."""

    steps: tuple[tuple[date, Decimal], ...]
    as_of: date
    source: str

    @property
    def first_day(self) -> date:
        return self.steps[0][0]

    def covers(self, date_from: date, date_to: date) -> bool:
        """Whether every day from ``date_from`` to ``date_to`` has a known rate."""
        return self.first_day <= date_from and date_to <= self.as_of


def parse_key_rates(csv_text: str, meta_text: str) -> ShippedKeyRates:
    """The history from the CSV text and the TOML metadata text, validated."""
    try:
        meta = tomllib.loads(meta_text)
        rows = list(csv.DictReader(csv_text.splitlines()))
        steps = tuple(
            (date.fromisoformat(r["effective_from"]), Decimal(r["key_rate_percent"])) for r in rows
        )
    except (tomllib.TOMLDecodeError, KeyError, ValueError, InvalidOperation) as exc:
        raise KeyRateDataError(f"key-rate history: {exc}") from exc
    as_of, source = meta.get("as_of"), str(meta.get("source") or "")
    if isinstance(as_of, datetime) or not isinstance(as_of, date) or not source:
        raise KeyRateDataError("key-rate history: metadata needs a date as_of and a source")
    if not steps:
        raise KeyRateDataError("key-rate history: no rows")
    days = [d for d, _ in steps]
    if days != sorted(set(days)):
        raise KeyRateDataError("key-rate history: dates must be unique and ascending")
    if any(not (0 < rate < 100) for _, rate in steps):
        raise KeyRateDataError("key-rate history: a rate is outside (0, 100) percent")
    if as_of < days[-1]:
        raise KeyRateDataError("key-rate history: as_of precedes the last row")
    return ShippedKeyRates(steps, as_of, source)


@lru_cache(maxsize=1)
def shipped_key_rates() -> ShippedKeyRates:
    """The history shipped in ``finagent/legal/data`` (read once)."""
    folder = files("finagent.legal")
    return parse_key_rates(
        folder.joinpath(HISTORY_CSV).read_text("utf-8"),
        folder.joinpath(HISTORY_META).read_text("utf-8"),
    )
