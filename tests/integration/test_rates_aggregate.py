"""Aggregate rate tools (Req_*) through the ToolRegistry against the DailyInfo fake."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest

from finagent.clients.cbr import CentralBankClient
from finagent.tools.base import AggregateResult, ToolContext
from finagent.tools.cbr import build_cbr_tools
from finagent.tools.registry import ToolRegistry
from tests.fakes.cbr_soap import FakeCbrServer, running_server
from tests.integration.test_cbr_client import TODAY, make_settings

CTX = ToolContext(user_id="u1")
COMPARE = "Req_Compare_Rates_For_Dates"
CONVERT = "Req_Calculate_Conversion_For_Amounts"


@pytest.fixture
def server() -> Iterator[FakeCbrServer]:
    yield from running_server()


@pytest.fixture
async def registry(server: FakeCbrServer) -> AsyncIterator[ToolRegistry]:
    settings = make_settings(server, cbr_retry_attempts=1)
    client = CentralBankClient(settings, today=lambda: TODAY)
    yield ToolRegistry(build_cbr_tools(settings, client))
    await client.aclose()


async def call(registry: ToolRegistry, name: str, **args: Any) -> AggregateResult:
    text = await registry.call(name, args, CTX)
    return AggregateResult.model_validate(json.loads(text))


async def test_compare_dates_and_codes(registry: ToolRegistry, server: FakeCbrServer) -> None:
    out = await call(
        registry,
        COMPARE,
        codes=["USD", "евро", "XXX"],
        dates=["2023-11-01", "2023-11-02", "01.11.2023", "2025-03-30"],
    )
    assert out.success and out.fatal_error is None
    values = {(r["date"], r["code"]): r["value"] for r in out.results}
    assert values[("2023-11-01", "USD")] == 92.0226
    assert values[("2023-11-02", "USD")] == 93.2801
    assert ("2023-11-01", "EUR") in values
    sunday = next(r for r in out.results if r["date"] == "2025-03-30" and r["code"] == "USD")
    assert sunday["rate_date"] == "2025-03-28" and sunday["cbr_code"] == "R01235"
    methods = sorted(e.method for e in out.errors)
    assert methods == ["parse_date", "resolve_currency"]  # unknown code reported once
    assert next(e for e in out.errors if e.method == "resolve_currency").params == {"code": "XXX"}
    # the expensive step ran once per valid date; the currency list was fetched once
    assert server.requests["GetCursOnDateXML"] == 3
    assert server.requests["EnumValutes"] == 1


async def test_compare_stops_on_fatal_error(registry: ToolRegistry, server: FakeCbrServer) -> None:
    await call(registry, COMPARE, codes=["USD"], dates=["2025-04-01"])  # cached now
    server.fail("http500")
    out = await call(
        registry, COMPARE, codes=["USD"], dates=["2025-04-01", "2023-11-01", "bad-date"]
    )
    assert not out.success
    assert out.fatal_error and "unavailable" in out.fatal_error
    assert [r["date"] for r in out.results] == ["2025-04-01"]  # served before the failure
    assert out.errors == []  # the loop stopped: "bad-date" was never looked at


async def test_compare_with_open_breaker_is_fatal(server: FakeCbrServer) -> None:
    settings = make_settings(server, cbr_retry_attempts=1, cbr_breaker_threshold=1)
    client = CentralBankClient(settings, today=lambda: TODAY)
    registry = ToolRegistry(build_cbr_tools(settings, client))
    try:
        server.fail("malformed")
        first = await call(registry, COMPARE, codes=["USD"], dates=["2025-04-01"])
        server.heal()
        before = server.total_requests
        second = await call(registry, COMPARE, codes=["USD"], dates=["2025-04-01"])
    finally:
        await client.aclose()
    assert first.fatal_error and "unavailable" in first.fatal_error
    assert second.fatal_error and "repeated failures" in second.fatal_error
    assert server.total_requests == before


async def test_conversion_to_and_from_rub(registry: ToolRegistry, server: FakeCbrServer) -> None:
    out = await call(
        registry,
        CONVERT,
        amounts=[100, 250.5, -1],
        code="840",
        date="2025-04-01",
        direction="to_rub",
    )
    assert out.success
    assert [r["result"] for r in out.results] == [8549.63, 21416.82]
    assert out.results[0]["from"] == "USD" and out.results[0]["to"] == "RUB"
    assert [e.method for e in out.errors] == ["convert"]
    back = await call(
        registry, CONVERT, amounts=[1000], code="USD", date="2025-04-01", direction="from_rub"
    )
    assert back.results[0]["result"] == 11.70 and back.results[0]["to"] == "USD"
    assert server.requests["GetCursOnDateXML"] == 1  # second call: cache hit


async def test_conversion_weekend_notes_rate_date(registry: ToolRegistry) -> None:
    out = await call(
        registry, CONVERT, amounts=[10], code="CNY", date="2025-03-30", direction="to_rub"
    )
    assert out.results[0]["rate_date"] == "2025-03-28" and "note" in out.results[0]


async def test_conversion_local_errors(registry: ToolRegistry, server: FakeCbrServer) -> None:
    out = await call(
        registry, CONVERT, amounts=[1], code="тугрик", date="2030-01-01", direction="to_rub"
    )
    assert not out.success and out.fatal_error is None
    assert sorted(e.method for e in out.errors) == ["parse_date", "resolve_currency"]
    assert server.requests["GetCursOnDateXML"] == 0


async def test_conversion_service_down_is_fatal(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    server.fail("html")
    out = await call(
        registry, CONVERT, amounts=[1], code="USD", date="2025-04-01", direction="to_rub"
    )
    assert not out.success and out.fatal_error and not out.results
