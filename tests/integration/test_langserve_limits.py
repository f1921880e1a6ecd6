"""LangServe's routes validate like ``/v1/ask``: hostile JSON and inputs over the service's
limits get a Russian 422 before any graph runs (issue #24, item 3)."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest

from finagent.input_checks import MAX_CHAT_ID_CHARS, MAX_INSTRUCTIONS_CHARS
from finagent.server.input_limits import MAX_BATCH_INPUTS, MAX_JSON_DEPTH
from tests.integration.test_server_app import ALICE, assert_russian, client  # noqa: F401

JSON = {**ALICE, "Content-Type": "application/json"}
ENDPOINTS = ["invoke", "batch", "stream", "stream_log", "stream_events"]
ROUTES = [
    f"/langserve/{graph}/{endpoint}" for graph in ("agent", "research") for endpoint in ENDPOINTS
]


def wrap(route: str, value: str) -> bytes:
    """A LangServe body around one JSON-encoded input (``inputs`` for a batch)."""
    key, inner = ("inputs", f"[{value}]") if route.endswith("/batch") else ("input", value)
    return f'{{"{key}": {inner}}}'.encode()


def nested(depth: int) -> str:
    return '{"query": "ставка НДС", "x": ' + "[" * depth + "]" * depth + "}"


HOSTILE = {
    "huge integer": '{"query": "ставка НДС", "n": ' + "9" * 5000 + "}",
    "lone surrogate": '{"query": "\\ud800 НДС"}',
    "deep nesting": nested(50_000),
    "just too deep": nested(MAX_JSON_DEPTH),
    "NaN": '{"query": NaN}',
}


@pytest.mark.parametrize("route", ROUTES)
async def test_hostile_json_is_a_russian_422(client: httpx.AsyncClient, route: str) -> None:  # noqa: F811
    # was: 500 «Internal Server Error» (ValueError, orjson TypeError, RecursionError)
    for name, value in HOSTILE.items():
        response = await client.post(route, headers=JSON, content=wrap(route, value))
        detail = assert_russian(response, 422)
        assert detail.startswith("Некорректный запрос"), (name, detail)
    ok = await client.post(route, headers=JSON, content=wrap(route, nested(MAX_JSON_DEPTH - 2)))
    assert ok.status_code == 200, ok.text


async def chat_turns(client: httpx.AsyncClient, chat: str) -> list[Any]:  # noqa: F811
    response = await client.get(f"/v1/chats/{chat}", headers=ALICE)
    assert response.status_code == 200, response.text
    turns: list[Any] = response.json()["turns"]
    return turns


async def test_agent_inputs_get_the_service_limits(client: httpx.AsyncClient) -> None:  # noqa: F811
    # was: 200 for a 4 001-character question, a 10 000-character chat id, 1 000 inputs
    ask = {"query": "Какая ставка НДС?", "chat_id": "limits"}
    refused: list[tuple[str, dict[str, Any], str]] = [
        ("invoke", {"input": {**ask, "query": "я" * 4001}}, "Вопрос слишком длинный"),
        ("invoke", {"input": {**ask, "chat_id": "c" * 10_000}}, "«чат» слишком длинное"),
        ("invoke", {"input": ask, "config": {"configurable": {"thread_id": "t" * 10_000}}}, "чат"),
        ("stream", {"input": {**ask, "selected_document_ids": ["d"] * 51}}, "много документов"),
        (
            "stream_log",
            {"input": {**ask, "answer_instructions": "к" * (MAX_INSTRUCTIONS_CHARS + 1)}},
            "указания к ответу",
        ),
        ("stream_events", {"input": {**ask, "query": " "}}, "Вопрос пуст"),
        ("stream_events", {"input": {**ask, "query": 5}}, "должно быть строкой"),
        ("batch", {"inputs": [ask] * 1000}, f"не больше {MAX_BATCH_INPUTS}"),
        ("batch", {"inputs": [ask, {**ask, "chat_id": "c" * (MAX_CHAT_ID_CHARS + 1)}]}, "чат"),
    ]
    for endpoint, body, expected in refused:
        response = await client.post(
            f"/langserve/agent/{endpoint}", headers=JSON, content=json.dumps(body).encode()
        )
        assert expected in assert_russian(response, 422), (endpoint, response.text)
    assert await chat_turns(client, "limits") == []  # no graph ran

    research = {"input": {"query": "я" * 4001}}
    response = await client.post("/langserve/research/invoke", headers=JSON, json=research)
    assert "слишком длинный" in assert_russian(response, 422)

    batch = {"inputs": [ask] * MAX_BATCH_INPUTS}
    answered = await client.post("/langserve/agent/batch", headers=JSON, json=batch)
    assert answered.status_code == 200 and len(answered.json()["output"]) == MAX_BATCH_INPUTS
    assert await chat_turns(client, "limits") != []  # the check above could fail


async def test_playground_and_chat_errors_are_russian(client: httpx.AsyncClient) -> None:  # noqa: F811
    # was: a plain-text English «Not Found»
    missing = await client.get("/langserve/agent/playground/nothing.js", headers=ALICE)
    assert "не найден" in assert_russian(missing, 404)
    playground = await client.get("/langserve/agent/playground/", headers=ALICE)
    assert playground.status_code == 200 and "<html" in playground.text.lower()
    long_chat = await client.get(f"/v1/chats/{'c' * (MAX_CHAT_ID_CHARS + 1)}", headers=ALICE)
    assert "«чат» слишком длинное" in assert_russian(long_chat, 422)
