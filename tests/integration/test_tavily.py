"""TavilyClient: the real tavily-python SDK against a loopback fake of the Tavily API."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from pydantic import SecretStr
from structlog.testing import capture_logs

from finagent.clients.breaker import Breaker
from finagent.clients.stale_cache import StaleCache
from finagent.clients.tavily import TavilyClient
from finagent.clients.tavily_errors import TavilyError
from finagent.clients.tavily_results import WebResult
from finagent.config import Settings
from tests.fakes.cbr_soap import ManualClock
from tests.fakes.net import free_port
from tests.fakes.tavily import FAKE_TAVILY_KEY, FakeTavily, run_fake_tavily

TTL_S = 300.0


@pytest.fixture(scope="module")
def server() -> Iterator[FakeTavily]:
    with run_fake_tavily() as fake:
        yield fake


@pytest.fixture
def fake(server: FakeTavily) -> Iterator[FakeTavily]:
    server.reset()
    yield server
    server.release_slow()
    server.reset()


def make_settings(url: str, key: str | None = FAKE_TAVILY_KEY, **extra: Any) -> Settings:
    values: dict[str, Any] = {"tavily_timeout_s": 5.0, **extra}
    return Settings(tavily_base_url=url, tavily_api_key=SecretStr(key) if key else None, **values)


@pytest.fixture
async def client(fake: FakeTavily) -> AsyncIterator[TavilyClient]:
    c = TavilyClient(make_settings(fake.url), retry_initial_s=0.01)
    yield c
    await c.aclose()


async def test_search_maps_results_and_sends_bearer_key(
    client: TavilyClient, fake: FakeTavily
) -> None:
    found = await client.search("ключевая ставка", max_results=3)
    assert not found.stale
    results = found.results

    assert [r.url for r in results][:1] == [
        "https://www.cbr.ru/press/pr/?file=14022025_133000Key.htm"
    ]
    assert len(results) == 3
    first = results[0]
    assert first.title.startswith("Банк России сохранил ключевую ставку")
    assert first.published_at == "2025-02-14T10:30:00+00:00"
    assert first.score == pytest.approx(0.91)
    assert "  " not in first.snippet and first.snippet.startswith("Совет директоров")
    assert fake.auth_headers == [f"Bearer {FAKE_TAVILY_KEY}"]
    body = fake.bodies[0]
    assert body["query"] == "ключевая ставка"
    assert body["topic"] == "finance"
    assert body["search_depth"] == "advanced"
    assert body["max_results"] == 3
    assert "time_range" not in body  # None parameters are not sent


async def test_search_passes_optional_filters(client: TavilyClient, fake: FakeTavily) -> None:
    found = await client.search("НДФЛ", topic="news", time_range="week", include_domains=["rbc.ru"])
    assert [r.url for r in found.results] == [
        "https://www.rbc.ru/finances/11/03/2025/67d0a1b29a7947f1c2e3d4f5"
    ]
    assert fake.bodies[0]["time_range"] == "week"
    assert fake.bodies[0]["include_domains"] == ["rbc.ru"]


async def test_result_without_date_has_none(client: TavilyClient) -> None:
    results = (await client.search("3-НДФЛ", max_results=10)).results
    assert results[-1].url.startswith("https://www.nalog.gov.ru/")
    assert results[-1].published_at is None


async def test_extract_returns_pages_and_failures(client: TavilyClient, fake: FakeTavily) -> None:
    result = await client.extract(
        ["https://www.cbr.ru/hd_base/KeyRate/", "https://example.org/broken-page"],
        extract_depth="advanced",
    )
    assert [p.url for p in result.pages] == ["https://www.cbr.ru/hd_base/KeyRate/"]
    assert "Ключевая ставка" in result.pages[0].content
    assert [(f.url, f.error) for f in result.failed] == [
        ("https://example.org/broken-page", "Failed to fetch url")
    ]
    assert fake.bodies[0]["extract_depth"] == "advanced"
    assert fake.requests["extract"] == 1


@pytest.mark.parametrize(
    ("status", "kind", "advice"),
    [
        (400, "bad_request", "rephrase the query"),
        (401, "auth", "check FINAGENT_TAVILY_API_KEY"),
        (403, "forbidden", "check the plan"),
        (429, "rate_limit", "retry in a minute"),
        (432, "forbidden", "plan or usage limit"),
        (433, "forbidden", "plan or usage limit"),
    ],
)
async def test_client_errors_are_typed_with_advice_and_not_retried(
    client: TavilyClient, fake: FakeTavily, status: int, kind: str, advice: str
) -> None:
    fake.error_status = status
    with pytest.raises(TavilyError) as info:
        await client.search("ключевая ставка")
    assert info.value.kind == kind
    assert advice in str(info.value)
    assert fake.requests["search"] == 1


async def test_server_errors_are_retried_then_succeed(
    client: TavilyClient, fake: FakeTavily
) -> None:
    fake.transient_failures = 2
    found = await client.search("курс рубля")
    assert found.results and not found.stale
    assert fake.requests["search"] == 3


async def test_persistent_server_error_gives_unavailable(
    client: TavilyClient, fake: FakeTavily
) -> None:
    fake.transient_failures = 10
    fake.transient_status = 503
    with pytest.raises(TavilyError) as info:
        await client.search("курс рубля")
    assert info.value.kind == "unavailable"
    assert "HTTP 503" in str(info.value) and "try again later" in str(info.value)
    assert fake.requests["search"] == 3


async def test_timeout_is_reported_and_not_retried(fake: FakeTavily) -> None:
    fake.slow = True
    settings = make_settings(fake.url).model_copy(update={"tavily_timeout_s": 0.3})
    client = TavilyClient(settings, retry_initial_s=0.01)
    try:
        with pytest.raises(TavilyError) as info:
            await client.search("ставка")
    finally:
        fake.release_slow()
        await client.aclose()
    assert info.value.kind == "timeout"
    assert "did not answer within 0.3 s" in str(info.value)
    assert fake.requests["search"] == 1


async def test_unreachable_service_is_retried_then_unavailable() -> None:
    client = TavilyClient(
        make_settings(f"http://127.0.0.1:{free_port()}"), retry_attempts=2, retry_initial_s=0.01
    )
    with capture_logs() as logs, pytest.raises(TavilyError) as info:
        await client.search("ставка")
    await client.aclose()
    assert info.value.kind == "unavailable"
    assert "cannot reach Tavily" in str(info.value)
    calls = [e for e in logs if e["event"] == "external_call"]
    assert [e["attempt"] for e in calls] == [1, 2]


async def test_missing_key_means_not_configured(fake: FakeTavily) -> None:
    client = TavilyClient(make_settings(fake.url, key=None))
    with pytest.raises(TavilyError) as info:
        await client.search("ставка")
    assert info.value.kind == "not_configured"
    assert "FINAGENT_TAVILY_API_KEY" in str(info.value)
    assert fake.requests["search"] == 0


async def test_search_cache_per_user_and_parameters(client: TavilyClient, fake: FakeTavily) -> None:
    first = await client.search("ключевая ставка", user_id="alice")
    again = await client.search("ключевая ставка", user_id="alice")
    assert again.results == first.results and again.fetched_at == first.fetched_at
    assert not again.stale
    assert fake.requests["search"] == 1

    await client.search("ключевая ставка", user_id="bob")
    assert fake.requests["search"] == 2
    await client.search("ключевая ставка", user_id="alice", max_results=2)
    assert fake.requests["search"] == 3


async def test_cache_can_be_disabled(fake: FakeTavily) -> None:
    client = TavilyClient(make_settings(fake.url, tavily_cache_ttl_s=0))
    await client.search("ставка", user_id="alice")
    await client.search("ставка", user_id="alice")
    await client.aclose()
    assert fake.requests["search"] == 2


async def test_errors_are_not_cached(client: TavilyClient, fake: FakeTavily) -> None:
    fake.error_status = 429
    with pytest.raises(TavilyError):
        await client.search("ставка", user_id="alice")
    fake.error_status = None
    assert (await client.search("ставка", user_id="alice")).results
    assert fake.requests["search"] == 2


async def test_circuit_opens_after_repeated_failures(fake: FakeTavily) -> None:
    client = TavilyClient(
        make_settings(fake.url),
        retry_attempts=1,
        breaker=Breaker("tavily-test", threshold=2, ttl_s=60),
    )
    fake.transient_failures = 100
    for _ in range(2):
        with pytest.raises(TavilyError):
            await client.search("ставка")
    with pytest.raises(TavilyError) as info:
        await client.search("ставка")
    await client.aclose()
    assert info.value.kind == "circuit_open"
    assert "temporarily unavailable" in str(info.value)
    assert fake.requests["search"] == 2


async def test_external_call_events_and_no_key_in_logs(
    client: TavilyClient, fake: FakeTavily
) -> None:
    with capture_logs() as logs:
        await client.search("ставка")
        fake.error_status = 401
        with pytest.raises(TavilyError) as info:
            await client.search("другой запрос")
    calls = [e for e in logs if e["event"] == "external_call"]
    assert [(e["service"], e["operation"], e["outcome"]) for e in calls] == [
        ("tavily", "search", "ok"),
        ("tavily", "search", "auth"),
    ]
    assert all(isinstance(e["duration_ms"], float) for e in calls)
    assert FAKE_TAVILY_KEY not in repr(logs)
    assert FAKE_TAVILY_KEY not in str(info.value)
    assert FAKE_TAVILY_KEY not in repr(info.value.__dict__)


# --- stale-cache fallback -----------------------------------------------------------------


@pytest.fixture
def clock() -> ManualClock:
    return ManualClock()


def stale_client(url: str, clock: ManualClock, **kwargs: Any) -> TavilyClient:
    """A client whose cache runs on ``clock`` (TTL ``TTL_S``)."""
    settings = make_settings(url, tavily_cache_ttl_s=TTL_S)
    return TavilyClient(settings, retry_initial_s=0.01, cache=StaleCache(clock=clock), **kwargs)


async def test_fresh_cache_within_ttl_needs_no_request(
    fake: FakeTavily, clock: ManualClock
) -> None:
    client = stale_client(fake.url, clock)
    first = await client.search("ключевая ставка", user_id="alice")
    clock.advance(TTL_S - 1)
    fake.error_status = 503  # would fail if a request were sent
    again = await client.search("ключевая ставка", user_id="alice")
    await client.aclose()
    assert not again.stale and again.results == first.results
    assert fake.requests["search"] == 1


@pytest.mark.parametrize("failure", ["http_503", "timeout"])
async def test_expired_answer_is_served_stale_when_tavily_fails(
    fake: FakeTavily, clock: ManualClock, failure: str
) -> None:
    settings = make_settings(fake.url, tavily_cache_ttl_s=TTL_S, tavily_timeout_s=0.3)
    client = TavilyClient(settings, retry_initial_s=0.01, cache=StaleCache(clock=clock))
    first = await client.search("ключевая ставка", user_id="alice")
    clock.advance(TTL_S + 1)
    if failure == "http_503":
        fake.error_status = 503
    else:
        fake.slow = True
    try:
        with capture_logs() as logs:
            stale = await client.search("ключевая ставка", user_id="alice")
    finally:
        fake.release_slow()
        await client.aclose()

    assert stale.stale is True
    assert stale.results == first.results and stale.results
    assert stale.fetched_at == first.fetched_at
    assert fake.requests["search"] > 1  # the live service was tried first
    (served,) = [e for e in logs if e["event"] == "stale_cache_served"]
    assert served["service"] == "tavily"
    assert served["error_kind"] == ("unavailable" if failure == "http_503" else "timeout")
    assert "ключевая ставка" not in repr(logs) and "alice" not in repr(logs)


async def test_stale_answer_when_tavily_is_unreachable(clock: ManualClock) -> None:
    with run_fake_tavily() as own:
        client = stale_client(own.url, clock, retry_attempts=2)
        first = await client.search("курс рубля")
    clock.advance(TTL_S + 1)  # the fake server is stopped: connection refused
    stale = await client.search("курс рубля")
    await client.aclose()
    assert stale.stale and stale.results == first.results


async def test_stale_answer_while_circuit_is_open(fake: FakeTavily, clock: ManualClock) -> None:
    breaker = Breaker("tavily-stale-test", threshold=1, ttl_s=60)
    client = stale_client(fake.url, clock, retry_attempts=1, breaker=breaker)
    first = await client.search("ставка")
    clock.advance(TTL_S + 1)
    fake.error_status = 503
    assert (await client.search("ставка")).stale  # this failure opens the circuit
    assert await breaker.state() == "opened"
    requests_before = fake.requests["search"]
    stale = await client.search("ставка")
    await client.aclose()
    assert stale.stale and stale.results == first.results
    assert fake.requests["search"] == requests_before  # refused without a request


async def test_no_stale_answer_without_a_cached_copy(fake: FakeTavily, clock: ManualClock) -> None:
    client = stale_client(fake.url, clock)
    await client.search("ставка", user_id="alice")
    clock.advance(TTL_S + 1)
    fake.error_status = 503
    for call in (
        client.search("другой запрос", user_id="alice"),  # never fetched
        client.search("ставка", user_id="bob"),  # another user's copy is not shared
        client.search("ставка", user_id="alice", max_results=2),  # other parameters
    ):
        with pytest.raises(TavilyError) as info:
            await call
        assert info.value.kind == "unavailable"
    await client.aclose()


@pytest.mark.parametrize(
    ("status", "kind"), [(401, "auth"), (429, "rate_limit"), (400, "bad_request")]
)
async def test_client_errors_are_not_hidden_by_stale_cache(
    fake: FakeTavily, clock: ManualClock, status: int, kind: str
) -> None:
    client = stale_client(fake.url, clock)
    await client.search("ставка")
    clock.advance(TTL_S + 1)
    fake.error_status = status
    with pytest.raises(TavilyError) as info:
        await client.search("ставка")
    await client.aclose()
    assert info.value.kind == kind


async def test_recovery_replaces_the_stale_copy(fake: FakeTavily, clock: ManualClock) -> None:
    client = stale_client(fake.url, clock)
    first = await client.search("ставка")
    clock.advance(TTL_S + 1)
    fake.error_status = 503
    assert (await client.search("ставка")).stale
    fake.error_status = None
    fresh = await client.search("ставка")
    await client.aclose()
    assert not fresh.stale and fresh.fetched_at > first.fetched_at


async def test_stale_cache_is_bounded(fake: FakeTavily, clock: ManualClock) -> None:
    cache: StaleCache[tuple[Any, ...], list[WebResult]] = StaleCache(maxsize=2, clock=clock)
    client = TavilyClient(
        make_settings(fake.url, tavily_cache_ttl_s=TTL_S), retry_initial_s=0.01, cache=cache
    )
    for query in ("ставка", "курс рубля", "НДФЛ"):
        await client.search(query)
    assert len(cache) == 2
    clock.advance(TTL_S + 1)
    fake.error_status = 503
    assert (await client.search("НДФЛ")).stale
    with pytest.raises(TavilyError):  # the oldest entry was evicted
        await client.search("ставка")
    await client.aclose()


async def test_disabled_cache_means_no_stale_fallback(fake: FakeTavily) -> None:
    client = TavilyClient(make_settings(fake.url, tavily_cache_ttl_s=0), retry_initial_s=0.01)
    await client.search("ставка")
    fake.error_status = 503
    with pytest.raises(TavilyError) as info:
        await client.search("ставка")
    await client.aclose()
    assert info.value.kind == "unavailable"


async def test_a_retried_call_counts_once_toward_the_breaker(fake: FakeTavily) -> None:
    breaker = Breaker("tavily-once", threshold=2, ttl_s=60)
    client = TavilyClient(
        make_settings(fake.url), retry_attempts=3, retry_initial_s=0.01, breaker=breaker
    )
    fake.transient_failures = 100
    with pytest.raises(TavilyError):
        await client.search("ставка")
    await client.aclose()
    assert fake.requests["search"] == 3  # three attempts on the wire ...
    assert await breaker.failures() == 1  # ... one failure for the breaker
    assert await breaker.state() == "closed"
