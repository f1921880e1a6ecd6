"""The table of procedural periods (data/procedural_periods.yaml): facts only.

Each row is one period of the Tax Code: the action, the event it runs from, the period and
its unit, the norm and its unit id, who must act when not the taxpayer (``bearer``),
optionally the row whose period ends at this row's event (``after``) and the norm by which
its document sent by registered mail counts as received on the sixth day
(``mail_receipt``), the article the loaded Code text lacks (``absent``), or, for a
situation the calculator does not guess at, ``decline``.
How a question finds its row is :mod:`finagent.legal.period_cues`.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib.resources import files
from typing import Any

from finagent.legal.deadlines import Unit
from finagent.yaml_data import load_yaml


@dataclass(frozen=True)
class ProceduralPeriod:
    """One row of data/procedural_periods.yaml (``decline`` rows have no period)."""

    id: str
    what: str
    event: str
    period: int
    unit: Unit
    norm: str
    unit_id: str
    decline: str | None = None
    bearer: str = "taxpayer"  # who must act (bank, tax_agent, …), when not the taxpayer
    after: str | None = None  # the row whose period ends at this row's event
    # the norm (its unit id, its words quoted) by which a document of this row's event
    # sent by registered mail counts as received on the sixth day from its sending
    mail_receipt: str | None = None
    mail_receipt_unit: str | None = None
    mail_receipt_words: str | None = None
    # the article whose text the loaded Code lacks (a row of chapters 10, 19, 20): the
    # period is the article's current edition, and the answer says its text is absent
    absent: str | None = None
    # the norm provides no extension of this period: an extension the question tells is of
    # another period (the audit that ended at this row's event), not of this one
    fixed: bool = False


@cache
def procedural_periods() -> tuple[ProceduralPeriod, ...]:
    raw: list[dict[str, Any]] = load_yaml(
        files("finagent.legal").joinpath("data/procedural_periods.yaml").read_text("utf-8")
    )
    return tuple(
        ProceduralPeriod(
            id=r["id"],
            what=r.get("what", ""),
            event=r.get("event", ""),
            period=int(r.get("period", 0)),
            unit=r.get("unit", "days"),
            norm=r.get("norm", ""),
            unit_id=r.get("unit_id", ""),
            decline=r.get("decline"),
            bearer=r.get("bearer", "taxpayer"),
            after=r.get("after"),
            mail_receipt=r.get("mail_receipt"),
            mail_receipt_unit=r.get("mail_receipt_unit"),
            mail_receipt_words=r.get("mail_receipt_words"),
            absent=r.get("absent"),
            fixed=bool(r.get("fixed", False)),
        )
        for r in raw
    )


@cache
def period_by_id() -> dict[str, ProceduralPeriod]:
    return {row.id: row for row in procedural_periods()}


@cache
def period_points() -> dict[str, frozenset[str]]:
    """The points of each article of the table whose text states a period (scanned from
    the Code, data/period_points.yaml): a cited one without a row is asked back."""
    raw: dict[str, list[str]] = load_yaml(
        files("finagent.legal").joinpath("data/period_points.yaml").read_text("utf-8")
    )
    return {str(article): frozenset(map(str, points)) for article, points in raw.items()}
