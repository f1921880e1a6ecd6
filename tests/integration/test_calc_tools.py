"""The calculator tools over the real Bank of Russia client and the loopback SOAP fake
serving the real key-rate history (tests/data/key_rate_history.csv)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from datetime import date
from pathlib import Path
from typing import Any

import pytest

from evals.answers.cbr_loopback import published_key_rates
from finagent.clients.cbr import CentralBankClient
from finagent.clients.stale_cache import StaleCache
from finagent.config import Settings
from finagent.tools.base import ToolContext
from finagent.tools.calc import Req_Calculate_Deadline_For_Events
from finagent.tools.cbr import build_cbr_tools
from finagent.tools.registry import ToolRegistry
from tests.fakes.cbr_soap import FakeCbrServer, ManualClock, running_server

HISTORY = Path(__file__).resolve().parents[1] / "data" / "key_rate_history.csv"
TODAY = date(2025, 11, 20)
CTX = ToolContext(user_id="alice")
PENALTY = "Req_Calculate_Penalty_For_Payments"
DEADLINE = "Req_Calculate_Deadline_For_Events"


@pytest.fixture
def server() -> Iterator[FakeCbrServer]:
    for fake in running_server():
        fake.state.key_rates = published_key_rates(HISTORY, TODAY)
        yield fake


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def registry(server: FakeCbrServer, clock: ManualClock) -> AsyncIterator[ToolRegistry]:
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        cbr_url=server.url,
        cbr_retry_attempts=1,
        cbr_retry_backoff_s=0.0,
        cbr_timeout_s=2.0,
        cbr_breaker_threshold=50,
    )
    client = CentralBankClient(settings, cache=StaleCache(clock=clock), today=lambda: TODAY)
    yield ToolRegistry([Req_Calculate_Deadline_For_Events(), *build_cbr_tools(settings, client)])
    await client.aclose()


async def call(registry: ToolRegistry, name: str, args: dict[str, Any]) -> dict[str, Any]:
    out = await registry.call(name, args, CTX)
    assert not out.startswith("Error:"), out
    data: dict[str, Any] = json.loads(out)
    return data


def payment(amount: str, due: str, paid: str, payer: str = "organization") -> dict[str, str]:
    return {"amount": amount, "due_date": due, "paid_date": paid, "payer": payer}


async def test_penalty_across_a_key_rate_change_and_the_30_day_boundary(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    data = await call(
        registry, PENALTY, {"payments": [payment("1000000", "2025-05-25", "2025-07-15")]}
    )
    assert data["success"] is True and "fatal_error" not in data
    row = data["results"][0]
    assert row["days"] == 51 and row["total"] == "48466.67"
    assert [(p["days"], p["key_rate"], p["fraction"]) for p in row["periods"]] == [
        (14, "21.00", "1/300"),
        (16, "20.00", "1/300"),
        (21, "20.00", "1/150"),
    ]
    assert [p["amount"] for p in row["periods"]] == ["9800.00", "10666.67", "28000.00"]
    assert "п. 3 ст. 75 НК РФ" in row["citations"]
    assert "ст. 75" in data["edition"]  # the Code in use lacks art. 75: the edition is named
    assert server.requests["KeyRateXML"] == 1


async def test_many_payments_one_fetch_and_errors_per_item(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    data = await call(
        registry,
        PENALTY,
        {
            "payments": [
                payment("100000", "2025-04-28", "2025-05-15", "individual"),
                payment("abc", "2025-04-28", "2025-05-15"),
                payment("100", "2025-05-15", "2025-04-28"),
                payment("100", "2025-13-01", "2025-12-01"),
                payment("50000", "2023-12-01", "2024-01-10", "individual"),
            ]
        },
    )
    assert [r["total"] for r in data["results"]] == ["1190.00", "1040.00"]
    assert len(data["errors"]) == 3
    assert all(e["method"] == "compute_penalty" for e in data["errors"])
    assert server.requests["KeyRateXML"] == 1  # the history is fetched once per call


async def test_cached_history_is_used_and_marked_stale_when_the_service_fails(
    registry: ToolRegistry, server: FakeCbrServer, clock: ManualClock
) -> None:
    args = {"payments": [payment("400000", "2025-10-28", "2025-11-12")]}
    fresh = await call(registry, PENALTY, args)
    assert "stale" not in fresh["results"][0]
    clock.advance(10**6)  # the cached history expires
    server.fail("http500")
    stale = await call(registry, PENALTY, args)
    assert stale["results"][0]["total"] == fresh["results"][0]["total"] == "3300.00"
    assert stale["results"][0]["stale"] is True and "key_rates_as_of" in stale


async def test_no_cache_and_no_service_is_a_fatal_error(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    server.fail("http500")
    data = await call(registry, PENALTY, {"payments": [payment("1", "2025-01-01", "2025-02-01")]})
    assert data["success"] is False and data["results"] == []
    assert "unavailable" in data["fatal_error"]


async def test_deadline_tool_per_item_errors(registry: ToolRegistry) -> None:
    data = await call(
        registry,
        DEADLINE,
        {
            "events": [
                {"event_date": "2025-02-03", "period": 5, "unit": "working_days"},
                {"event_date": "2099-02-03", "period": 5, "unit": "working_days"},
                {"event_date": "03.02.2025", "period": 5, "unit": "days"},
                {
                    "event_date": "2025-01-31",
                    "period": 1,
                    "unit": "months",
                    "basis": "п. 6 ст. 100",
                },
            ]
        },
    )
    assert [r["end_date"] for r in data["results"]] == ["2025-02-10", "2025-02-28"]
    assert data["results"][1]["citations"][0] == "п. 6 ст. 100"
    texts = [e["error_text"] for e in data["errors"]]
    assert "календарь на 2099 год неизвестен" in texts[0] and "YYYY-MM-DD" in texts[1]


async def test_bad_arguments_are_an_error_text(registry: ToolRegistry) -> None:
    out = await registry.call(DEADLINE, {"events": [{"event_date": "2025-01-01"}]}, CTX)
    assert out.startswith("Error: invalid arguments")


def test_calculators_are_exported_over_mcp(registry: ToolRegistry) -> None:
    from finagent.mcp.server import exported_tools

    names = {t.name for t in exported_tools(registry)}
    assert {DEADLINE, PENALTY} <= names


async def test_penalty_question_without_a_payer_asks_who_pays(registry: ToolRegistry) -> None:
    from finagent.answering.calc import calculate

    long = await calculate(
        "Сколько пеней на 1 000 000 руб.: срок уплаты 25.05.2025, уплачено 15.07.2025?",
        registry,
        CTX,
        TODAY,
    )
    # 50 days from Mon 26.05 (Sun 25.05 moves, п. 7 ст. 6.1): the 1/150 of days 31-50
    # applies to organizations only (п. 5.1 ст. 75)
    # the answer is a question back naming what is missing, with both sums
    assert long.mode == "clarify" and "Ответ:" not in long.markdown
    assert "Кто плательщик: организация или физическое лицо (ИП)?" in long.markdown
    assert "организация: 47 100,00 руб." in long.markdown
    assert "физическое лицо / ИП: " in long.markdown
    short = await calculate(
        "Сколько пеней на 1 000 000 руб.: срок уплаты 25.05.2025, уплачено 10.06.2025?",
        registry,
        CTX,
        TODAY,
    )
    # 16 days: 1/300 for everyone, so one answer
    assert "**Ответ:" in short.markdown and "любой плательщик" in short.markdown


async def test_the_reader_gets_russian_when_the_key_rate_is_unavailable(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    from finagent.answering.calc import calculate

    server.fail("http500")
    outcome = await calculate(
        "Сколько пеней на 100 000 руб., срок 28.04.2025, уплачено 10.06.2025, организация?",
        registry,
        CTX,
        TODAY,
    )
    assert not outcome.ok
    assert outcome.markdown.startswith("Пени рассчитать не удалось: ключевая ставка Банка России")
    assert not any("a" <= ch.lower() <= "z" for ch in outcome.markdown), outcome.markdown
    # debug holds the kind and a request id; the cause, with that id, goes to the log
    assert outcome.debug["error"]["error_kind"] == "key_rate_unavailable"
    assert set(outcome.debug["error"]) == {"error_kind", "request_id"}
