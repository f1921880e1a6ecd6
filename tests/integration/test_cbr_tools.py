"""fetch_cbr_data through the ToolRegistry against the loopback DailyInfo fake."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from structlog.testing import capture_logs

from finagent.clients.cbr import CentralBankClient
from finagent.clients.stale_cache import StaleCache
from finagent.tools.base import ToolContext
from finagent.tools.cbr import FetchCbrData, build_cbr_tools
from finagent.tools.registry import ToolRegistry
from tests.fakes.cbr_soap import FakeCbrServer, ManualClock, running_server
from tests.integration.test_cbr_client import TODAY, make_settings

CTX = ToolContext(user_id="u1")


@pytest.fixture
def server() -> Iterator[FakeCbrServer]:
    yield from running_server()


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def registry(server: FakeCbrServer, clock: ManualClock) -> AsyncIterator[ToolRegistry]:
    settings = make_settings(server)
    client = CentralBankClient(settings, cache=StaleCache(clock=clock), today=lambda: TODAY)
    yield ToolRegistry(build_cbr_tools(settings, client))
    await client.aclose()


async def call(registry: ToolRegistry, **args: Any) -> Any:
    text = await registry.call("fetch_cbr_data", args, CTX)
    return text if text.startswith("Error:") else json.loads(text)


def test_factory_builds_four_tools_with_schemas(server: FakeCbrServer) -> None:
    tools = build_cbr_tools(make_settings(server))
    assert [t.name for t in tools] == [
        "fetch_cbr_data",
        "Req_Compare_Rates_For_Dates",
        "Req_Calculate_Conversion_For_Amounts",
        "Req_Calculate_Penalty_For_Payments",
    ]
    assert isinstance(tools[0], FetchCbrData)
    schema = tools[0].openai_schema()["function"]
    assert set(schema["parameters"]["properties"]) == {
        "mode",
        "date",
        "date_from",
        "date_to",
        "code",
    }
    assert "cbr.ru" in schema["description"]


async def test_currency_with_code(registry: ToolRegistry) -> None:
    out = await call(registry, mode="currency", date="2025-04-01", code="usd")
    assert out["source"] == "cbr.ru"
    assert out["rate_date"] == "2025-04-01"
    assert "note" not in out and "stale" not in out
    assert out["rates"] == [
        {
            "code": "USD",
            "iso_num": "840",
            "cbr_code": "R01235",
            "name": "Доллар США",
            "nominal": 1,
            "value": 85.4963,
            "unit_rate": 85.4963,
        }
    ]


async def test_currency_main_list(registry: ToolRegistry) -> None:
    out = await call(registry, mode="currency", date="2025-04-01")
    codes = [r["code"] for r in out["rates"]]
    assert codes[:3] == ["USD", "EUR", "CNY"]
    assert "AUD" not in codes and len(codes) >= 5
    assert out["rates"][1]["value"] == 92.4276 and out["rates"][2]["value"] == 11.7136


async def test_currency_on_sunday_says_when_set(registry: ToolRegistry) -> None:
    out = await call(registry, mode="currency", date="2025-03-30", code="доллар")
    assert out["requested_date"] == "2025-03-30"
    assert out["rate_date"] == "2025-03-28"
    assert "2025-03-28" in out["note"]
    assert out["rates"][0]["value"] == 84.0851


async def test_dynamics(registry: ToolRegistry) -> None:
    out = await call(
        registry, mode="dynamics", code="USD", date_from="2023-11-01", date_to="2023-11-07"
    )
    assert out["currency"]["cbr_code"] == "R01235"
    assert out["points"][:2] == [
        {"date": "2023-11-01", "value": 92.0226, "unit_rate": 92.0226},
        {"date": "2023-11-02", "value": 93.2801, "unit_rate": 93.2801},
    ]
    assert "2023-11-04" not in {p["date"] for p in out["points"]}


async def test_key_rate_on_date_with_since(registry: ToolRegistry) -> None:
    out = await call(registry, mode="key_rate", date="2024-11-03")  # Sunday
    assert out["rate"] == 21 and out["since"] == "2024-10-28"
    assert out["row_date"] == "2024-11-01"
    out = await call(registry, mode="key_rate", date="2024-09-15")  # Sunday before 19 %
    assert out["rate"] == 18 and out["since"] == "2024-07-29"


async def test_key_rate_series(registry: ToolRegistry) -> None:
    out = await call(registry, mode="key_rate", date_from="2024-07-01", date_to="2024-12-31")
    assert [(p["from"], p["rate"]) for p in out["periods"]] == [
        ("2024-07-01", 16),
        ("2024-07-29", 18),
        ("2024-09-16", 19),
        ("2024-10-28", 21),
    ]
    assert out["periods"][0]["to"] == "2024-07-26"


async def test_news(registry: ToolRegistry) -> None:
    out = await call(registry, mode="news", date_from="2024-07-01", date_to="2024-12-31")
    assert out["count"] == 3
    assert out["items"][0]["date"] == "2024-10-25"  # newest first
    assert out["items"][0]["url"].startswith("https://www.cbr.ru/")


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        ({"mode": "currency", "date": "01.04.2025"}, "YYYY-MM-DD"),
        ({"mode": "currency", "date": "2025-02-30"}, "YYYY-MM-DD"),
        ({"mode": "currency", "date": "2025-04-03"}, "in the future"),
        ({"mode": "key_rate", "date_from": "2030-01-01"}, "in the future"),
        ({"mode": "currency", "code": "тугрик"}, "unknown currency"),
        ({"mode": "dynamics", "date_from": "2025-01-01"}, "needs a currency code"),
        (
            {"mode": "dynamics", "code": "USD", "date_from": "2023-01-01", "date_to": "2025-01-01"},
            "longer than 366 days",
        ),
        (
            {"mode": "news", "date_from": "2025-03-01", "date_to": "2025-02-01"},
            "is after date_to",
        ),
        ({"mode": "rates"}, "invalid arguments"),
    ],
)
async def test_validation(
    registry: ToolRegistry, server: FakeCbrServer, args: dict[str, Any], expected: str
) -> None:
    out = await registry.call("fetch_cbr_data", args, CTX)
    assert out.startswith("Error:") and expected in out
    if "unknown currency" in expected:
        assert "USD" in out and "EUR" in out  # lists examples
    else:
        assert server.total_requests == 0  # rejected before any request


async def test_service_down_is_a_clear_error(registry: ToolRegistry, server: FakeCbrServer) -> None:
    server.fail("html")
    out = await call(registry, mode="key_rate", date="2024-11-03")
    assert out.startswith("Error:") and "unavailable" in out and "HTML" in out


async def test_stale_output_is_marked(
    registry: ToolRegistry, server: FakeCbrServer, clock: ManualClock
) -> None:
    fresh = await call(registry, mode="currency", code="EUR")  # today: short TTL
    clock.advance(15 * 60 + 1)
    server.fail("http500")
    with capture_logs() as logs:
        stale = await call(registry, mode="currency", code="EUR")
    assert stale["stale"] is True and stale["as_of"]
    assert stale["rates"] == fresh["rates"]
    assert any(e["event"] == "stale_cache_served" for e in logs)


async def test_cache_hit_means_no_second_request(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    await call(registry, mode="currency", date="2025-04-01", code="USD")
    first = server.total_requests
    again = await call(registry, mode="currency", date="2025-04-01", code="CNY")
    assert again["rates"][0]["value"] == 11.7136
    assert server.total_requests == first
