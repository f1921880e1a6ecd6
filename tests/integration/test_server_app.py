"""The self-hosted FastAPI service: bearer tokens decide the user, never the request."""

from __future__ import annotations

import json
import re
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from finagent.bootstrap import Deps
from finagent.server.app import create_app
from tests.conftest import INVOICE, LEASE

TOKENS = "alice-token-0001:alice,bob-token-00002:bob"
ALICE = {"Authorization": "Bearer alice-token-0001"}
BOB = {"Authorization": "Bearer bob-token-00002"}


@pytest.fixture
async def client(make_services, kb_csv) -> AsyncIterator[httpx.AsyncClient]:  # type: ignore[no-untyped-def]
    services: Deps = await make_services(api_tokens=TOKENS)
    await services.ingestor().ingest_kb([kb_csv])
    app = create_app(services.settings, services)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://finagent") as http:
            yield http


async def upload(client: httpx.AsyncClient, headers: dict[str, str], **files: str) -> Any:
    parts = [("files", (name, text.encode(), "text/markdown")) for name, text in files.items()]
    response = await client.post("/v1/documents", files=parts, headers=headers)
    assert response.status_code == 200, response.text
    return response.json()["results"]


async def test_tokens_are_required(client: httpx.AsyncClient) -> None:
    assert (await client.get("/healthz")).json() == {"status": "ok"}
    for headers in ({}, {"Authorization": "Bearer wrong-token-123"}, {"Authorization": "x"}):
        response = await client.post("/v1/ask", json={"query": "НДС"}, headers=headers)
        assert response.status_code == 401
        assert "alice-token" not in response.text


async def test_a_caller_without_a_token_learns_nothing_about_bodies(
    client: httpx.AsyncClient,
) -> None:
    """Strict body checks run after the token: a bad body without a token is a 401."""
    bad_bodies = [b"{not json", b'{"query": NaN}', b'{"query": "\\ud800"}']
    for path in ("/v1/ask", "/langserve/agent/invoke"):
        for body in bad_bodies:
            headers = {"Content-Type": "application/json"}
            anonymous = await client.post(path, content=body, headers=headers)
            assert anonymous.status_code == 401, (path, body, anonymous.text)
            assert "Authorization" in anonymous.json()["detail"]
            signed_in = await client.post(path, content=body, headers={**headers, **ALICE})
            assert signed_in.status_code == 422, (path, body, signed_in.text)


async def test_upload_ask_and_isolation(client: httpx.AsyncClient) -> None:
    results = await upload(client, ALICE, **{"lease.md": LEASE, "empty.md": ""})
    assert results[0]["status"] == "ingested" and results[0]["file"] == "lease.md"
    assert results[1]["status"] == "error" and "empty.md: пустой файл" in results[1]["error"]
    lease_id = results[0]["document_id"]

    own = await client.post(
        "/v1/ask", headers=ALICE, json={"query": "какие пени в моём договоре аренды?"}
    )
    assert own.status_code == 200 and "0,1 %" in own.json()["answer"]
    assert own.json()["scenario"] == 1

    bob = await client.post(
        "/v1/ask", headers=BOB, json={"query": "какие пени в моём договоре аренды?"}
    )
    assert "0,1 %" not in bob.json()["answer"] and bob.json()["sources"] == []
    stolen = await client.post(
        "/v1/ask", headers=BOB, json={"query": "сумма?", "document_ids": [lease_id]}
    )
    assert stolen.status_code == 422 and "Документы не найдены" in stolen.json()["detail"]
    assert [d["id"] for d in (await client.get("/v1/documents", headers=ALICE)).json()] == [
        lease_id
    ]
    assert (await client.get("/v1/documents", headers=BOB)).json() == []


async def test_bad_input(client: httpx.AsyncClient) -> None:
    empty = await client.post("/v1/ask", headers=ALICE, json={"query": " "})
    assert empty.status_code == 422 and "Вопрос пуст" in empty.json()["detail"]
    huge = await client.post("/v1/ask", headers=ALICE, json={"query": "я" * 100_000})
    assert huge.status_code == 422 and "слишком длинный" in huge.json()["detail"]
    malformed = await client.post(
        "/v1/ask", content=b"{not json", headers={**ALICE, "Content-Type": "application/json"}
    )
    assert malformed.status_code == 422
    results = await upload(client, ALICE, **{"invoice.txt": INVOICE})
    assert results[0]["status"] == "ingested"


CYRILLIC_ONLY_WORDS = re.compile(r"[А-Яа-яЁё]")


def assert_russian(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert isinstance(detail, str) and CYRILLIC_ONLY_WORDS.search(detail), detail
    for english in ("Not Found", "Method Not Allowed", "invalid", "send ", "error"):
        assert english not in detail
    return detail


async def test_every_error_is_russian(client: httpx.AsyncClient) -> None:
    missing = await client.post("/v1/ask", json={"query": "НДС"})
    assert "Authorization: Bearer" in assert_russian(missing, 401)
    assert missing.headers["www-authenticate"] == "Bearer"
    wrong = await client.get("/v1/documents", headers={"Authorization": "Bearer wrong-token-1"})
    assert assert_russian(wrong, 401) == "Неверный API-токен."
    assert "не найден" in assert_russian(await client.get("/v1/nothing", headers=ALICE), 404)
    put = await client.put("/v1/ask", headers=ALICE, json={"query": "НДС"})
    assert "PUT" in assert_russian(put, 405) and put.headers["allow"] == "POST"
    huge = await client.post(
        "/v1/ask", headers={**ALICE, "Content-Type": "application/json"}, content=b" " * 2**21
    )
    assert "слишком большой" in assert_russian(huge, 413)
    long_chat = await client.post(
        "/v1/ask", headers=ALICE, json={"query": "НДС", "chat_id": "c" * 201}
    )
    assert "chat_id: слишком длинная строка" in assert_russian(long_chat, 422)
    broken = await client.post(
        "/v1/documents",
        headers={**ALICE, "Content-Type": "multipart/form-data; boundary=x"},
        content=b"--x\r\nContent-Disposition: form-data\r\n\r\n",
    )
    assert_russian(broken, 422)


async def test_a_service_without_tokens_answers_401_in_russian(make_services) -> None:  # type: ignore[no-untyped-def]
    services: Deps = await make_services()
    app = create_app(services.settings, services)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://finagent") as http:
            response = await http.get("/v1/documents", headers=ALICE)
    assert "FINAGENT_API_TOKENS" in assert_russian(response, 401)


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be", "utf-32", "cp1251"])
async def test_json_that_is_not_utf8_gets_422(client: httpx.AsyncClient, encoding: str) -> None:
    body = json.dumps({"query": "какая ставка НДС?"}, ensure_ascii=False).encode(encoding)
    response = await client.post(
        "/v1/ask", headers={**ALICE, "Content-Type": "application/json"}, content=body
    )
    assert "UTF-8" in assert_russian(response, 422)
    utf8 = json.dumps({"query": "какая ставка НДС?"}, ensure_ascii=False).encode()
    ok = await client.post(
        "/v1/ask", headers={**ALICE, "Content-Type": "application/json"}, content=utf8
    )
    assert ok.status_code == 200
