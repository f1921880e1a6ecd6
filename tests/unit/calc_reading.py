"""Test helpers: a question read by the rule extractor, as the values tests compare, and
answered by the calculator offline (:func:`ask`)."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.answering.calc import LlmReader, calculate
from finagent.answering.calc_common import CalcOutcome
from finagent.legal.calc_extract import extract_calc_request
from finagent.legal.calc_request import CalcRequest
from finagent.legal.key_rates import KeyRateSource
from finagent.legal.periods import period_by_id
from finagent.tools.base import Tool, ToolContext
from finagent.tools.calc import (
    Req_Calculate_Deadline_For_Events,
    Req_Calculate_Penalty_For_Payments,
)
from finagent.tools.registry import ToolRegistry

TODAY = date(2026, 11, 23)


@dataclass
class Deadline:
    """What the calculator would compute for a deadline question (None fields: it would not)."""

    request: CalcRequest
    row_id: str | None
    event_date: date | None
    period: int | None
    unit: str | None
    variants: list[str] = field(default_factory=list)

    @property
    def assumptions(self) -> list[str]:
        return self.request.assumptions


def deadline(question: str, today: date = TODAY) -> Deadline | None:
    """The deadline the calculator computes for ``question``, or None when it would not
    compute one (declined, something missing, not a deadline question)."""
    req = extract_calc_request(question, today)
    if req.kind != "deadline" or req.decline or req.missing or req.event_date is None:
        return None
    row = period_by_id().get(req.row_id) if req.row_id else None
    if req.period is not None:
        period, unit = req.period.count, req.period.unit
    else:
        assert row is not None
        period, unit = row.period, row.unit
    return Deadline(req, req.row_id, req.event_date, period, unit, list(req.variants))


def row_ids(question: str, today: date = TODAY) -> list[str]:
    """The rows the question is read as: one, several (variants), or the declined one."""
    req = extract_calc_request(question, today)
    if req.decline and req.decline in period_by_id():
        return [req.decline]
    return [req.row_id, *req.variants] if req.row_id else []


@dataclass
class Penalty:
    amount: Decimal | None
    due_date: date | None
    paid_date: date | None
    payer: str | None
    assumptions: list[str]

    @property
    def payer_given(self) -> bool:
        return self.payer is not None


def penalty(question: str, today: date = TODAY) -> Penalty | None:
    """The пени inputs read from ``question``, or None when it is not a пени question or
    misses the amount or a date."""
    req = extract_calc_request(question, today)
    if req.kind != "penalty" or set(req.missing) - {"payer"}:
        return None
    due, paid = req.dated("due"), req.dated("payment")
    return Penalty(
        req.arrears,
        due[0].day if due else None,
        paid[0].day if paid else None,
        req.payer,
        req.assumptions,
    )


def calc_tools(*, penalties: bool = True) -> ToolRegistry:
    """The calculator's tools offline (no key-rate client); ``penalties=False``: the
    deadline tool alone."""
    tools: list[Tool[Any]] = [Req_Calculate_Deadline_For_Events()]
    if penalties:
        tools.append(Req_Calculate_Penalty_For_Payments(KeyRateSource(None)))
    return ToolRegistry(tools)


async def ask(
    question: str,
    reader: LlmReader | None = None,
    *,
    penalties: bool = True,
    today: date = TODAY,
) -> CalcOutcome:
    """The calculator's answer to ``question`` as of ``today``: the rules alone, or the
    LLM's reading through ``reader`` refereed by them."""
    ctx = ToolContext(user_id="u")
    return await calculate(question, calc_tools(penalties=penalties), ctx, today, None, reader)
