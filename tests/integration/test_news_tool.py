"""fetch_finance_news: tool -> TavilyClient -> real SDK -> loopback fake Tavily."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from datetime import UTC, datetime

import pytest
from pydantic import SecretStr
from structlog.testing import capture_logs

from finagent.clients.stale_cache import StaleCache
from finagent.clients.tavily import TavilyClient
from finagent.config import Settings
from finagent.tools.base import ToolContext
from finagent.tools.news import FetchFinanceNews, build_news_tools
from finagent.tools.web import WebSearchTool
from tests.fakes.cbr_soap import ManualClock
from tests.fakes.tavily import FAKE_TAVILY_KEY, NO_RESULTS_QUERY, FakeTavily, run_fake_tavily

ALICE = ToolContext(user_id="alice")
BOB = ToolContext(user_id="bob")
STALE_NOTICE = re.compile(
    r"ВНИМАНИЕ: данные из кэша от (\d{2}\.\d{2}\.\d{4} \d{2}:\d{2}) UTC, "
    r"сервис недоступен \(Tavily\); результаты могут быть неактуальны — "
    r"сообщите об этом пользователю\.\n"
)


@pytest.fixture(scope="module")
def server() -> Iterator[FakeTavily]:
    with run_fake_tavily() as fake:
        yield fake


@pytest.fixture
def fake(server: FakeTavily) -> Iterator[FakeTavily]:
    server.reset()
    yield server
    server.reset()


def make_settings(url: str, key: str | None = FAKE_TAVILY_KEY) -> Settings:
    return Settings(
        tavily_base_url=url, tavily_api_key=SecretStr(key) if key else None, tavily_timeout_s=5.0
    )


@pytest.fixture
async def tool(fake: FakeTavily) -> AsyncIterator[FetchFinanceNews]:
    client = TavilyClient(make_settings(fake.url), retry_initial_s=0.01)
    yield FetchFinanceNews(client)
    await client.aclose()


async def test_news_are_a_markdown_list_with_sources(
    tool: FetchFinanceNews, fake: FakeTavily
) -> None:
    out = await tool.invoke({"query": "ключевая ставка", "max_results": 3}, ALICE)

    items = re.split(r"\n(?=\d+\. )", out)
    assert len(items) == 3
    first = items[0].splitlines()
    assert first[0] == "1. **Банк России сохранил ключевую ставку на уровне 21%** (2025-02-14)"
    assert first[1] == "   URL: https://www.cbr.ru/press/pr/?file=14022025_133000Key.htm"
    assert first[-1] == "   [Источник: cbr.ru]"
    snippet = first[2].strip()
    assert snippet.endswith("…") and len(snippet) <= 301
    assert "[Источник: rbc.ru]" in items[1]
    assert "[Источник: interfax.ru]" in items[2]
    assert fake.bodies[0]["max_results"] == 3
    assert fake.bodies[0]["search_depth"] == "advanced"


async def test_item_without_date_has_no_date(tool: FetchFinanceNews) -> None:
    out = await tool.invoke({"query": "3-НДФЛ", "max_results": 10}, ALICE)
    last = out.split("\n4. ")[1].splitlines()[0]
    assert last == "**ФНС напомнила о сроках подачи декларации 3-НДФЛ**"
    assert "[Источник: nalog.gov.ru]" in out


async def test_basic_depth_is_passed(tool: FetchFinanceNews, fake: FakeTavily) -> None:
    await tool.invoke({"query": "курс рубля", "search_depth": "basic"}, ALICE)
    assert fake.bodies[0]["search_depth"] == "basic"


async def test_no_results_is_not_an_error(tool: FetchFinanceNews) -> None:
    out = await tool.invoke({"query": f"{NO_RESULTS_QUERY} налог"}, ALICE)
    assert out.startswith("No news found")
    assert "broader" in out


@pytest.mark.parametrize(
    ("status", "advice"),
    [
        (400, "rephrase the query"),
        (401, "invalid Tavily API key (401): check FINAGENT_TAVILY_API_KEY"),
        (429, "rate limit reached (429): retry in a minute"),
        (432, "check the plan and limits"),
        (433, "check the plan and limits"),
        (500, "Tavily is unavailable (HTTP 500); try again later"),
    ],
)
async def test_errors_become_error_text_with_advice(
    tool: FetchFinanceNews, fake: FakeTavily, status: int, advice: str
) -> None:
    fake.error_status = status
    out = await tool.invoke({"query": "ключевая ставка"}, ALICE)
    assert out.startswith("Error: finance news search failed: ")
    assert advice in out


async def test_transient_500_is_retried_transparently(
    tool: FetchFinanceNews, fake: FakeTavily
) -> None:
    fake.transient_failures = 1
    out = await tool.invoke({"query": "ключевая ставка"}, ALICE)
    assert out.startswith("1. **")
    assert fake.requests["search"] == 2


async def test_not_configured(fake: FakeTavily) -> None:
    (tool,) = build_news_tools(make_settings(fake.url, key=None))
    out = await tool.invoke({"query": "ключевая ставка"}, ALICE)
    assert out.startswith("Error: ")
    assert "not configured" in out and "FINAGENT_TAVILY_API_KEY" in out
    assert fake.requests["search"] == 0


@pytest.mark.parametrize(
    "args",
    [{"query": "ставка", "max_results": 11}, {"query": "ставка", "search_depth": "deep"}, {}],
)
async def test_invalid_arguments(tool: FetchFinanceNews, fake: FakeTavily, args: dict) -> None:
    out = await tool.invoke(args, ALICE)
    assert out.startswith("Error: invalid arguments")
    assert fake.requests["search"] == 0


async def test_cache_is_per_user(tool: FetchFinanceNews, fake: FakeTavily) -> None:
    first = await tool.invoke({"query": "ключевая ставка"}, ALICE)
    second = await tool.invoke({"query": "ключевая ставка"}, ALICE)
    assert second == first
    assert fake.requests["search"] == 1
    await tool.invoke({"query": "ключевая ставка"}, BOB)
    assert fake.requests["search"] == 2


async def test_api_key_never_in_output_or_logs(tool: FetchFinanceNews, fake: FakeTavily) -> None:
    with capture_logs() as logs:
        ok = await tool.invoke({"query": "ключевая ставка"}, ALICE)
        fake.error_status = 401
        failed = await tool.invoke({"query": "другая ставка"}, ALICE)
    assert failed.startswith("Error:")
    assert FAKE_TAVILY_KEY not in ok + failed
    assert FAKE_TAVILY_KEY not in repr(logs)
    events = [e["event"] for e in logs]
    assert events.count("external_call") == 2 and events.count("tool_call") == 2


def test_factory_and_schema(fake: FakeTavily) -> None:
    (tool,) = build_news_tools(make_settings(fake.url))
    schema = tool.openai_schema()["function"]
    assert schema["name"] == "fetch_finance_news"
    props = schema["parameters"]["properties"]
    assert set(props) == {"query", "max_results", "search_depth"}
    assert props["search_depth"]["enum"] == ["basic", "advanced"]
    assert "news" in schema["description"]


# --- stale-cache fallback -----------------------------------------------------------------


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


@pytest.fixture
async def cached(fake: FakeTavily, clock: ManualClock) -> AsyncIterator[TavilyClient]:
    """A client whose cache (default TTL) runs on the manual clock."""
    client = TavilyClient(
        make_settings(fake.url), retry_initial_s=0.01, cache=StaleCache(clock=clock)
    )
    yield client
    await client.aclose()


def expire(clock: ManualClock) -> None:
    clock.advance(Settings().tavily_cache_ttl_s + 1)


async def test_stale_news_are_marked_in_russian(
    cached: TavilyClient, fake: FakeTavily, clock: ManualClock
) -> None:
    tool = FetchFinanceNews(cached)
    before = datetime.now(UTC).replace(second=0, microsecond=0)
    fresh = await tool.invoke({"query": "ключевая ставка"}, ALICE)
    assert not STALE_NOTICE.match(fresh)
    expire(clock)
    fake.error_status = 503
    with capture_logs() as logs:
        stale = await tool.invoke({"query": "ключевая ставка"}, ALICE)

    notice = STALE_NOTICE.match(stale)
    assert notice, stale
    shown = datetime.strptime(notice[1], "%d.%m.%Y %H:%M").replace(tzinfo=UTC)
    assert before <= shown <= datetime.now(UTC)  # the time of the cached answer
    assert stale[notice.end() :] == fresh  # the same news under the warning
    assert fake.requests["search"] == 4  # 1 fresh + 3 failed attempts
    assert FAKE_TAVILY_KEY not in stale + repr(logs)
    assert [e["outcome"] for e in logs if e["event"] == "tool_call"] == ["ok"]


async def test_no_cached_news_means_the_error(
    cached: TavilyClient, fake: FakeTavily, clock: ManualClock
) -> None:
    tool = FetchFinanceNews(cached)
    await tool.invoke({"query": "ключевая ставка"}, ALICE)
    expire(clock)
    fake.error_status = 503
    for query, ctx in (("курс рубля", ALICE), ("ключевая ставка", BOB)):
        out = await tool.invoke({"query": query}, ctx)
        assert out == (
            "Error: finance news search failed: Tavily is unavailable (HTTP 503); try again later"
        )


async def test_web_search_marks_stale_results(
    cached: TavilyClient, fake: FakeTavily, clock: ManualClock
) -> None:
    tool = WebSearchTool(cached)
    args = {"reasoning": "свежие данные", "query": "ключевая ставка"}
    fresh = await tool.invoke(args, ToolContext(user_id="alice"))
    expire(clock)
    fake.error_status = 502
    stale = await tool.invoke(args, ToolContext(user_id="alice"))
    notice = STALE_NOTICE.match(stale)
    assert notice and stale[notice.end() :] == fresh
    assert fresh.startswith("Результаты поиска «ключевая ставка»:\n\n[1] ")
