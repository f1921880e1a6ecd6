"""Internal search: SearchClient and internal_knowledge_search against a loopback fake API."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Iterator
from typing import Any

import httpx
import pytest
from pydantic import SecretStr
from structlog.testing import capture_logs

from finagent.clients.breaker import Breaker
from finagent.clients.internal_search import SearchClient
from finagent.clients.internal_search_models import InternalSearchError
from finagent.clients.internal_search_parse import TRUNCATION_MARKER
from finagent.config import Settings
from finagent.observability import redact
from finagent.tools.base import ToolContext
from finagent.tools.internal_search import InternalKnowledgeSearch, build_internal_search_tools
from tests.fakes.internal_search import FakeInternalSearch, run_fake_internal_search
from tests.fakes.net import free_port

CTX = ToolContext(user_id="alice")
TOKEN = "isrch-FAKE-7c2e-SECRET-token-0001"
WRONG_TOKEN = "isrch-FAKE-0000-WRONG-token-9999"
BLOCK = re.compile(
    r"^## Document: (?P<title>.+) \(ID: (?P<id>[\w-]+)\)\n"
    r"Source: (?P<url>\S+)\n"
    r"Content:\n(?P<text>.+)$",
    re.S,
)


@pytest.fixture(scope="module")
def server() -> Iterator[FakeInternalSearch]:
    with run_fake_internal_search() as fake:
        yield fake


@pytest.fixture
def fake(server: FakeInternalSearch) -> Iterator[FakeInternalSearch]:
    server.reset()
    yield server
    server.reset()


def make_settings(fake: FakeInternalSearch, **extra: Any) -> Settings:
    values: dict[str, Any] = {
        "doc_api_url": fake.doc_api_url,
        "internal_gateway_api_url": fake.gateway_url,
        "doc_api_timeout_s": 5.0,
        "doc_api_page_size": 2,
    }
    values.update(extra)
    return Settings(**values)


@pytest.fixture
async def client(fake: FakeInternalSearch) -> AsyncIterator[SearchClient]:
    c = SearchClient(make_settings(fake), retry_initial_s=0.01)
    yield c
    await c.aclose()


async def test_pages_until_limit_and_skips_broken_document(
    client: SearchClient, fake: FakeInternalSearch
) -> None:
    with capture_logs() as logs:
        docs = await client.fetch_search_pages_and_docs("налог", limit=5)

    assert [d.id for d in docs] == ["doc-101", "doc-102", "doc-103", "doc-105", "doc-106"]
    assert [p["page"] for p in fake.search_params] == ["1", "2", "3"]
    assert all(p["page_size"] == "2" and p["q"] == "налог" for p in fake.search_params)
    assert fake.requests["json:doc-104"] == 3  # a 500 is retried, then the document skipped
    skipped = [e for e in logs if e["event"] == "internal_document_skipped"]
    assert [(e["doc_id"], e["status"]) for e in skipped] == [("doc-104", 500)]


async def test_stops_when_limit_is_reached(client: SearchClient, fake: FakeInternalSearch) -> None:
    docs = await client.fetch_search_pages_and_docs("налог", limit=1)
    assert [d.id for d in docs] == ["doc-101"]
    assert fake.requests["search"] == 1
    fetched = [k for k in fake.requests if k.startswith(("json:", "xml:"))]
    assert fetched == ["json:doc-101"]


async def test_stops_when_pages_run_out(client: SearchClient, fake: FakeInternalSearch) -> None:
    docs = await client.fetch_search_pages_and_docs("налог", limit=20)
    assert len(docs) == 6  # 7 hits, one broken
    assert fake.requests["search"] == 4  # pages 1-4 of 2 items: page 4 reports pages=4


async def test_max_pages_bounds_the_paging(fake: FakeInternalSearch) -> None:
    client = SearchClient(make_settings(fake, doc_api_max_pages=1), retry_initial_s=0.01)
    docs = await client.fetch_search_pages_and_docs("налог", limit=5)
    await client.aclose()
    assert [d.id for d in docs] == ["doc-101", "doc-102"]
    assert fake.requests["search"] == 1


async def test_xml_divisions_come_from_gateway_with_xml_title(
    client: SearchClient, fake: FakeInternalSearch
) -> None:
    docs = {d.id: d for d in await client.fetch_search_pages_and_docs("налог", limit=3)}

    letter = docs["doc-102"]
    assert letter.title == "Письмо Минфина России от 10.03.2025 № 03-04-05/12345"
    assert letter.text == "Налог на доходы по вкладам уплачивается на основании уведомления."
    assert letter.url == "https://docs.example.corp/letters/doc-102"
    assert fake.requests["xml:doc-102"] == 1 and fake.requests["json:doc-102"] == 0

    cdata = docs["doc-103"]  # division 13, HTML inside CDATA
    assert cdata.title == "Письмо ФНС России от 01.02.2025 № БС-4-11/1234@"
    assert cdata.text == "Налоговые органы не вправе требовать «лишние» документы."

    json_doc = docs["doc-101"]
    assert fake.requests["json:doc-101"] == 1 and fake.requests["xml:doc-101"] == 0
    assert json_doc.title == "НДФЛ: ставки в 2025 году"
    assert json_doc.text == (
        "Ставки НДФЛ\nСтавка налога — 13% для доходов до 2,4 млн руб.\nСвыше — 15%."
    )
    assert "alert" not in json_doc.text  # script content dropped


async def test_nested_xml_body_is_flattened(client: SearchClient) -> None:
    docs = await client.fetch_search_pages_and_docs("имущество", limit=3)
    assert [(d.id, d.title) for d in docs] == [
        ("doc-107", "Разъяснение ФНС по налогу на имущество")
    ]
    assert docs[0].text == "Налог на имущество физических лиц\nуплачивается до 1 декабря."


async def test_long_document_is_truncated_with_marker(client: SearchClient) -> None:
    docs = await client.fetch_search_pages_and_docs("владение", limit=3)
    (doc,) = docs
    assert doc.id == "doc-105" and doc.truncated
    assert doc.text.endswith("\n" + TRUNCATION_MARKER)
    body = doc.text.removesuffix("\n" + TRUNCATION_MARKER)
    assert 3900 < len(body) <= 4000
    assert "<p>" not in body and "&laquo;" not in body and "«без перерыва»" in body


async def test_hostile_xml_is_refused_and_skipped(client: SearchClient) -> None:
    with capture_logs() as logs:
        docs = await client.fetch_search_pages_and_docs("опасный", limit=3)
    assert docs == []
    (skipped,) = [e for e in logs if e["event"] == "internal_document_skipped"]
    assert skipped["doc_id"] == "doc-666"
    assert skipped["error_type"] == "EntitiesForbidden"


async def test_pub_alias_filter_is_sent(client: SearchClient, fake: FakeInternalSearch) -> None:
    docs = await client.fetch_search_pages_and_docs("налог", limit=5, pub_alias="letters")
    assert {d.pub_alias for d in docs} == {"letters"}
    assert [d.id for d in docs] == ["doc-102", "doc-103", "doc-107"]
    assert fake.search_params[0]["pub_alias"] == "letters"


async def test_search_5xx_is_retried(client: SearchClient, fake: FakeInternalSearch) -> None:
    fake.search_failures = 2
    docs = await client.fetch_search_pages_and_docs("налог", limit=1)
    assert [d.id for d in docs] == ["doc-101"]
    assert fake.requests["search"] == 3


async def test_search_down_is_a_clear_error(client: SearchClient, fake: FakeInternalSearch) -> None:
    fake.search_failures = 10
    with pytest.raises(InternalSearchError) as info:
        await client.fetch_search_pages_and_docs("налог", limit=1)
    assert "HTTP 503" in str(info.value) and "try again later" in str(info.value)
    assert fake.requests["search"] == 3


async def test_circuit_opens_when_search_keeps_failing(fake: FakeInternalSearch) -> None:
    breaker = Breaker("internal-search-test", threshold=1, ttl_s=60)
    client = SearchClient(make_settings(fake), retry_attempts=1, breaker=breaker)
    fake.search_failures = 10
    with pytest.raises(InternalSearchError):
        await client.fetch_search_pages_and_docs("налог")
    with pytest.raises(InternalSearchError) as info:
        await client.fetch_search_pages_and_docs("налог")
    await client.aclose()
    assert "temporarily unavailable" in str(info.value)
    assert fake.requests["search"] == 1


async def test_bad_request_is_not_retried(client: SearchClient, fake: FakeInternalSearch) -> None:
    with pytest.raises(InternalSearchError) as info:
        await client.fetch_search_pages_and_docs("налог " * 100, limit=1)
    assert str(info.value) == "internal search failed (HTTP 400); rephrase the query"
    assert fake.requests["search"] == 1


async def test_without_gateway_xml_documents_are_skipped(fake: FakeInternalSearch) -> None:
    client = SearchClient(make_settings(fake, internal_gateway_api_url=None), retry_initial_s=0.01)
    docs = await client.fetch_search_pages_and_docs("налог", limit=3)
    await client.aclose()
    assert [d.id for d in docs] == ["doc-101", "doc-105", "doc-106"]
    assert not any(k.startswith("xml:") for k in fake.requests)


async def test_injected_http_client_is_used(fake: FakeInternalSearch) -> None:
    seen: list[str] = []

    async def record(request: httpx.Request) -> None:
        seen.append(request.url.path)

    async with httpx.AsyncClient(event_hooks={"request": [record]}) as http:
        client = SearchClient(make_settings(fake), http)
        docs = await client.fetch_search_pages_and_docs("налог", limit=1)
        await client.aclose()  # does not close an injected client
        assert not http.is_closed
    assert [d.id for d in docs] == ["doc-101"]
    assert seen == ["/api/search", "/api/documents/doc-101"]


async def test_unreachable_service_is_a_clear_error(fake: FakeInternalSearch) -> None:
    settings = make_settings(fake, doc_api_url=f"http://127.0.0.1:{free_port()}/api")
    client = SearchClient(settings, retry_attempts=2, retry_initial_s=0.01)
    with pytest.raises(InternalSearchError) as info:
        await client.fetch_search_pages_and_docs("налог")
    await client.aclose()
    assert "cannot reach internal search" in str(info.value)
    assert "FINAGENT_DOC_API_URL" in str(info.value)


# --- the tool ---------------------------------------------------------------------------


@pytest.fixture
def tool(client: SearchClient) -> InternalKnowledgeSearch:
    (tool,) = build_internal_search_tools(Settings(doc_api_url=None), client)
    assert isinstance(tool, InternalKnowledgeSearch)
    return tool


async def test_tool_output_blocks(tool: InternalKnowledgeSearch) -> None:
    with capture_logs() as logs:
        out = await tool.invoke({"query": "налог", "limit": 3}, CTX)

    blocks = out.split("\n---\n")
    assert len(blocks) == 3
    parsed = [BLOCK.match(b) for b in blocks]
    assert all(parsed), out
    assert [(m["id"], m["title"]) for m in parsed if m] == [
        ("doc-101", "НДФЛ: ставки в 2025 году"),
        ("doc-102", "Письмо Минфина России от 10.03.2025 № 03-04-05/12345"),
        ("doc-103", "Письмо ФНС России от 01.02.2025 № БС-4-11/1234@"),
    ]
    assert parsed[0] and parsed[0]["url"] == "https://docs.example.corp/nk/doc-101"
    assert parsed[0] and parsed[0]["text"].startswith("Ставки НДФЛ\nСтавка налога — 13%")
    calls = [e for e in logs if e["event"] == "external_call"]
    assert {e["operation"] for e in calls} == {"search", "document_json", "document_xml"}
    assert all(e["service"] == "internal_search" and e["outcome"] == "ok" for e in calls)


async def test_tool_keeps_truncation_marker(
    tool: InternalKnowledgeSearch, fake: FakeInternalSearch
) -> None:
    out = await tool.invoke({"query": "владение", "limit": 1}, CTX)
    assert out.startswith("## Document: Длинная практика по налогам (ID: doc-105)")
    assert out.endswith(TRUNCATION_MARKER)


def test_factory_builds_a_client_from_settings(fake: FakeInternalSearch) -> None:
    (tool,) = build_internal_search_tools(make_settings(fake))
    schema = tool.openai_schema()["function"]
    assert schema["name"] == "internal_knowledge_search"
    assert set(schema["parameters"]["properties"]) == {"query", "limit", "pub_alias"}


async def test_tool_not_configured() -> None:
    (tool,) = build_internal_search_tools(Settings(doc_api_url=None))
    out = await tool.invoke({"query": "налог"}, CTX)
    assert out == "Error: internal search is not configured (set FINAGENT_DOC_API_URL)"


async def test_tool_no_results(tool: InternalKnowledgeSearch, fake: FakeInternalSearch) -> None:
    out = await tool.invoke({"query": "криптовалюта", "pub_alias": "letters"}, CTX)
    assert out.startswith("No internal documents found for «криптовалюта» in 'letters'")


async def test_tool_service_down(tool: InternalKnowledgeSearch, fake: FakeInternalSearch) -> None:
    fake.search_failures = 10
    out = await tool.invoke({"query": "налог"}, CTX)
    assert out == "Error: internal search failed (HTTP 503); try again later"


async def test_tool_invalid_arguments(
    tool: InternalKnowledgeSearch, fake: FakeInternalSearch
) -> None:
    out = await tool.invoke({"query": "налог", "limit": 50}, CTX)
    assert out.startswith("Error: invalid arguments: limit")
    assert fake.requests["search"] == 0


# --- authentication ---------------------------------------------------------------------


def with_token(fake: FakeInternalSearch, token: str | None = TOKEN, **extra: Any) -> SearchClient:
    settings = make_settings(
        fake, internal_search_token=SecretStr(token) if token else None, **extra
    )
    return SearchClient(settings, retry_initial_s=0.01)


async def test_token_is_sent_as_bearer_to_every_endpoint(fake: FakeInternalSearch) -> None:
    fake.token = TOKEN
    client = with_token(fake)
    docs = await client.fetch_search_pages_and_docs("налог", limit=3)
    await client.aclose()
    assert [d.id for d in docs] == ["doc-101", "doc-102", "doc-103"]
    assert {"search", "json:doc-101", "xml:doc-102"} <= set(fake.requests)
    assert fake.auth_headers and set(fake.auth_headers) == {f"Bearer {TOKEN}"}


async def test_without_token_no_authorization_is_sent(
    client: SearchClient, fake: FakeInternalSearch
) -> None:
    assert await client.fetch_search_pages_and_docs("налог", limit=2)
    assert fake.auth_headers and set(fake.auth_headers) == {None}


async def test_token_is_added_to_an_injected_http_client(fake: FakeInternalSearch) -> None:
    fake.token = TOKEN
    async with httpx.AsyncClient() as http:
        settings = make_settings(fake, internal_search_token=SecretStr(TOKEN))
        client = SearchClient(settings, http)
        assert await client.fetch_search_pages_and_docs("налог", limit=1)
    assert set(fake.auth_headers) == {f"Bearer {TOKEN}"}


@pytest.mark.parametrize(
    ("token", "message"),
    [
        (
            WRONG_TOKEN,
            "internal search rejected the access token (HTTP 401); "
            "check FINAGENT_INTERNAL_SEARCH_TOKEN",
        ),
        (None, "internal search requires a token (HTTP 401); set FINAGENT_INTERNAL_SEARCH_TOKEN"),
        (
            "forbidden",
            "internal search denied access with this token (HTTP 403); "
            "check FINAGENT_INTERNAL_SEARCH_TOKEN",
        ),
    ],
)
async def test_refused_token_is_a_clear_error_not_retried(
    fake: FakeInternalSearch, token: str | None, message: str
) -> None:
    fake.token = TOKEN
    fake.forbidden_token = WRONG_TOKEN + "-forbidden"
    sent = fake.forbidden_token if token == "forbidden" else token
    client = with_token(fake, sent)
    with capture_logs() as logs, pytest.raises(InternalSearchError) as info:
        await client.fetch_search_pages_and_docs("налог")
    await client.aclose()
    assert str(info.value) == message
    assert fake.requests["search"] == 1  # 401/403 are not retried
    assert sent is None or sent not in str(info.value) + repr(logs)


async def test_documents_refused_are_an_auth_error_not_no_results(
    fake: FakeInternalSearch,
) -> None:
    fake.token = TOKEN
    fake.gateway_token = "gateway-only-token"  # the gateway refuses our token
    client = with_token(fake)
    with capture_logs() as logs:
        partial = await client.fetch_search_pages_and_docs("налог", limit=3)
        with pytest.raises(InternalSearchError) as info:
            await client.fetch_search_pages_and_docs("налог", limit=3, pub_alias="letters")
    await client.aclose()
    # JSON documents are still returned; XML ones are skipped with their status logged
    assert [d.id for d in partial] == ["doc-101", "doc-105", "doc-106"]
    skipped = [e for e in logs if e["event"] == "internal_document_skipped"]
    assert {e["status"] for e in skipped} >= {401}
    assert str(info.value) == (
        "the internal document service rejected the access token (HTTP 401); "
        "check FINAGENT_INTERNAL_SEARCH_TOKEN"
    )
    assert TOKEN not in str(info.value) + repr(logs)


async def test_tool_auth_error_and_token_never_leaks(fake: FakeInternalSearch) -> None:
    fake.token = TOKEN
    good = InternalKnowledgeSearch(with_token(fake))
    bad = InternalKnowledgeSearch(with_token(fake, WRONG_TOKEN))
    with capture_logs() as logs:
        ok = await good.invoke({"query": "налог", "limit": 2}, CTX)
        failed = await bad.invoke({"query": "налог"}, CTX)
    assert ok.startswith("## Document: ")
    assert failed == (
        "Error: internal search rejected the access token (HTTP 401); "
        "check FINAGENT_INTERNAL_SEARCH_TOKEN"
    )
    for secret in (TOKEN, WRONG_TOKEN):
        assert secret not in ok + failed + repr(logs)
    assert [e["outcome"] for e in logs if e["event"] == "tool_call"] == ["ok", "error"]


def test_token_setting_is_secret_and_redacted(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("FINAGENT_INTERNAL_SEARCH_TOKEN", TOKEN)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert settings.internal_search_token is not None
    assert settings.internal_search_token.get_secret_value() == TOKEN
    assert TOKEN in settings.secret_values()
    assert TOKEN not in repr(settings) + str(settings.model_dump())
    SearchClient(settings.model_copy(update={"doc_api_url": "http://127.0.0.1:9/api"}))
    assert TOKEN not in redact(f"Authorization: Bearer {TOKEN}")


async def test_a_retried_call_counts_once_toward_the_breaker(fake: FakeInternalSearch) -> None:
    breaker = Breaker("internal-search-once", threshold=2, ttl_s=60)
    client = SearchClient(
        make_settings(fake), retry_attempts=3, retry_initial_s=0.01, breaker=breaker
    )
    fake.search_failures = 10
    with pytest.raises(InternalSearchError):
        await client.fetch_search_pages_and_docs("налог", limit=1)
    await client.aclose()
    assert fake.requests["search"] == 3  # three attempts on the wire ...
    assert await breaker.failures() == 1  # ... one failure for the breaker
    assert await breaker.state() == "closed"
