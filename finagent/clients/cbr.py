"""Async client of the Bank of Russia DailyInfo SOAP service (www.cbr.ru).

zeep's ``AsyncClient`` over httpx, SOAP 1.2 binding, service address from settings.
Every call goes through :func:`~finagent.clients.resilient.resilient_call` (stale-capable
cache, circuit breaker, total deadline ``cbr_deadline_s``, retries on transient failures):
past dates are cached for long (they never change), today's data for a short time, and
when the service fails a cached value is returned marked stale.
Payloads are parsed with lxml from either result form: the bare node of ``...XML``
operations or the DataSet (``xs:schema`` + diffgram) that zeep exposes as ``_value_1``.
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterator
from datetime import date, datetime, timedelta
from decimal import Decimal, InvalidOperation
from pathlib import Path
from typing import Any, TypeVar

import httpx
import zeep
import zeep.exceptions
from lxml import etree
from pydantic import BaseModel
from zeep.helpers import serialize_object
from zeep.proxy import AsyncServiceProxy
from zeep.transports import AsyncTransport

from finagent.clients.breaker import Breaker
from finagent.clients.call_log import external_call
from finagent.clients.errors import ExternalServiceError, TransientServiceError
from finagent.clients.resilient import CallPolicy, resilient_call
from finagent.clients.stale_cache import CacheHit, StaleCache
from finagent.config import Settings
from finagent.moscow_time import MOSCOW, moscow_today  # noqa: F401  (moscow_today re-exported)

SERVICE = "cbr"
SOURCE = "cbr.ru"
SITE = "https://www.cbr.ru"
BUNDLED_WSDL = Path(__file__).parent / "wsdl" / "DailyInfo.wsdl"
BINDING_SOAP12 = "{http://web.cbr.ru/}DailyInfoSoap12"
USD_INTERNAL = "R01235"
# How far back to look for the last working day with a published rate (covers the
# New Year holidays, the longest break in rate setting).
RATE_LOOKBACK_DAYS = 21

T = TypeVar("T")


# --- errors ----------------------------------------------------------------------------


class CbrError(ExternalServiceError):
    """Base of the Bank of Russia client errors."""


class CbrUnavailable(CbrError, TransientServiceError):
    """Timeout, transport error, 5xx, an HTML page or malformed XML: try again later."""


class CbrFault(CbrError):
    """The service rejected the request with a SOAP Fault (bad input)."""


class UnknownCurrencyError(CbrError, ValueError):
    """The currency is not in the Bank of Russia reference list."""

    def __init__(self, query: str, examples: list[str]) -> None:
        super().__init__(
            f"unknown currency {query!r}; use an ISO code such as {', '.join(examples)}"
        )
        self.query = query
        self.examples = examples


# --- models ----------------------------------------------------------------------------


class Cached(BaseModel):
    """Freshness of a result: ``stale`` when served from cache after a failure."""

    stale: bool = False
    fetched_at: datetime | None = None


class Currency(BaseModel):
    """An entry of the EnumValutes reference."""

    internal_code: str  # R01235
    iso_char: str | None  # USD
    iso_num: int | None  # 840
    nominal: int
    name_ru: str
    name_en: str


class Rate(BaseModel):
    """The official rate of one currency: ``value`` roubles for ``nominal`` units."""

    iso_char: str
    iso_num: int | None
    internal_code: str | None = None
    name: str
    nominal: int
    value: Decimal
    unit_rate: Decimal


class RatesOnDate(Cached):
    """All rates in force on ``requested_date``; ``rate_date`` is the date of the rates
    (the last day on or before the requested one on which rates were set)."""

    requested_date: date
    rate_date: date
    rates: list[Rate]


class DynamicPoint(BaseModel):
    date: date
    nominal: int
    value: Decimal
    unit_rate: Decimal


class Dynamics(Cached):
    currency: Currency
    date_from: date
    date_to: date
    points: list[DynamicPoint]


class KeyRatePoint(BaseModel):
    date: date
    rate: Decimal


class KeyRateSeries(Cached):
    date_from: date
    date_to: date
    points: list[KeyRatePoint]  # ascending by date


class NewsItem(BaseModel):
    doc_id: str
    date: date
    title: str
    url: str


class NewsList(Cached):
    date_from: date
    date_to: date
    items: list[NewsItem]


class CurrencyList(Cached):
    currencies: list[Currency]


# --- parsing ---------------------------------------------------------------------------


def _local(tag: Any) -> str:
    return etree.QName(tag).localname if isinstance(tag, str) else ""


def _text(value: Any) -> str:
    if isinstance(value, datetime):
        return value.isoformat()
    return "" if value is None else str(value).strip()


def iter_rows(result: Any, row_name: str) -> Iterator[dict[str, str]]:
    """Rows named ``row_name`` from any result form, as trimmed strings.

    Handles an lxml node (``...XML`` operations), zeep objects/dicts holding the
    DataSet diffgram (``_value_1``) and lists of either.
    """
    if isinstance(result, etree._Element):
        for el in result.iter():
            if _local(el.tag) == row_name:
                yield {_local(c.tag): _text(c.text) for c in el if _local(c.tag)}
        return
    if hasattr(result, "__values__") or hasattr(result, "__dict__"):
        result = serialize_object(result, dict)
    if isinstance(result, dict):
        for key, value in result.items():
            if key == "schema":
                continue
            if key == row_name and isinstance(value, dict):
                yield {k: _text(v) for k, v in value.items() if not isinstance(v, dict)}
            else:
                yield from iter_rows(value, row_name)
    elif isinstance(result, list | tuple):
        for item in result:
            yield from iter_rows(item, row_name)


def parse_decimal(raw: str) -> Decimal:
    try:
        return Decimal(raw.strip().replace(",", ".").replace("\xa0", "").replace(" ", ""))
    except InvalidOperation:
        raise CbrUnavailable(f"Bank of Russia sent a malformed number: {raw[:20]!r}") from None


def parse_date(raw: str | date | datetime) -> date:
    """``2023-11-01T00:00:00+03:00``, ``2023-11-01`` or ``20231101`` -> local date."""
    if isinstance(raw, datetime):
        return raw.date()
    if isinstance(raw, date):
        return raw
    text = raw.strip()
    try:
        if re.fullmatch(r"\d{8}", text):
            return datetime.strptime(text, "%Y%m%d").date()
        return datetime.fromisoformat(text).date()  # keeps the +03:00 local date
    except ValueError:
        raise CbrUnavailable(f"Bank of Russia sent a malformed date: {text[:30]!r}") from None


def _int_or_none(raw: str) -> int | None:
    raw = raw.strip()
    return int(raw) if raw.isdigit() else None


# --- transport -------------------------------------------------------------------------


class _CheckingTransport(AsyncTransport):
    """Refuses non-SOAP replies (HTML anti-bot pages, plain-text errors) before zeep."""

    async def post(self, address: str, message: Any, headers: dict[str, str]) -> Any:
        try:
            response = await self.client.post(address, content=message, headers=headers)
        except httpx.TimeoutException as exc:
            raise CbrUnavailable("Bank of Russia service timed out") from exc
        except httpx.TransportError as exc:
            raise CbrUnavailable(
                f"Bank of Russia service is unreachable ({type(exc).__name__})"
            ) from exc
        content_type = response.headers.get("Content-Type", "").lower()
        head = response.content[:200].lstrip().lower()
        is_html = "html" in content_type or head.startswith((b"<!doctype html", b"<html"))
        if is_html or "xml" not in content_type:
            kind = "an HTML page (anti-bot protection?)" if is_html else "a non-SOAP reply"
            if response.status_code >= 500 or response.status_code < 400:
                raise CbrUnavailable(
                    f"Bank of Russia answered {kind} with HTTP {response.status_code}"
                )
            raise CbrError(f"Bank of Russia refused the request (HTTP {response.status_code})")
        return response


# --- client ----------------------------------------------------------------------------


class CentralBankClient:
    """Bank of Russia DailyInfo: rates, dynamics, key rate, news, currency reference."""

    def __init__(
        self,
        settings: Settings,
        *,
        breaker: Breaker | None = None,
        cache: StaleCache[tuple[Any, ...], Any] | None = None,
        today: Callable[[], date] = moscow_today,
    ) -> None:
        self._settings = settings
        self._breaker = breaker or Breaker(
            SERVICE, threshold=settings.cbr_breaker_threshold, ttl_s=settings.cbr_breaker_ttl_s
        )
        self._cache: StaleCache[tuple[Any, ...], Any] = (
            cache if cache is not None else StaleCache(maxsize=2048)
        )
        self._today = today
        self._policy = CallPolicy(
            SERVICE,
            deadline_s=settings.cbr_deadline_s,
            attempts=settings.cbr_retry_attempts,
            backoff_s=settings.cbr_retry_backoff_s,
        )
        self._service: Any = None
        self._transport: AsyncTransport | None = None
        self._lock = asyncio.Lock()

    @property
    def breaker(self) -> Breaker:
        return self._breaker

    def today(self) -> date:
        return self._today()

    async def aclose(self) -> None:
        if self._transport is not None:
            await self._transport.aclose()
            self._transport, self._service = None, None

    # --- SOAP plumbing ------------------------------------------------------------------

    def _build(self) -> tuple[AsyncTransport, Any]:
        s = self._settings
        headers = {"User-Agent": s.cbr_user_agent}
        transport = _CheckingTransport(
            client=httpx.AsyncClient(timeout=s.cbr_timeout_s, headers=headers),
            wsdl_client=httpx.Client(timeout=s.cbr_timeout_s, headers=headers),
        )
        # AsyncTransport resets the User-Agent header to zeep's own: put ours back.
        transport.client.headers["User-Agent"] = s.cbr_user_agent
        transport.wsdl_client.headers["User-Agent"] = s.cbr_user_agent
        wsdl = s.cbr_wsdl or str(BUNDLED_WSDL)
        client = zeep.AsyncClient(wsdl, transport=transport)
        # create_service overrides the WSDL address; on zeep 4.3 it returns a sync
        # proxy even for AsyncClient, so rebuild it as the async proxy.
        proxy = client.create_service(BINDING_SOAP12, s.cbr_url)
        return transport, AsyncServiceProxy(client, proxy._binding, **proxy._binding_options)

    async def _proxy(self) -> Any:
        async with self._lock:
            if self._service is None:
                try:
                    self._transport, self._service = await asyncio.to_thread(self._build)
                except (OSError, httpx.HTTPError, zeep.exceptions.Error) as exc:
                    raise CbrUnavailable(
                        f"cannot load the Bank of Russia WSDL ({type(exc).__name__})"
                    ) from exc
            return self._service

    async def _soap(self, operation: str, **params: Any) -> Any:
        """One attempt of a SOAP operation (``resilient_call`` retries the whole fetch)."""
        service = await self._proxy()
        async with external_call(SERVICE, operation) as call:
            try:
                return await getattr(service, operation)(**params)
            except zeep.exceptions.Fault as exc:
                call.outcome = "fault"
                raise CbrFault(f"Bank of Russia rejected the request: {exc.message}") from exc
            except (zeep.exceptions.TransportError, zeep.exceptions.XMLSyntaxError) as exc:
                call.outcome = "bad_reply"
                raise CbrUnavailable("Bank of Russia sent a malformed or non-SOAP reply") from exc
            except etree.XMLSyntaxError as exc:
                call.outcome = "bad_reply"
                raise CbrUnavailable("Bank of Russia sent malformed XML") from exc

    def _ttl(self, last_day: date) -> float:
        """Past data never changes: long TTL; today's (or later) data: short TTL."""
        if last_day < self._today():
            return self._settings.cbr_cache_past_ttl_s
        return self._settings.cbr_cache_today_ttl_s

    async def _cached(
        self, key: tuple[Any, ...], fetch: Callable[[], Awaitable[T]], ttl_s: float
    ) -> CacheHit[T]:
        return await resilient_call(
            fetch,
            policy=self._policy,
            breaker=self._breaker,
            cache=self._cache,
            key=key,
            ttl_s=ttl_s,
        )

    # --- operations ---------------------------------------------------------------------

    async def currencies(self) -> CurrencyList:
        """The daily currency reference (EnumValutes, cached for a day)."""

        async def fetch() -> list[Currency]:
            result = await self._soap("EnumValutes", Seld=False)
            out = []
            for row in iter_rows(result, "EnumValutes"):
                code = row.get("Vcode", "").strip()
                if not code:
                    continue
                out.append(
                    Currency(
                        internal_code=code,
                        iso_char=row.get("VcharCode", "").strip().upper() or None,
                        iso_num=_int_or_none(row.get("VnumCode", "")),
                        nominal=int(parse_decimal(row.get("Vnom", "1") or "1")),
                        name_ru=row.get("Vname", "").strip(),
                        name_en=row.get("VEngname", "").strip(),
                    )
                )
            if not out:
                raise CbrUnavailable("Bank of Russia sent an empty currency list")
            return out

        hit = await self._cached(("currencies",), fetch, self._settings.cbr_currencies_ttl_s)
        return CurrencyList(currencies=hit.value, stale=hit.stale, fetched_at=hit.fetched_at)

    async def resolve(self, query: str) -> Currency:
        """Map USD / usd / 840 / R01235 / «доллар» / «евро» / «юань» to a currency."""
        currencies = (await self.currencies()).currencies
        found = match_currency(query, currencies)
        if found is None:
            raise UnknownCurrencyError(query, ["USD", "EUR", "CNY", "GBP", "840", "доллар"])
        return found

    async def _rates_raw(self, day: date) -> CacheHit[list[Rate]]:
        async def fetch() -> list[Rate]:
            result = await self._soap("GetCursOnDateXML", On_date=day.isoformat())
            rates = []
            for row in iter_rows(result, "ValuteCursOnDate"):
                char = row.get("VchCode", "").strip().upper()
                if not char:
                    continue
                nominal = int(parse_decimal(row.get("Vnom", "1") or "1"))
                value = parse_decimal(row.get("Vcurs", ""))
                unit = row.get("VunitRate", "").strip()
                rates.append(
                    Rate(
                        iso_char=char,
                        iso_num=_int_or_none(row.get("Vcode", "")),
                        name=row.get("Vname", "").strip(),
                        nominal=nominal,
                        value=value,
                        unit_rate=parse_decimal(unit) if unit else value / nominal,
                    )
                )
            return rates

        return await self._cached(("rates", day), fetch, self._ttl(day))

    async def rate_date(self, day: date) -> date | None:
        """The date of the rates in force on ``day`` (last rate-setting day <= ``day``)."""
        window = await self._dynamics_raw(USD_INTERNAL, day - timedelta(RATE_LOOKBACK_DAYS), day)
        days = [p.date for p in window.value if p.date <= day]
        return max(days) if days else None

    async def rates_on(self, day: date) -> RatesOnDate:
        """All official rates in force on ``day`` (weekends: the last set rates)."""
        rates_hit = await self._rates_raw(day)
        set_on = await self.rate_date(day)
        try:
            by_num = {c.iso_num: c for c in (await self.currencies()).currencies}
        except ExternalServiceError:
            by_num = {}
        rates = [
            r.model_copy(update={"internal_code": by_num[r.iso_num].internal_code})
            if r.iso_num in by_num
            else r
            for r in rates_hit.value
        ]
        return RatesOnDate(
            requested_date=day,
            rate_date=set_on or day,
            rates=rates,
            stale=rates_hit.stale,
            fetched_at=rates_hit.fetched_at,
        )

    async def _dynamics_raw(
        self, internal_code: str, date_from: date, date_to: date
    ) -> CacheHit[list[DynamicPoint]]:
        async def fetch() -> list[DynamicPoint]:
            result = await self._soap(
                "GetCursDynamicXML",
                FromDate=date_from.isoformat(),
                ToDate=date_to.isoformat(),
                ValutaCode=internal_code,
            )
            points = []
            for row in iter_rows(result, "ValuteCursDynamic"):
                nominal = int(parse_decimal(row.get("Vnom", "1") or "1"))
                value = parse_decimal(row.get("Vcurs", ""))
                unit = row.get("VunitRate", "").strip()
                points.append(
                    DynamicPoint(
                        date=parse_date(row.get("CursDate", "")),
                        nominal=nominal,
                        value=value,
                        unit_rate=parse_decimal(unit) if unit else value / nominal,
                    )
                )
            return sorted(points, key=lambda p: p.date)

        key = ("dynamics", internal_code, date_from, date_to)
        return await self._cached(key, fetch, self._ttl(date_to))

    async def dynamics(self, code: str, date_from: date, date_to: date) -> Dynamics:
        """Rates of one currency over a range (working days only; weekends are gaps)."""
        currency = await self.resolve(code)
        hit = await self._dynamics_raw(currency.internal_code, date_from, date_to)
        return Dynamics(
            currency=currency,
            date_from=date_from,
            date_to=date_to,
            points=hit.value,
            stale=hit.stale,
            fetched_at=hit.fetched_at,
        )

    async def key_rate(self, date_from: date, date_to: date) -> KeyRateSeries:
        """Key rate rows between the dates, ascending (the service order is not relied on)."""

        async def fetch() -> list[KeyRatePoint]:
            result = await self._soap(
                "KeyRateXML", fromDate=date_from.isoformat(), ToDate=date_to.isoformat()
            )
            points = [
                KeyRatePoint(date=parse_date(r.get("DT", "")), rate=parse_decimal(r["Rate"]))
                for r in iter_rows(result, "KR")
                if r.get("Rate")
            ]
            return sorted(points, key=lambda p: p.date)

        hit = await self._cached(("key_rate", date_from, date_to), fetch, self._ttl(date_to))
        return KeyRateSeries(
            date_from=date_from,
            date_to=date_to,
            points=hit.value,
            stale=hit.stale,
            fetched_at=hit.fetched_at,
        )

    async def news(self, date_from: date, date_to: date) -> NewsList:
        """Bank of Russia news between the dates, newest first."""

        async def fetch() -> list[NewsItem]:
            result = await self._soap(
                "NewsInfoXML", fromDate=date_from.isoformat(), ToDate=date_to.isoformat()
            )
            items = []
            for r in iter_rows(result, "News"):
                url = r.get("Url", "").strip()
                items.append(
                    NewsItem(
                        doc_id=r.get("Doc_id", "").strip(),
                        date=parse_date(r.get("DocDate", "")),
                        title=r.get("Title", "").strip(),
                        url=url if url.startswith("http") else SITE + url,
                    )
                )
            return sorted(items, key=lambda n: n.date, reverse=True)

        hit = await self._cached(("news", date_from, date_to), fetch, self._ttl(date_to))
        return NewsList(
            date_from=date_from,
            date_to=date_to,
            items=hit.value,
            stale=hit.stale,
            fetched_at=hit.fetched_at,
        )

    async def latest_date(self) -> date:
        """Date of the latest published rates (GetLatestDateTime, not cached)."""

        async def fetch() -> date:
            result = await self._soap("GetLatestDateTime")
            if not isinstance(result, datetime | date | str):
                raise CbrUnavailable("Bank of Russia sent an unexpected GetLatestDateTime reply")
            return parse_date(result)

        return (await resilient_call(fetch, policy=self._policy, breaker=self._breaker)).value


# --- currency matching -----------------------------------------------------------------

# Stems of common Russian/English names (any case/ending): «доллары», «евро», «юаней».
ALIASES: dict[str, str] = {
    "доллар": "USD",
    "бакс": "USD",
    "dollar": "USD",
    "$": "USD",
    "евро": "EUR",
    "euro": "EUR",
    "€": "EUR",
    "юан": "CNY",
    "жэньминьб": "CNY",
    "yuan": "CNY",
    "renminbi": "CNY",
    "rmb": "CNY",
    "фунт": "GBP",
    "pound": "GBP",
    "£": "GBP",
    "иен": "JPY",
    "йен": "JPY",
    "yen": "JPY",
    "тенге": "KZT",
    "tenge": "KZT",
    "лир": "TRY",
    "lira": "TRY",
    "франк": "CHF",
    "franc": "CHF",
    "дирхам": "AED",
    "dirham": "AED",
    "белорусск": "BYN",
    "гонконгск": "HKD",
    "рупи": "INR",
    "rupee": "INR",
}


def match_currency(query: str, currencies: list[Currency]) -> Currency | None:
    """Find a currency by ISO letters, ISO numeric, internal code, alias or name."""
    q = query.strip()
    if not q:
        return None
    upper = q.upper()
    by_char = {c.iso_char: c for c in currencies if c.iso_char}
    if upper in by_char:
        return by_char[upper]
    if q.isdigit():
        return next((c for c in currencies if c.iso_num == int(q)), None)
    if re.fullmatch(r"R\d{5}[A-Z]?", upper):
        return next((c for c in currencies if c.internal_code.upper() == upper), None)
    lower = " ".join(q.lower().split())
    for c in currencies:
        if lower in (c.name_ru.lower(), c.name_en.lower()):
            return c
    for stem, char in ALIASES.items():
        if lower.startswith(stem) and char in by_char:
            return by_char[char]
    return None
