"""Deadline and пени calculators as aggregate tools (``Req_*`` contract).

Both take a list and return :class:`~finagent.tools.base.AggregateResult` JSON: a bad item
(a malformed date, a year the production calendar does not cover) is recorded in
``errors`` and the rest is computed. пени whose days reach past the known key rates are
a partial result (no total, the missing days named); the shipped key-rate history being
unreadable is the one fatal error.
"""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import BaseModel, Field

from finagent.clients.errors import ExternalServiceError
from finagent.legal.calendar import CalendarYearError
from finagent.legal.deadlines import Deadline, compute_deadline
from finagent.legal.key_rate_data import KeyRateDataError
from finagent.legal.key_rates import KeyRateHistory, KeyRateSource
from finagent.legal.penalties import EDITION_NOTE, Penalty, PenaltyError, compute_penalty
from finagent.tools.base import AggregateResult, ErrorInfo, Tool, ToolContext, to_json

MAX_ITEMS = 50


class DeadlineEvent(BaseModel):
    event_date: str = Field(
        description="Date of the event that starts the period, YYYY-MM-DD "
        "(e.g. the day a demand or an audit act was received, a declaration filed)"
    )
    period: int = Field(description="Length of the period (a positive whole number)")
    unit: Literal["days", "working_days", "months", "years"] = Field(
        description="days = calendar days; working_days = «дней» of the Tax Code "
        "(art. 6.1 p. 6: days are working days unless the Code says calendar days); "
        "months; years"
    )
    basis: str | None = Field(
        default=None,
        max_length=200,
        description="The norm that sets the period, e.g. 'п. 6 ст. 100 НК РФ' (optional)",
    )


class DeadlineInput(BaseModel):
    events: list[DeadlineEvent] = Field(min_length=1, max_length=MAX_ITEMS)


def _parse(raw: str) -> date:
    try:
        return date.fromisoformat(raw.strip())
    except ValueError:
        raise ValueError(f"date must be YYYY-MM-DD, got {raw[:40]!r}") from None


def deadline_row(deadline: Deadline) -> dict[str, Any]:
    return {
        "event_date": deadline.event_date.isoformat(),
        "period": deadline.period,
        "unit": deadline.unit,
        "start_date": deadline.start_date.isoformat(),
        "nominal_end": deadline.nominal_end.isoformat(),
        "end_date": deadline.end_date.isoformat(),
        "moved_to_working_day": deadline.moved,
        "steps": [{"text": s.text, "basis": s.basis} for s in deadline.steps],
        "citations": deadline.citations,
    }


class Req_Calculate_Deadline_For_Events(Tool[DeadlineInput]):
    """Compute procedural deadlines under art. 6.1 НК РФ for MANY events in ONE call.
    Use it whenever a question asks until what date something must be done or when a
    period ends («до какого числа представить пояснения», «когда истекает срок на
    возражения», «когда заканчивается выездная проверка»): never count dates yourself.
    Each result has end_date, the steps with the point of art. 6.1 each applies (start the
    next day, month ends, weekend/holiday moves to the next working day, working days
    skip non-working days) and citations. Note: «N дней» in the Tax Code are working days.
    """

    name = "Req_Calculate_Deadline_For_Events"
    source_note = "расчёт срока (ст. 6.1 НК РФ)"
    input_model = DeadlineInput

    async def run(self, args: DeadlineInput, ctx: ToolContext) -> str:
        result = AggregateResult(success=False)
        for event in args.events:
            params = event.model_dump(exclude_none=True)
            try:
                deadline = compute_deadline(
                    _parse(event.event_date), event.period, event.unit, event.basis
                )
            except (ValueError, CalendarYearError) as exc:
                result.errors.append(
                    ErrorInfo(method="compute_deadline", error_text=str(exc), params=params)
                )
                continue
            result.results.append(deadline_row(deadline))
        result.success = bool(result.results)
        return to_json(result)


class LatePayment(BaseModel):
    amount: str = Field(description="Arrears in roubles, e.g. '250000' or '1234.56'")
    due_date: str = Field(description="The due date of the tax, YYYY-MM-DD")
    paid_date: str = Field(description="The day the arrears were paid, YYYY-MM-DD")
    payer: Literal["individual", "organization"] = Field(
        description="individual: a person or an individual entrepreneur (ИП); "
        "organization: a company"
    )


class PenaltyInput(BaseModel):
    payments: list[LatePayment] = Field(min_length=1, max_length=MAX_ITEMS)


def penalty_row(penalty: Penalty, stale: bool) -> dict[str, Any]:
    row: dict[str, Any] = {
        "amount": f"{penalty.amount:.2f}",
        "due_date": penalty.due_date.isoformat(),
        "paid_date": penalty.paid_date.isoformat(),
        "payer": penalty.payer,
        "days": penalty.days,
        "periods": [p.as_dict() for p in penalty.periods],
        "citations": penalty.citations,
    }
    if penalty.complete:
        row["total"] = f"{penalty.total:.2f}"
    else:  # no total: only the days with a known key rate are summed
        row["complete"] = False
        row["partial_total"] = f"{penalty.total:.2f}"
        row["missing_rates"] = [
            {"date_from": a.isoformat(), "date_to": b.isoformat()} for a, b in penalty.missing
        ]
    if stale:
        row["stale"] = True
    return row


def history_json(history: KeyRateHistory) -> dict[str, Any]:
    """Which key-rate history served and up to which day it knows the rate."""
    first = history.table.first_day
    out: dict[str, Any] = {
        "source": "cbr" if history.origin == "cbr" else "shipped",
        "known_from": first.isoformat() if first else None,
        "known_until": history.known_until.isoformat(),
    }
    if history.origin == "cbr" and history.fetched_at is not None:
        out["fetched_at"] = history.fetched_at.isoformat(timespec="seconds")
    if history.origin in ("no_client", "cbr_failed"):
        out["cbr"] = "not_configured" if history.origin == "no_client" else "unavailable"
    if history.stale:
        out["stale"] = True
    return out


def _days_needed(payments: list[LatePayment]) -> tuple[date, date] | None:
    """The first and last day of arrears over the payments with valid dates."""
    spans = []
    for p in payments:
        try:
            due, paid = _parse(p.due_date), _parse(p.paid_date)
        except ValueError:
            continue
        if due < paid:
            spans.append((due + timedelta(days=1), paid))
    if not spans:
        return None
    return min(a for a, _ in spans), max(b for _, b in spans)


class Req_Calculate_Penalty_For_Payments(Tool[PenaltyInput]):
    """Compute пени (art. 75 НК РФ) for MANY late tax payments in ONE call, on the Bank of
    Russia key rate in force on each day of arrears. Use it for «сколько пеней»,
    «рассчитайте пени»: never compute пени yourself. Days run from the day after the due
    date through the payment date inclusive (paid on or before the due date: total 0);
    the fraction (1/300, 1/150) per payer type and overdue day comes from a table with
    the legal basis of each row. Each result has
    a per-period breakdown (days, key_rate, fraction, amount) and the total in roubles.
    key_rates says which history served (cbr: fetched from the Bank of Russia; shipped:
    the built-in history) and known_until. A result with complete=false has no total:
    the key rate of its missing_rates days is unknown (key_rate null there), and
    partial_total sums only the other days; say so, never fill in a rate.
    stale=true means the key rates came from cache while the Bank of Russia was down.
    """

    name = "Req_Calculate_Penalty_For_Payments"
    source_note = "расчёт пеней (ст. 75 НК РФ, ключевая ставка Банка России)"
    input_model = PenaltyInput

    def __init__(self, source: KeyRateSource) -> None:
        self._source = source

    async def run(self, args: PenaltyInput, ctx: ToolContext) -> str:
        result = AggregateResult(success=False)
        needed = _days_needed(args.payments)
        try:  # the one expensive fetch, outside the loop
            history = await self._source.history(*needed) if needed else self._source.offline()
        except (ExternalServiceError, KeyRateDataError) as exc:
            result.fatal_error = f"the key-rate history is unavailable: {exc}"
            return to_json(result)
        for payment in args.payments:
            params = payment.model_dump()
            try:
                amount = Decimal(payment.amount.replace(" ", "").replace(",", "."))
                penalty = compute_penalty(
                    amount,
                    _parse(payment.due_date),
                    _parse(payment.paid_date),
                    payment.payer,
                    history.table,
                    partial=True,
                )
            except (InvalidOperation, ValueError, PenaltyError) as exc:
                text = (
                    "сумма недоимки должна быть числом"
                    if isinstance(exc, InvalidOperation)
                    else str(exc)
                )
                result.errors.append(
                    ErrorInfo(method="compute_penalty", error_text=text, params=params)
                )
                continue
            result.results.append(penalty_row(penalty, history.stale))
        result.success = bool(result.results)
        out = result.model_dump(mode="json", exclude_none=True)
        out["edition"] = EDITION_NOTE
        out["key_rates"] = history_json(history)
        if history.stale and history.fetched_at:
            out["key_rates_as_of"] = history.fetched_at.isoformat(timespec="seconds")
        return to_json(out)
