"""Aggregate Bank of Russia tools: many dates x currencies, many amounts in one call.

Both return :class:`~finagent.tools.base.AggregateResult` JSON. Local errors (an
unknown currency, a bad date, a bad amount) are recorded in ``errors`` and the loop
goes on; a service failure (down, circuit open) stops the loop and sets
``fatal_error``. ``success`` is true when there was no fatal error and at least one
result.
"""

from __future__ import annotations

import math
from datetime import date
from decimal import ROUND_HALF_UP, Decimal, InvalidOperation
from typing import Any, Literal

from pydantic import BaseModel, Field

from finagent.clients.cbr import CentralBankClient
from finagent.clients.cbr_models import Currency, RatesOnDate
from finagent.clients.errors import ExternalServiceError, is_unavailable
from finagent.config import Settings
from finagent.tools.base import AggregateResult, ErrorInfo, Tool, ToolContext, ToolError, to_json
from finagent.tools.cbr_common import (
    check_currency_code,
    iso_num,
    num,
    parse_day,
    rates_note,
    service_error,
)

MAX_DATES = 31
MAX_CODES = 20
MAX_AMOUNTS = 100
KOPECK = Decimal("0.01")


class _RunMemo:
    """Per-run memo of resolved currencies (and failures, reported once)."""

    def __init__(self) -> None:
        self.currencies: dict[str, Currency | None] = {}

    def clear(self) -> None:
        self.currencies.clear()


async def _resolve(
    client: CentralBankClient, code: str, memo: _RunMemo, result: AggregateResult
) -> Currency | None:
    """Resolve ``code`` once per run; an unknown code is a local error (recorded once)."""
    key = code.strip().lower()
    if key in memo.currencies:
        return memo.currencies[key]
    try:
        check_currency_code(code)
        currency: Currency | None = await client.resolve(code)
    except ExternalServiceError as exc:
        if is_unavailable(exc):
            raise
        currency = None
        result.errors.append(
            ErrorInfo(
                method="resolve_currency",
                error_text=str(service_error(exc)),
                params={"code": code},
            )
        )
    memo.currencies[key] = currency
    return currency


def _fatal(result: AggregateResult, exc: BaseException) -> None:
    result.fatal_error = str(service_error(exc))


def _finish(result: AggregateResult) -> str:
    result.success = result.fatal_error is None and bool(result.results)
    return to_json(result)


class CompareRatesInput(BaseModel):
    codes: list[str] = Field(
        min_length=1,
        max_length=MAX_CODES,
        description="Currencies: ISO letters (USD), ISO numbers (840) or names (евро)",
    )
    dates: list[str] = Field(
        min_length=1, max_length=MAX_DATES, description="Dates YYYY-MM-DD (not in the future)"
    )


class Req_Compare_Rates_For_Dates(Tool[CompareRatesInput]):
    """Official Bank of Russia rates of several currencies on several dates in ONE call.
    Prefer it over repeated fetch_cbr_data calls whenever you compare rates across dates
    or currencies (e.g. «как изменился курс доллара и евро с 1 марта по 1 апреля»).
    Each result row has date, rate_date (the date the rate was set; earlier than date on
    weekends/holidays), code, nominal, value and unit_rate. Bad codes or dates are listed
    in errors while the rest is still computed; fatal_error means the service is down.
    """

    name = "Req_Compare_Rates_For_Dates"
    source_note = "cbr.ru"
    input_model = CompareRatesInput

    def __init__(self, client: CentralBankClient, settings: Settings) -> None:
        self._client = client

    async def run(self, args: CompareRatesInput, ctx: ToolContext) -> str:
        result = AggregateResult(success=False)
        memo = _RunMemo()  # fresh per run: concurrent runs never share it
        today = self._client.today()
        try:
            for raw_day in args.dates:  # expensive step: one rates fetch per date
                try:
                    day = parse_day(raw_day, "date", today)
                except ToolError as exc:
                    result.errors.append(
                        ErrorInfo(
                            method="parse_date", error_text=str(exc), params={"date": raw_day}
                        )
                    )
                    continue
                try:
                    rates = await self._client.rates_on(day)
                except ExternalServiceError as exc:
                    if is_unavailable(exc):
                        _fatal(result, exc)
                        break
                    result.errors.append(
                        ErrorInfo(
                            method="rates_on",
                            error_text=str(service_error(exc)),
                            params={"date": raw_day},
                        )
                    )
                    continue
                for code in args.codes:  # cheap reads of the fetched table
                    currency = await _resolve(self._client, code, memo, result)
                    if currency is not None:
                        self._add_row(result, rates, code, currency)
        except ExternalServiceError as exc:  # the currency reference failed: the service is down
            _fatal(result, exc)
        finally:
            memo.clear()
        return _finish(result)

    @staticmethod
    def _add_row(
        result: AggregateResult, rates: RatesOnDate, code: str, currency: Currency
    ) -> None:
        rate = next((r for r in rates.rates if r.iso_char == currency.iso_char), None)
        if rate is None:
            result.errors.append(
                ErrorInfo(
                    method="rate_lookup",
                    error_text=f"no official rate for {currency.iso_char} on this date",
                    params={"code": code, "date": rates.requested_date.isoformat()},
                )
            )
            return
        row: dict[str, Any] = {
            "date": rates.requested_date.isoformat(),
            "rate_date": rates.rate_date.isoformat(),
            "code": rate.iso_char,
            "iso_num": iso_num(rate.iso_num),
            "cbr_code": currency.internal_code,
            "nominal": rate.nominal,
            "value": num(rate.value),
            "unit_rate": num(rate.unit_rate),
        }
        if rates.stale:
            row["stale"] = True
            row["as_of"] = (
                rates.fetched_at.isoformat(timespec="seconds") if rates.fetched_at else None
            )
        result.results.append(row)


class ConversionInput(BaseModel):
    amounts: list[float] = Field(
        min_length=1, max_length=MAX_AMOUNTS, description="Amounts to convert (non-negative)"
    )
    code: str = Field(description="Currency: ISO letters (USD), ISO number (840) or a name")
    date: str = Field(description="Date of the official rate, YYYY-MM-DD")
    direction: Literal["to_rub", "from_rub"] = Field(
        description="to_rub: amounts are in the currency; from_rub: amounts are in roubles"
    )


class Req_Calculate_Conversion_For_Amounts(Tool[ConversionInput]):
    """Convert MANY amounts between roubles and one currency at the official Bank of
    Russia rate on a date, in ONE call (e.g. income in USD received on one date, each
    payment converted for the 3-НДФЛ declaration). Prefer it over doing the arithmetic
    yourself or calling fetch_cbr_data per amount. Results are rounded to kopecks/cents
    and show the unit rate used and the date it was set (rate_date).
    """

    name = "Req_Calculate_Conversion_For_Amounts"
    source_note = "cbr.ru"
    input_model = ConversionInput

    def __init__(self, client: CentralBankClient, settings: Settings) -> None:
        self._client = client

    async def run(self, args: ConversionInput, ctx: ToolContext) -> str:
        result = AggregateResult(success=False)
        memo = _RunMemo()
        today = self._client.today()
        try:
            day = self._parse_day(args.date, today, result)
            currency = await _resolve(self._client, args.code, memo, result)
            if day is None or currency is None:
                return _finish(result)
            rates = await self._client.rates_on(day)  # the one expensive fetch
            rate = next((r for r in rates.rates if r.iso_char == currency.iso_char), None)
            if rate is None:
                result.errors.append(
                    ErrorInfo(
                        method="rate_lookup",
                        error_text=f"no official rate for {currency.iso_char} on {args.date}",
                        params={"code": args.code, "date": args.date},
                    )
                )
                return _finish(result)
            for amount in args.amounts:
                self._convert(result, amount, rates, rate.unit_rate, currency, args.direction)
        except ExternalServiceError as exc:
            if not is_unavailable(exc):
                result.errors.append(
                    ErrorInfo(method="rates_on", error_text=str(service_error(exc)), params={})
                )
            else:
                _fatal(result, exc)
        finally:
            memo.clear()
        return _finish(result)

    @staticmethod
    def _parse_day(raw: str, today: date, result: AggregateResult) -> date | None:
        try:
            return parse_day(raw, "date", today)
        except ToolError as exc:
            result.errors.append(
                ErrorInfo(method="parse_date", error_text=str(exc), params={"date": raw})
            )
            return None

    @staticmethod
    def _convert(
        result: AggregateResult,
        amount: float,
        rates: RatesOnDate,
        unit_rate: Decimal,
        currency: Currency,
        direction: str,
    ) -> None:
        shown = amount if math.isfinite(amount) else str(amount)  # JSON has no inf/nan
        try:
            value = Decimal(str(amount))
            if not value.is_finite() or value < 0:
                raise InvalidOperation
        except InvalidOperation:
            result.errors.append(
                ErrorInfo(
                    method="convert",
                    error_text="amount must be a non-negative number",
                    params={"amount": shown},
                )
            )
            return
        try:
            converted = value * unit_rate if direction == "to_rub" else value / unit_rate
            rounded = converted.quantize(KOPECK, rounding=ROUND_HALF_UP)
        except InvalidOperation:  # more digits than the decimal context holds
            result.errors.append(
                ErrorInfo(
                    method="convert",
                    error_text="amount is too large to convert; split it into smaller amounts",
                    params={"amount": shown},
                )
            )
            return
        row: dict[str, Any] = {
            "amount": amount,
            "from": currency.iso_char if direction == "to_rub" else "RUB",
            "to": "RUB" if direction == "to_rub" else currency.iso_char,
            "result": num(rounded),
            "unit_rate": num(unit_rate),
            "date": rates.requested_date.isoformat(),
            "rate_date": rates.rate_date.isoformat(),
        }
        note = rates_note(rates)
        if note:
            row["note"] = note
        if rates.stale:
            row["stale"] = True
        result.results.append(row)
