"""CentralBankClient against the loopback DailyInfo fake (real zeep, real HTTP)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Iterator
from datetime import date
from decimal import Decimal
from pathlib import Path
from typing import Any

import httpx
import pytest
import zeep
from structlog.testing import capture_logs
from zeep.proxy import AsyncServiceProxy
from zeep.transports import AsyncTransport

from finagent.clients.breaker import Breaker
from finagent.clients.call_log import external_call
from finagent.clients.cbr import BUNDLED_WSDL, CentralBankClient
from finagent.clients.cbr_currency import match_currency
from finagent.clients.cbr_models import CbrFault, CbrUnavailable, UnknownCurrencyError
from finagent.clients.cbr_soap import iter_rows
from finagent.clients.errors import CircuitOpenError
from finagent.clients.stale_cache import StaleCache
from finagent.config import Settings
from finagent.observability import EXTERNAL_CALLS
from tests.fakes.cbr_soap import SOAP11, FakeCbrServer, ManualClock, running_server

PUBLISHED_WSDL = Path("/work/shared/reference/cbr/DailyInfo.wsdl")
TODAY = date(2025, 4, 2)


@pytest.fixture
def server() -> Iterator[FakeCbrServer]:
    yield from running_server()


def make_settings(server: FakeCbrServer, **overrides: Any) -> Settings:
    values: dict[str, Any] = {
        "cbr_url": server.url,
        "cbr_retry_attempts": 2,
        "cbr_retry_backoff_s": 0.0,
        "cbr_timeout_s": 2.0,
        "cbr_breaker_threshold": 50,
        **overrides,
    }
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def client(server: FakeCbrServer, clock: ManualClock) -> AsyncIterator[CentralBankClient]:
    c = CentralBankClient(make_settings(server), cache=StaleCache(clock=clock), today=lambda: TODAY)
    yield c
    await c.aclose()


# --- operations ---------------------------------------------------------------------------


async def test_rates_on_working_day(client: CentralBankClient, server: FakeCbrServer) -> None:
    result = await client.rates_on(date(2025, 4, 1))
    by_code = {r.iso_char: r for r in result.rates}
    assert by_code["USD"].value == Decimal("85.4963")
    assert by_code["EUR"].value == Decimal("92.4276")
    assert by_code["CNY"].unit_rate == Decimal("11.7136")
    assert by_code["USD"].internal_code == "R01235"
    assert by_code["USD"].iso_num == 840
    assert by_code["USD"].name == "Доллар США"  # trimmed
    assert by_code["JPY"].nominal == 100
    assert by_code["JPY"].unit_rate == by_code["JPY"].value / 100
    assert result.rate_date == date(2025, 4, 1)
    assert not result.stale
    assert server.state.soap_versions["1.2"] > 0 and server.state.soap_versions["1.1"] == 0
    assert all("Mozilla/5.0" in ua for ua in server.state.user_agents)


async def test_rates_on_sunday_uses_last_working_day(client: CentralBankClient) -> None:
    result = await client.rates_on(date(2025, 3, 30))  # Sunday
    assert result.requested_date == date(2025, 3, 30)
    assert result.rate_date == date(2025, 3, 28)  # Friday, not the echoed OnDate
    usd = next(r for r in result.rates if r.iso_char == "USD")
    assert usd.value == Decimal("84.0851")


async def test_dynamics_needs_internal_code_and_has_weekend_gaps(
    client: CentralBankClient,
) -> None:
    result = await client.dynamics("840", date(2023, 11, 1), date(2023, 11, 7))
    assert result.currency.internal_code == "R01235"
    assert [(p.date, p.value) for p in result.points][:2] == [
        (date(2023, 11, 1), Decimal("92.0226")),
        (date(2023, 11, 2), Decimal("93.2801")),
    ]
    assert date(2023, 11, 4) not in {p.date for p in result.points}  # Saturday


async def test_key_rate_sorted_ascending(client: CentralBankClient) -> None:
    series = await client.key_rate(date(2024, 7, 25), date(2024, 7, 30))
    assert [p.date for p in series.points] == sorted(p.date for p in series.points)
    assert series.points[0].rate == Decimal("16.00")
    assert series.points[-1].rate == Decimal("18.00")


async def test_news_and_latest_date(client: CentralBankClient) -> None:
    news = await client.news(date(2024, 10, 1), date(2024, 10, 31))
    assert len(news.items) == 1
    assert news.items[0].url.startswith("https://www.cbr.ru/press/")
    assert "21,00%" in news.items[0].title
    assert await client.latest_date() == date(2025, 4, 2)


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("USD", "USD"),
        ("usd", "USD"),
        ("840", "USD"),
        ("R01235", "USD"),
        ("доллар", "USD"),
        ("Доллары США", "USD"),
        ("евро", "EUR"),
        ("юань", "CNY"),
        ("юаней", "CNY"),
        ("Австралийский доллар", "AUD"),
        ("36", "AUD"),
        ("японских иен", "JPY"),
    ],
)
async def test_currency_mapping(client: CentralBankClient, query: str, expected: str) -> None:
    assert (await client.resolve(query)).iso_char == expected


async def test_unknown_currency(client: CentralBankClient) -> None:
    with pytest.raises(UnknownCurrencyError) as info:
        await client.resolve("тугрик")
    assert "USD" in str(info.value)
    assert match_currency("", (await client.currencies()).currencies) is None


async def test_currency_reference_cached_for_a_day(
    client: CentralBankClient, server: FakeCbrServer, clock: ManualClock
) -> None:
    await client.resolve("USD")
    await client.resolve("EUR")
    assert server.requests["EnumValutes"] == 1
    clock.advance(86_401)
    await client.resolve("USD")
    assert server.requests["EnumValutes"] == 2


# --- caching --------------------------------------------------------------------------------


async def test_past_date_cached_long_today_short(
    client: CentralBankClient, server: FakeCbrServer, clock: ManualClock
) -> None:
    await client.rates_on(date(2025, 4, 1))
    await client.rates_on(TODAY)
    assert server.requests["GetCursOnDateXML"] == 2
    await client.rates_on(date(2025, 4, 1))
    await client.rates_on(TODAY)
    assert server.requests["GetCursOnDateXML"] == 2  # both cache hits
    clock.advance(15 * 60 + 1)
    await client.rates_on(date(2025, 4, 1))
    assert server.requests["GetCursOnDateXML"] == 2  # past date: still cached
    await client.rates_on(TODAY)
    assert server.requests["GetCursOnDateXML"] == 3  # today's data expired


async def test_stale_value_served_when_service_fails(
    client: CentralBankClient, server: FakeCbrServer, clock: ManualClock
) -> None:
    fresh = await client.rates_on(TODAY)
    assert not fresh.stale
    clock.advance(15 * 60 + 1)
    server.fail("http500")
    stale = await client.rates_on(TODAY)
    assert stale.stale
    assert stale.fetched_at == fresh.fetched_at
    assert stale.rates == fresh.rates


async def test_no_stale_value_means_error(client: CentralBankClient, server: FakeCbrServer) -> None:
    server.fail("http500")
    with pytest.raises(CbrUnavailable):
        await client.key_rate(date(2024, 7, 1), date(2024, 7, 31))


# --- faults ---------------------------------------------------------------------------------


@pytest.mark.parametrize("mode", ["http500", "html", "malformed"])
async def test_bad_replies_are_errors_never_data(
    client: CentralBankClient, server: FakeCbrServer, mode: Any
) -> None:
    server.fail(mode)
    with pytest.raises(CbrUnavailable):
        await client.rates_on(date(2025, 4, 1))
    assert server.requests["GetCursOnDateXML"] == 2  # retried once (2 attempts)


async def test_retry_recovers_from_one_5xx(
    client: CentralBankClient, server: FakeCbrServer
) -> None:
    server.fail("http500", times=1)
    series = await client.key_rate(date(2024, 10, 24), date(2024, 10, 29))
    assert series.points[-1].rate == Decimal("21.00")
    assert server.requests["KeyRateXML"] == 2


async def test_soap_fault_is_not_retried(client: CentralBankClient, server: FakeCbrServer) -> None:
    service = await client._proxy()  # a request the typed API would never send
    with pytest.raises(zeep.exceptions.Fault):
        await service.KeyRateXML(fromDate="2024-01-01", ToDate="not-a-date")
    with pytest.raises(CbrFault, match="not a valid"):
        await client._soap("KeyRateXML", fromDate="2024-01-01", ToDate="not-a-date")
    assert server.requests["KeyRateXML"] == 2  # one each: the fault was not retried


async def test_slow_reply_times_out(server: FakeCbrServer) -> None:
    c = CentralBankClient(make_settings(server, cbr_timeout_s=0.2, cbr_retry_attempts=1))
    server.fail("slow")
    try:
        with capture_logs() as logs, pytest.raises(CbrUnavailable, match="timed out"):
            await c.key_rate(date(2024, 7, 1), date(2024, 7, 31))
    finally:
        server.heal()
        await c.aclose()
    assert [e["outcome"] for e in logs if e["event"] == "external_call"] == ["timeout"]


# --- circuit breaker ------------------------------------------------------------------------


async def wait_until_reopen(breaker: Breaker) -> None:
    """Wait on the condition 'the open period is over' (no fixed sleep)."""
    reopen_at = await breaker.reopen_at()
    assert reopen_at is not None
    # purgatory reads wall time (no injectable clock): poll the condition itself
    while time.time() <= reopen_at:  # noqa: ASYNC110
        await asyncio.sleep(0.01)


async def test_breaker_opens_then_half_open_recovers(server: FakeCbrServer) -> None:
    settings = make_settings(
        server, cbr_retry_attempts=1, cbr_breaker_threshold=2, cbr_breaker_ttl_s=0.2
    )
    c = CentralBankClient(settings, today=lambda: TODAY)
    try:
        server.fail("http500")
        for _ in range(2):
            with pytest.raises(CbrUnavailable):
                await c.key_rate(date(2024, 7, 1), date(2024, 7, 31))
        assert await c.breaker.state() == "opened"
        before = server.requests["KeyRateXML"]
        with pytest.raises(CircuitOpenError):
            await c.key_rate(date(2024, 7, 1), date(2024, 7, 31))
        assert server.requests["KeyRateXML"] == before  # refused without a request

        # half-open probe fails: open again
        await wait_until_reopen(c.breaker)
        with pytest.raises(CbrUnavailable):
            await c.key_rate(date(2024, 7, 1), date(2024, 7, 31))
        assert await c.breaker.state() == "opened"

        # half-open probe succeeds: closed
        server.heal()
        await wait_until_reopen(c.breaker)
        series = await c.key_rate(date(2024, 7, 1), date(2024, 7, 31))
        assert series.points
        assert await c.breaker.state() == "closed"
    finally:
        await c.aclose()


async def test_faults_do_not_open_breaker(server: FakeCbrServer) -> None:
    settings = make_settings(server, cbr_retry_attempts=1, cbr_breaker_threshold=2)
    c = CentralBankClient(settings)
    try:
        for _ in range(3):
            with pytest.raises(CbrFault):
                await c._soap("KeyRateXML", fromDate="bad", ToDate="bad")
        assert await c.breaker.state() == "closed"
    finally:
        await c.aclose()


async def test_breaker_open_serves_stale(server: FakeCbrServer, clock: ManualClock) -> None:
    settings = make_settings(server, cbr_retry_attempts=1, cbr_breaker_threshold=1)
    c = CentralBankClient(settings, cache=StaleCache(clock=clock), today=lambda: TODAY)
    try:
        fresh = await c.key_rate(date(2024, 7, 1), TODAY)
        server.fail("http500")
        with pytest.raises(CbrUnavailable):
            await c.news(date(2024, 7, 1), date(2024, 7, 31))  # opens the breaker
        clock.advance(15 * 60 + 1)
        stale = await c.key_rate(date(2024, 7, 1), TODAY)
        assert stale.stale and stale.points == fresh.points
    finally:
        await c.aclose()


# --- observability ----------------------------------------------------------------------------


async def test_external_call_events_and_no_secret(server: FakeCbrServer) -> None:
    secret = "sk-cbr-proxy-token-123456"
    settings = make_settings(server)
    settings.cbr_url = f"{server.url}?token={secret}"
    c = CentralBankClient(settings, today=lambda: TODAY)
    ok_before = EXTERNAL_CALLS.labels(service="cbr", outcome="ok")._value.get()
    try:
        with capture_logs() as logs:
            await c.rates_on(date(2025, 4, 1))
            server.fail("html")
            with pytest.raises(CbrUnavailable) as info:
                await c.key_rate(date(2024, 7, 1), date(2024, 7, 31))
    finally:
        await c.aclose()
    calls = [e for e in logs if e["event"] == "external_call"]
    assert {e["operation"] for e in calls} >= {"GetCursOnDateXML", "EnumValutes", "KeyRateXML"}
    for event in calls:
        assert event["service"] == "cbr"
        assert isinstance(event["duration_ms"], float)
        assert event["outcome"] in {"ok", "unavailable"}
    assert [e["outcome"] for e in calls if e["operation"] == "KeyRateXML"] == ["unavailable"] * 2
    assert "HTML" in str(info.value)
    assert secret not in repr(logs) and secret not in str(info.value)
    assert EXTERNAL_CALLS.labels(service="cbr", outcome="ok")._value.get() >= ok_before + 3


async def test_external_call_decorator_counts_errors() -> None:
    @external_call("demo", "op")
    async def broken() -> None:
        raise httpx.ConnectError("down")

    with capture_logs() as logs, pytest.raises(httpx.ConnectError):
        await broken()
    assert logs[0]["outcome"] == "unavailable" and logs[0]["operation"] == "op"


# --- WSDLs and wire forms ---------------------------------------------------------------------


@pytest.mark.skipif(not PUBLISHED_WSDL.exists(), reason="published WSDL copy is absent")
async def test_published_wsdl_works(server: FakeCbrServer) -> None:
    c = CentralBankClient(make_settings(server, cbr_wsdl=str(PUBLISHED_WSDL)), today=lambda: TODAY)
    try:
        result = await c.rates_on(date(2025, 4, 1))
        usd = next(r for r in result.rates if r.iso_char == "USD")
        assert usd.value == Decimal("85.4963") and usd.internal_code == "R01235"
        assert (await c.key_rate(date(2024, 10, 28), date(2024, 10, 28))).points[0].rate == 21
    finally:
        await c.aclose()


async def test_wsdl_from_url(server: FakeCbrServer) -> None:
    wsdl_url = server.url + "?WSDL"
    c = CentralBankClient(make_settings(server, cbr_wsdl=wsdl_url), today=lambda: TODAY)
    try:
        assert (await c.resolve("EUR")).internal_code == "R01239"
    finally:
        await c.aclose()


@pytest.mark.parametrize(
    "wsdl",
    [
        BUNDLED_WSDL,
        pytest.param(
            PUBLISHED_WSDL,
            marks=pytest.mark.skipif(not PUBLISHED_WSDL.exists(), reason="no published WSDL"),
        ),
    ],
)
async def test_dataset_form_parsed(server: FakeCbrServer, wsdl: Path) -> None:
    transport = AsyncTransport(client=httpx.AsyncClient(timeout=2))
    zc = zeep.AsyncClient(str(wsdl), transport=transport)
    proxy = zc.create_service("{http://web.cbr.ru/}DailyInfoSoap", server.url)  # SOAP 1.1
    service = AsyncServiceProxy(zc, proxy._binding, **proxy._binding_options)
    try:
        result = await service.GetCursOnDate(On_date="2023-11-02")
    finally:
        await transport.aclose()
    rows = {r["VchCode"]: r for r in iter_rows(result, "ValuteCursOnDate")}
    assert rows["USD"]["Vcurs"] == "93.2801"
    assert rows["USD"]["Vname"] == "Доллар США"
    assert server.state.soap_versions["1.1"] == 1


async def test_fake_answers_soap11_fault_with_http_500(server: FakeCbrServer) -> None:
    envelope = (
        f'<soap:Envelope xmlns:soap="{SOAP11}"><soap:Body>'
        '<KeyRateXML xmlns="http://web.cbr.ru/"><fromDate>x</fromDate><ToDate>y</ToDate>'
        "</KeyRateXML></soap:Body></soap:Envelope>"
    )
    async with httpx.AsyncClient() as http:
        reply = await http.post(
            server.url,
            content=envelope,
            headers={
                "Content-Type": "text/xml; charset=utf-8",
                "SOAPAction": '"http://web.cbr.ru/KeyRateXML"',
            },
        )
    assert reply.status_code == 500
    assert "<faultstring>" in reply.text and reply.headers["content-type"].startswith("text/xml")


async def test_a_retried_call_counts_once_toward_the_breaker(server: FakeCbrServer) -> None:
    settings = make_settings(server, cbr_retry_attempts=3, cbr_breaker_threshold=2)
    c = CentralBankClient(settings, today=lambda: TODAY)
    try:
        server.fail("http500")
        with pytest.raises(CbrUnavailable):
            await c.key_rate(date(2024, 7, 1), date(2024, 7, 31))
        assert server.requests["KeyRateXML"] == 3  # three attempts on the wire ...
        assert await c.breaker.failures() == 1  # ... one failure for the breaker
        assert await c.breaker.state() == "closed"
    finally:
        await c.aclose()
