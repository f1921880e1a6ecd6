"""``fetch_cbr_data``: official Bank of Russia data (rates, dynamics, key rate, news)."""

from __future__ import annotations

from datetime import date, timedelta
from typing import Any, Literal

from pydantic import BaseModel, Field

from finagent.clients.cbr import SOURCE, CentralBankClient
from finagent.clients.cbr_models import KeyRatePoint
from finagent.clients.errors import ExternalServiceError
from finagent.config import Settings
from finagent.legal.key_rates import KeyRateSource
from finagent.tools.base import Tool, ToolContext, ToolError, to_json
from finagent.tools.calc import Req_Calculate_Penalty_For_Payments
from finagent.tools.cbr_common import (
    CODE_EXAMPLES,
    DEFAULT_WINDOW_DAYS,
    KEY_RATE_LOOKBACK_DAYS,
    MAIN_CURRENCIES,
    MAX_NEWS_ITEMS,
    check_currency_code,
    currency_json,
    freshness,
    num,
    parse_day,
    rate_json,
    rates_note,
    service_error,
)
from finagent.tools.rates_aggregate import (
    Req_Calculate_Conversion_For_Amounts,
    Req_Compare_Rates_For_Dates,
)


class FetchCbrDataInput(BaseModel):
    mode: Literal["currency", "dynamics", "key_rate", "news"] = Field(
        description=(
            "currency: official exchange rate(s) on a date; dynamics: one currency over a "
            "date range; key_rate: the Bank of Russia key rate on a date (or over a range); "
            "news: Bank of Russia press releases over a date range"
        )
    )
    date: str | None = Field(
        default=None,
        description="Date YYYY-MM-DD for currency/key_rate (default: today, Moscow time)",
    )
    date_from: str | None = Field(
        default=None, description="Range start YYYY-MM-DD (dynamics, news, key_rate series)"
    )
    date_to: str | None = Field(
        default=None, description="Range end YYYY-MM-DD (default: today); at most ~1 year"
    )
    code: str | None = Field(
        default=None,
        description=(
            "Currency: ISO letters (USD), ISO number (840), CBR code (R01235) or a Russian "
            "name (доллар, евро, юань). Required for dynamics; for currency mode omit it to "
            "get the main currencies"
        ),
    )


class FetchCbrData(Tool[FetchCbrDataInput]):
    """Official Bank of Russia (cbr.ru) data: exchange rates of the rouble, currency rate
    dynamics, the key rate and Bank of Russia news. Use it for any question about an
    official rate (курс ЦБ), the key rate (ключевая ставка) or a conversion at the official
    rate on a date. On weekends and holidays the rate in force is the one set on the last
    working day: the answer says on which date it was set (rate_date). Cite the source as
    cbr.ru. For many dates or currencies at once prefer Req_Compare_Rates_For_Dates.
    """

    name = "fetch_cbr_data"
    source_note = "cbr.ru"
    source_name = "Банк России"
    input_model = FetchCbrDataInput

    def __init__(self, client: CentralBankClient, settings: Settings) -> None:
        self._client = client
        self._max_days = settings.cbr_max_range_days

    async def run(self, args: FetchCbrDataInput, ctx: ToolContext) -> str:
        try:
            if args.mode == "currency":
                payload = await self._currency(args)
            elif args.mode == "dynamics":
                payload = await self._dynamics(args)
            elif args.mode == "key_rate":
                payload = await self._key_rate(args)
            else:
                payload = await self._news(args)
        except ExternalServiceError as exc:
            raise service_error(exc) from exc
        return to_json({"source": SOURCE, "mode": args.mode, **payload})

    # --- argument handling ------------------------------------------------------------------

    def _day(self, args: FetchCbrDataInput) -> date:
        today = self._client.today()
        return parse_day(args.date, "date", today) if args.date else today

    def _range(self, args: FetchCbrDataInput) -> tuple[date, date]:
        today = self._client.today()
        end_raw = args.date_to or args.date
        end = parse_day(end_raw, "date_to", today) if end_raw else today
        start = (
            parse_day(args.date_from, "date_from", today)
            if args.date_from
            else end - timedelta(days=DEFAULT_WINDOW_DAYS)
        )
        if start > end:
            raise ToolError(
                f"date_from {start.isoformat()} is after date_to {end.isoformat()}; swap them"
            )
        if (end - start).days > self._max_days:
            raise ToolError(
                f"the range {start.isoformat()}..{end.isoformat()} is longer than "
                f"{self._max_days} days; split it into smaller ranges"
            )
        return start, end

    # --- modes ------------------------------------------------------------------------------

    async def _currency(self, args: FetchCbrDataInput) -> dict[str, Any]:
        day = self._day(args)
        result = await self._client.rates_on(day)
        by_code = {r.iso_char: r for r in result.rates}
        if args.code:
            check_currency_code(args.code)
            currency = await self._client.resolve(args.code)
            rate = by_code.get(currency.iso_char or "")
            if rate is None:
                raise ToolError(
                    f"the Bank of Russia sets no official rate for {currency.iso_char} "
                    f"on {day.isoformat()}"
                )
            rates = [rate]
        else:
            rates = [by_code[c] for c in MAIN_CURRENCIES if c in by_code]
        payload: dict[str, Any] = {
            "requested_date": day.isoformat(),
            "rate_date": result.rate_date.isoformat(),
            "note": rates_note(result),
            "rates": [rate_json(r) for r in rates],
        }
        return freshness(_drop_none(payload), result.stale, result.fetched_at)

    async def _dynamics(self, args: FetchCbrDataInput) -> dict[str, Any]:
        if not args.code:
            raise ToolError(f"dynamics needs a currency code; examples: {CODE_EXAMPLES}")
        check_currency_code(args.code)
        start, end = self._range(args)
        result = await self._client.dynamics(args.code, start, end)
        nominal = result.points[0].nominal if result.points else result.currency.nominal
        payload: dict[str, Any] = {
            "currency": currency_json(result.currency),
            "date_from": start.isoformat(),
            "date_to": end.isoformat(),
            "nominal": nominal,
            "note": "курсы устанавливаются только в рабочие дни: выходные и праздники — пропуски",
            "points": [
                {"date": p.date.isoformat(), "value": num(p.value), "unit_rate": num(p.unit_rate)}
                for p in result.points
            ],
        }
        return freshness(payload, result.stale, result.fetched_at)

    async def _key_rate(self, args: FetchCbrDataInput) -> dict[str, Any]:
        if args.date_from or args.date_to:
            start, end = self._range(args)
            series = await self._client.key_rate(start, end)
            payload: dict[str, Any] = {
                "date_from": start.isoformat(),
                "date_to": end.isoformat(),
                "periods": _periods(series.points),
            }
            return freshness(payload, series.stale, series.fetched_at)
        day = self._day(args)
        series = await self._client.key_rate(day - timedelta(days=KEY_RATE_LOOKBACK_DAYS), day)
        known = [p for p in series.points if p.date <= day]
        if not known:
            raise ToolError(f"no key rate is published on or before {day.isoformat()}")
        current = known[-1]
        since = current.date
        for point in reversed(known):
            if point.rate != current.rate:
                break
            since = point.date
        payload = {
            "date": day.isoformat(),
            "rate": num(current.rate),
            "unit": "% годовых",
            "since": since.isoformat(),
            "row_date": current.date.isoformat(),
        }
        if since == known[0].date:
            payload["since_note"] = f"ставка не менялась как минимум с {since.isoformat()}"
        return freshness(payload, series.stale, series.fetched_at)

    async def _news(self, args: FetchCbrDataInput) -> dict[str, Any]:
        start, end = self._range(args)
        result = await self._client.news(start, end)
        items = result.items[:MAX_NEWS_ITEMS]
        payload: dict[str, Any] = {
            "date_from": start.isoformat(),
            "date_to": end.isoformat(),
            "count": len(result.items),
            "items": [{"date": n.date.isoformat(), "title": n.title, "url": n.url} for n in items],
        }
        return freshness(payload, result.stale, result.fetched_at)


def _periods(points: list[KeyRatePoint]) -> list[dict[str, Any]]:
    """Collapse daily key-rate rows into periods of a constant rate."""
    periods: list[dict[str, Any]] = []
    for p in points:
        if periods and periods[-1]["rate"] == num(p.rate):
            periods[-1]["to"] = p.date.isoformat()
        else:
            periods.append(
                {"from": p.date.isoformat(), "to": p.date.isoformat(), "rate": num(p.rate)}
            )
    return periods


def _drop_none(payload: dict[str, Any]) -> dict[str, Any]:
    return {k: v for k, v in payload.items() if v is not None}


def build_cbr_tools(settings: Settings, client: CentralBankClient | None = None) -> list[Tool[Any]]:
    """The Bank of Russia tools sharing one client (created here unless given)."""
    client = client or CentralBankClient(settings)
    return [
        FetchCbrData(client, settings),
        Req_Compare_Rates_For_Dates(client, settings),
        Req_Calculate_Conversion_For_Amounts(client, settings),
        Req_Calculate_Penalty_For_Payments(KeyRateSource(client)),
    ]
