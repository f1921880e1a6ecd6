"""Async client of the Bank of Russia DailyInfo SOAP service (www.cbr.ru).

zeep's ``AsyncClient`` over httpx, SOAP 1.2 binding, service address from settings.
Every call goes through :func:`~finagent.clients.resilient.resilient_call` (stale-capable
cache, circuit breaker, total deadline ``cbr_deadline_s``, retries on transient failures):
past dates are cached for long (they never change), today's data for a short time, and
when the service fails a cached value is returned marked stale. Results and errors are in
:mod:`~finagent.clients.cbr_models`, reply parsing in :mod:`~finagent.clients.cbr_soap`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from datetime import date, datetime, timedelta
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

import httpx

from finagent.clients.breaker import Breaker
from finagent.clients.call_log import external_call
from finagent.clients.cbr_currency import match_currency
from finagent.clients.cbr_models import (
    CbrFault,
    CbrUnavailable,
    Currency,
    CurrencyList,
    DynamicPoint,
    Dynamics,
    KeyRateSeries,
    NewsList,
    Rate,
    RatesOnDate,
    UnknownCurrencyError,
)
from finagent.clients.cbr_rows import (
    currencies_from,
    dynamics_from,
    key_rates_from,
    news_from,
    rates_from,
)
from finagent.clients.cbr_soap import parse_date
from finagent.clients.errors import ExternalServiceError
from finagent.clients.resilient import CallPolicy, resilient_call
from finagent.clients.stale_cache import CacheHit, StaleCache
from finagent.config import Settings
from finagent.moscow_time import moscow_today

if TYPE_CHECKING:
    from zeep.transports import AsyncTransport

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
        # zeep and lxml load here, at the first SOAP call: an answer that needs no Bank of
        # Russia data does not pay for them
        import zeep
        from zeep.proxy import AsyncServiceProxy

        from finagent.clients.cbr_transport import CheckingTransport

        s = self._settings
        headers = {"User-Agent": s.cbr_user_agent}
        transport = CheckingTransport(
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
        import zeep.exceptions

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
        import zeep.exceptions
        from lxml import etree

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

    async def _between(
        self, key: str, method: str, parse: Callable[[Any], T], date_from: date, date_to: date
    ) -> CacheHit[T]:
        """What ``method`` (a SOAP operation over ``fromDate``..``ToDate``) returns between
        the dates, read by ``parse`` and cached under ``key`` and the dates."""

        async def fetch() -> T:
            result = await self._soap(
                method, fromDate=date_from.isoformat(), ToDate=date_to.isoformat()
            )
            return parse(result)

        return await self._cached((key, date_from, date_to), fetch, self._ttl(date_to))

    # --- operations ---------------------------------------------------------------------

    async def currencies(self) -> CurrencyList:
        """The daily currency reference (EnumValutes, cached for a day)."""

        async def fetch() -> list[Currency]:
            result = await self._soap("EnumValutes", Seld=False)
            out = currencies_from(result)
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
            return rates_from(result)

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
            return dynamics_from(result)

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
        hit = await self._between("key_rate", "KeyRateXML", key_rates_from, date_from, date_to)
        return KeyRateSeries(
            date_from=date_from,
            date_to=date_to,
            points=hit.value,
            stale=hit.stale,
            fetched_at=hit.fetched_at,
        )

    async def news(self, date_from: date, date_to: date) -> NewsList:
        """Bank of Russia news between the dates, newest first."""
        hit = await self._between(
            "news", "NewsInfoXML", lambda result: news_from(result, SITE), date_from, date_to
        )
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
