"""Upstream fault modes through the API: every question is answered in Russian, naming the
source as unavailable without upstream text, and once the circuit is open the next
question is answered without contacting the upstream at all.

Deadlines are small settings (fractions of a second), so the whole set runs in seconds.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from structlog.testing import capture_logs

from finagent.bootstrap import Deps
from finagent.server.app import create_app
from finagent.tools.base import ToolContext
from tests.fakes.cbr_soap import FakeCbrServer, running_server
from tests.fakes.faults import FAULT_MODES, FaultMode, FaultServer, fault_server
from tests.fakes.tavily import FAKE_TAVILY_KEY

TOKENS = "alice-token-0001:alice"
ALICE = {"Authorization": "Bearer alice-token-0001"}
CBR_QUESTION = "курс доллара на 01.04.2025"
NEWS_QUESTION = "какие последние новости о ключевой ставке"
# words an upstream fault page or body may carry; none of them may reach the user
UPSTREAM_WORDS = ("overloaded", "Please wait", "browser", "SSH", "garbage", "Service", "HTTP")

CBR_FAST: dict[str, Any] = {
    "cbr_enabled": True,
    "cbr_deadline_s": 0.5,
    "cbr_timeout_s": 5.0,  # the per-read timeout alone would wait far longer
    "cbr_retry_attempts": 2,
    "cbr_retry_backoff_s": 0.01,
    "cbr_breaker_threshold": 2,
    "cbr_breaker_ttl_s": 300.0,
    "answer_budget_s": 5.0,
}
TAVILY_FAST: dict[str, Any] = {
    "tavily_api_key": FAKE_TAVILY_KEY,
    "tavily_deadline_s": 0.5,
    "tavily_timeout_s": 5.0,
    "tavily_breaker_threshold": 2,
    "tavily_breaker_ttl_s": 300.0,
    "answer_budget_s": 5.0,
}


@asynccontextmanager
async def api(services: Deps) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(services.settings, services)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://finagent") as http:
            yield http


async def ask(http: httpx.AsyncClient, query: str) -> str:
    response = await http.post("/v1/ask", headers=ALICE, json={"query": query})
    assert response.status_code == 200, response.text
    answer: str = response.json()["answer"]
    return answer


def assert_source_unavailable_in_russian(answer: str, source: str) -> None:
    notice = f"Источник «{source}» сейчас не вернул данные"
    assert notice in answer
    line = next(line for line in answer.splitlines() if notice in line)
    assert not re.search("[A-Za-z]", line)  # Russian only: no upstream or tool text
    for word in UPSTREAM_WORDS:
        assert word not in answer


def failures_of(logs: list[dict[str, Any]], tool: str) -> list[str]:
    return [e["error"] for e in logs if e["event"] == "live_source_failed" and e["tool"] == tool]


async def three_questions(
    http: httpx.AsyncClient, upstream: FaultServer, query: str, source: str
) -> tuple[int, int]:
    """Two questions open the circuit (threshold 2); the third must not reach the upstream.

    Returns the upstream's connection count before and after the third question.
    """
    for _ in range(2):
        assert_source_unavailable_in_russian(await ask(http, query), source)
    before = upstream.connections
    assert_source_unavailable_in_russian(await ask(http, query), source)
    return before, upstream.connections


@pytest.mark.parametrize("mode", FAULT_MODES)
async def test_bank_of_russia_fault_modes_through_the_api(make_services, mode: FaultMode) -> None:  # type: ignore[no-untyped-def]
    with fault_server(mode, path="/DailyInfoWebServ/DailyInfo.asmx") as upstream:
        services: Deps = await make_services(api_tokens=TOKENS, cbr_url=upstream.url, **CBR_FAST)
        async with api(services) as http:
            with capture_logs() as logs:
                before, after = await three_questions(http, upstream, CBR_QUESTION, "Банк России")
    assert after == before  # the open circuit kept the client away from the upstream
    if mode != "refused":
        assert before > 0  # the first questions did reach it
    failures = failures_of(logs, "fetch_cbr_data")
    assert len(failures) == 3
    assert "repeated failures" in failures[-1]  # the breaker's refusal, logged only


@pytest.mark.parametrize("mode", ["hang", "5xx", "drip", "non_http"])
async def test_tavily_fault_modes_through_the_api(make_services, mode: FaultMode) -> None:  # type: ignore[no-untyped-def]
    with fault_server(mode, content_type="application/json") as upstream:
        services: Deps = await make_services(
            api_tokens=TOKENS, tavily_base_url=upstream.url.rstrip("/"), **TAVILY_FAST
        )
        async with api(services) as http:
            with capture_logs() as logs:
                before, after = await three_questions(
                    http, upstream, NEWS_QUESTION, "финансовые новости"
                )
    assert after == before and before > 0
    failures = failures_of(logs, "fetch_finance_news")
    assert len(failures) == 3 and "repeated failures" in failures[-1]
    assert FAKE_TAVILY_KEY not in repr(logs)


@pytest.mark.parametrize("mode", ["hang", "5xx", "drip", "garbage"])
async def test_internal_search_fault_modes_through_the_tool(make_services, mode: FaultMode) -> None:  # type: ignore[no-untyped-def]
    with fault_server(mode, content_type="application/json") as upstream:
        services: Deps = await make_services(
            doc_api_url=upstream.url.rstrip("/"),
            doc_api_deadline_s=0.5,
            doc_api_timeout_s=5.0,
            doc_api_breaker_threshold=2,
            doc_api_breaker_ttl_s=300.0,
        )
        ctx = ToolContext(user_id="alice")
        args = {"query": "НДФЛ проценты по вкладам"}
        outputs = []
        for _ in range(2):
            outputs.append(await services.registry.call("internal_knowledge_search", args, ctx))
        before = upstream.connections
        outputs.append(await services.registry.call("internal_knowledge_search", args, ctx))
    assert upstream.connections == before > 0
    assert all(out.startswith("Error: ") for out in outputs)
    assert "repeated failures" in outputs[-1]
    for out in outputs:
        assert "overloaded" not in out and "<" not in out


async def test_a_retried_bank_of_russia_call_counts_once_toward_the_breaker(make_services) -> None:  # type: ignore[no-untyped-def]
    """Three attempts on the wire, one failure for the breaker (threshold 2: still closed)."""
    server: FakeCbrServer
    for server in running_server():
        server.fail("http500")
        settings = CBR_FAST | {"cbr_retry_attempts": 3, "cbr_deadline_s": 5.0}
        services: Deps = await make_services(cbr_url=server.url, **settings)
        ctx = ToolContext(user_id="alice")
        out = await services.registry.call(
            "fetch_cbr_data", {"mode": "key_rate", "date": "2024-10-28"}, ctx
        )
        assert out.startswith("Error: ")
        assert server.state.requests["KeyRateXML"] == 3
        server.heal()
        out = await services.registry.call(
            "fetch_cbr_data", {"mode": "key_rate", "date": "2024-10-28"}, ctx
        )
        assert not out.startswith("Error: ") and "21" in out  # the circuit did not open


async def test_the_answer_budget_bounds_a_call_with_a_longer_deadline(make_services) -> None:  # type: ignore[no-untyped-def]
    with fault_server("hang", path="/DailyInfoWebServ/DailyInfo.asmx") as upstream:
        settings = CBR_FAST | {"cbr_deadline_s": 120.0, "answer_budget_s": 1.0}
        services: Deps = await make_services(api_tokens=TOKENS, cbr_url=upstream.url, **settings)
        async with api(services) as http:
            with capture_logs() as logs:
                answer = await ask(http, CBR_QUESTION)
    assert_source_unavailable_in_russian(answer, "Банк России")
    [failure] = failures_of(logs, "fetch_cbr_data")
    # the 1 s budget, not the 120 s deadline, ended the call (or refused it, when routing
    # on a busy machine had already spent the budget)
    bounded = r"did not answer within (0\.\d|1\.0) s|no time left in the answer budget"
    assert re.search(bounded, failure)
