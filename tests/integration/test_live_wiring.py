"""Live data wired into the agent: S2 rates/news branches and tool calls against loopback fakes."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Iterator
from typing import Any

import pytest
from langchain_core.messages import AIMessage
from structlog.testing import capture_logs

from finagent.graph.agent import Agent
from tests.conftest import run_finagent
from tests.fakes.cbr_soap import FakeCbrServer, running_server
from tests.fakes.llm import ScriptedChatModel, tool_call_message
from tests.fakes.tavily import FAKE_TAVILY_KEY, FakeTavily, run_fake_tavily


@pytest.fixture
def cbr() -> Iterator[FakeCbrServer]:
    yield from running_server()


@pytest.fixture
def tavily() -> Iterator[FakeTavily]:
    with run_fake_tavily() as fake:
        yield fake


def live(cbr: FakeCbrServer, tavily: FakeTavily | None = None) -> dict[str, Any]:
    values: dict[str, Any] = {
        "cbr_enabled": True,
        "cbr_url": cbr.url,
        "cbr_retry_backoff_s": 0.0,
        "cbr_timeout_s": 2.0,
    }
    if tavily is not None:
        values |= {"tavily_base_url": tavily.url, "tavily_api_key": FAKE_TAVILY_KEY}
    return values


async def test_rates_branch_puts_cbr_data_in_external_section(make_loaded, cbr):
    services = (await make_loaded(**live(cbr)))["services"]
    result = await Agent(services).run(user_id="alice", query="ключевая ставка на 28.10.2024")
    assert result.debug["fetch_cbr_data"]["args"] == {"mode": "key_rate", "date": "2024-10-28"}
    assert result.debug["fetch_cbr_data"]["ok"] is True
    assert "21" in result.answer and "[Источник: cbr.ru]" in result.answer
    assert "[1] cbr.ru" in result.answer.split("## Источники")[1]


async def test_rates_and_news_in_parallel(make_loaded, cbr, tavily):
    services = (await make_loaded(**live(cbr, tavily)))["services"]
    result = await Agent(services).run(
        user_id="alice", query="какая ключевая ставка на 28.10.2024 и какие новости по ней"
    )
    assert result.debug["decision"]["intents"] == ["rates", "news"]
    assert result.debug["fetch_cbr_data"]["ok"] and result.debug["fetch_finance_news"]["ok"]
    sources = result.answer.split("## Источники")[1]
    assert "cbr.ru" in sources and "tavily.com" in sources
    assert tavily.requests["search"] == 1
    assert FAKE_TAVILY_KEY not in result.answer


@pytest.mark.parametrize("fault", ["http500", "html", "malformed"])
async def test_failing_cbr_is_named_in_russian_without_upstream_text(make_loaded, cbr, fault):
    cbr.fail(fault)
    services = (await make_loaded(**live(cbr)))["services"]
    with capture_logs() as logs:
        result = await Agent(services).run(user_id="alice", query="курс доллара на 01.04.2025")
    assert result.debug["fetch_cbr_data"]["ok"] is False
    assert "Источник «Банк России» сейчас не вернул данные" in result.answer
    notice = next(line for line in result.answer.splitlines() if "Банк России" in line)
    assert not re.search("[A-Za-z]", notice)  # no upstream or tool text, Russian only
    assert "Error" not in json.dumps(result.debug, ensure_ascii=False)
    failed = [e for e in logs if e["event"] == "live_source_failed"]
    assert failed and failed[0]["tool"] == "fetch_cbr_data" and failed[0]["error"]


async def test_llm_calls_cbr_tool_and_cites_it(make_loaded, cbr):
    llm = ScriptedChatModel(
        [
            tool_call_message(
                "OrchestratorOutput",
                {"scenario": 2, "intents": ["kb", "rates"], "confidence": 0.9, "reason": "t"},
            ),
            tool_call_message(
                "Req_Compare_Rates_For_Dates", {"codes": ["USD", "EUR"], "dates": ["2025-04-01"]}
            ),
            AIMessage("## Краткий вывод\nКурс USD 85,4963 [6].\n\n## Подробный анализ\nСм. [6]."),
        ]
    )
    data = await make_loaded(llm, **live(cbr))
    result = await Agent(data["services"]).run(user_id="alice", query="ставка НДС и курс")
    # the rates branch's key-rate data is [5] (External Data), the tool's result [6];
    # the answer cites only [6] and shows it as [1]
    tool_output = llm.received[2][-1].content
    assert tool_output.startswith("[6] ") and "85.4963" in tool_output
    assert "Курс USD 85,4963 [1]" in result.answer and [6, 1] in result.debug["source_numbers"]
    assert "[1] cbr.ru" in result.answer.split("## Источники")[1]


def test_cli_tools_call_fetch_cbr_data(cbr, tmp_path):
    env = {
        **os.environ,
        "FINAGENT_DATA_DIR": str(tmp_path / "d"),
        "FINAGENT_CBR_URL": cbr.url,
        "FINAGENT_CBR_ENABLED": "true",
    }
    out = run_finagent(
        env,
        "tools",
        "call",
        "fetch_cbr_data",
        "--args",
        '{"mode": "key_rate", "date": "2024-10-28"}',
    )
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert "21" in json.dumps(data) and data["source"] == "cbr.ru"
