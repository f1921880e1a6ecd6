"""The calculator tools over the shipped key-rate history, extended by the real Bank of
Russia client talking to the loopback SOAP fake (which publishes the shipped history)."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Iterator
from datetime import date
from decimal import Decimal
from typing import Any

import pytest

from evals.answers.cbr_loopback import published_key_rates
from finagent.clients.cbr import CentralBankClient
from finagent.clients.stale_cache import StaleCache
from finagent.config import Settings
from finagent.legal.key_rate_data import shipped_key_rates
from finagent.tools.base import ToolContext
from finagent.tools.calc import Req_Calculate_Deadline_For_Events
from finagent.tools.cbr import build_cbr_tools
from finagent.tools.registry import ToolRegistry
from tests.fakes.cbr_soap import FakeCbrServer, ManualClock, running_server

TODAY = date(2025, 11, 20)
AS_OF = shipped_key_rates().as_of  # 27.10.2025: the days after it need the Bank of Russia
CTX = ToolContext(user_id="alice")
PENALTY = "Req_Calculate_Penalty_For_Payments"
DEADLINE = "Req_Calculate_Deadline_For_Events"


@pytest.fixture
def server() -> Iterator[FakeCbrServer]:
    for fake in running_server():
        fake.state.key_rates = published_key_rates(TODAY)
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
    # every day is in the shipped history: no call to the Bank of Russia
    assert data["key_rates"] == {
        "source": "shipped",
        "known_from": "2022-09-19",
        "known_until": AS_OF.isoformat(),
    }
    assert server.requests["KeyRateXML"] == 0


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
                payment("100", "2025-05-15", "2025-04-28"),  # paid early: no пени
                payment("100", "2025-13-01", "2025-12-01"),
                payment("50000", "2023-12-01", "2024-01-10", "individual"),
                payment("400000", "2025-10-28", "2025-11-12"),  # past the shipped as_of
            ]
        },
    )
    totals = [r["total"] for r in data["results"]]
    assert totals == ["1190.00", "0.00", "1040.00", "3300.00"]
    assert len(data["errors"]) == 2
    assert all(e["method"] == "compute_penalty" for e in data["errors"])
    assert server.requests["KeyRateXML"] == 1  # the history is fetched once per call
    assert data["key_rates"]["source"] == "cbr" and data["key_rates"]["known_until"] == "2025-11-20"


async def test_the_bank_of_russia_extends_the_shipped_history(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    # an invented decision after the shipped as_of: 15 % from Monday 03.11.2025
    new_rate = {d: Decimal("15.00") for d in server.state.key_rates if d >= date(2025, 11, 3)}
    server.state.key_rates.update(new_rate)
    data = await call(
        registry,
        PENALTY,
        {"payments": [payment("300000", "2025-10-20", "2025-11-10", "individual")]},
    )
    row = data["results"][0]
    assert [(p["date_from"], p["days"], p["key_rate"]) for p in row["periods"]] == [
        ("2025-10-21", 6, "17.00"),  # shipped rows before the reply's first row
        ("2025-10-27", 7, "16.50"),
        ("2025-11-03", 8, "15.00"),  # from the Bank of Russia only
    ]
    assert row["total"] == "3375.00"  # 300 000 / 300 × (17 % × 6 + 16.5 % × 7 + 15 % × 8)
    assert data["key_rates"]["source"] == "cbr" and "fetched_at" in data["key_rates"]
    assert server.requests["KeyRateXML"] == 1


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
    assert stale["key_rates"]["source"] == "cbr" and stale["key_rates"]["stale"] is True


async def test_days_before_the_shipped_history_are_asked_of_the_bank_of_russia(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    first = shipped_key_rates().first_day  # 19.09.2022
    # invented rows the shipped history lacks: 9 % on the working days of the week before
    server.state.key_rates.update({date(2022, 9, d): Decimal("9.00") for d in range(12, 17)})
    data = await call(
        registry,
        PENALTY,
        {"payments": [payment("30000", "2022-09-13", "2022-09-20", "individual")]},
    )
    row = data["results"][0]
    assert [(p["date_from"], p["days"], p["key_rate"]) for p in row["periods"]] == [
        ("2022-09-14", 5, "9.00"),
        (first.isoformat(), 2, "7.50"),
    ]
    assert row["total"] == "60.00"  # 30 000 / 300 × (9 % × 5 + 7.5 % × 2)
    assert data["key_rates"]["source"] == "cbr" and data["key_rates"]["known_from"] == "2022-09-12"


async def test_a_failing_service_leaves_the_shipped_history_with_the_missing_days(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    server.fail("http500")
    covered = await call(
        registry, PENALTY, {"payments": [payment("100000", "2025-04-28", "2025-05-15")]}
    )
    assert covered["results"][0]["total"] == "1190.00"
    assert server.requests["KeyRateXML"] == 0  # the shipped history covers these days
    data = await call(
        registry, PENALTY, {"payments": [payment("300000", "2025-10-20", "2025-11-10")]}
    )
    assert server.requests["KeyRateXML"] >= 1 and "fatal_error" not in data
    row = data["results"][0]
    assert "total" not in row and row["complete"] is False
    assert row["missing_rates"] == [{"date_from": "2025-10-28", "date_to": "2025-11-10"}]
    assert row["partial_total"] == "1185.00"  # 300 000 / 300 × (17 % × 6 + 16.5 % × 1)
    assert row["periods"][-1]["key_rate"] is None and row["periods"][-1]["days"] == 14
    assert data["key_rates"] == {
        "source": "shipped",
        "known_from": "2022-09-19",
        "known_until": AS_OF.isoformat(),
        "cbr": "unavailable",
    }


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


async def test_the_reader_gets_the_partial_answer_in_russian_when_rates_are_missing(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    from finagent.answering.calc import calculate

    server.fail("http500")
    outcome = await calculate(
        "Сколько пеней на 300 000 руб., срок 20.10.2025, уплачено 10.11.2025, организация?",
        registry,
        CTX,
        TODAY,
    )
    text = outcome.markdown
    assert outcome.ok and "Ответ:" not in text and "недоступна" not in text
    assert "ключевой ставки Банка России на даты с 28.10.2025 по 10.11.2025" in text
    assert "по 27.10.2025, а Банк России сейчас недоступен" in text
    assert "**1 185,00 руб.**" in text  # the days with a known rate
    assert "| 28.10.2025 – 10.11.2025 | 14 | нет данных | 1/300 | — |" in text
    assert "300 000,00 руб. × 1/300 × ключевая ставка дня / 100" in text
    assert not any("a" <= ch.lower() <= "z" for ch in text), text
    assert outcome.debug["missing_rates"] == [{"date_from": "2025-10-28", "date_to": "2025-11-10"}]


async def test_the_answer_names_the_history_it_used(
    registry: ToolRegistry, server: FakeCbrServer
) -> None:
    from finagent.answering.calc import calculate

    shipped = await calculate(
        "Сколько пеней на 100 000 руб., срок 28.04.2025, уплачено 15.05.2025, ИП?",
        registry,
        CTX,
        TODAY,
    )
    assert "**Ответ: 1 190,00 руб.**" in shipped.markdown
    assert (
        "> Ключевая ставка: встроенная история ставок Банка России по состоянию на "
        f"{AS_OF:%d.%m.%Y}." in shipped.markdown
    )
    online = await calculate(
        "Сколько пеней на 400 000 руб., срок 28.10.2025, уплачено 12.11.2025, организация?",
        registry,
        CTX,
        TODAY,
    )
    assert "**Ответ: 3 300,00 руб.**" in online.markdown
    assert "> Ключевая ставка: данные Банка России, загружены " in online.markdown
    assert " МСК." in online.markdown
