"""The LangServe routes of ``finagent serve`` answer bad requests like ``/v1/ask``: JSON
bodies in Russian, 4xx never 5xx (a malformed body once crashed the 422 handler: LangServe
reports it as a bare string)."""

from __future__ import annotations

import json

import httpx

from tests.integration.test_server_app import ALICE, assert_russian, client  # noqa: F401

INVOKE = "/langserve/agent/invoke"
JSON = {**ALICE, "Content-Type": "application/json"}


async def test_langserve_errors_are_russian(client: httpx.AsyncClient) -> None:  # noqa: F811
    body = json.dumps({"input": {"query": "Какая ставка НДС?"}}, ensure_ascii=False)
    malformed = await client.post(INVOKE, headers=JSON, content=b"{not json")
    assert "некорректный JSON" in assert_russian(malformed, 422)
    utf16 = await client.post(INVOKE, headers=JSON, content=body.encode("utf-16"))
    assert "UTF-8" in assert_russian(utf16, 422)
    missing = await client.post(INVOKE, headers=JSON, content=b'{"input": {"q": 1}}')
    assert "обязательное поле" in assert_russian(missing, 422)
    assert_russian(await client.post(INVOKE, content=body.encode()), 401)
    assert "GET" in assert_russian(await client.get(INVOKE, headers=ALICE), 405)
    huge = await client.post(INVOKE, headers=JSON, content=b" " * 2**21)
    assert "слишком большой" in assert_russian(huge, 413)
    assert_russian(await client.post("/langserve/nothing", headers=JSON, content=b"{}"), 404)
    ok = await client.post(INVOKE, headers=JSON, content=body.encode())
    assert ok.status_code == 200 and "## Источники" in ok.json()["output"]["answer"]
