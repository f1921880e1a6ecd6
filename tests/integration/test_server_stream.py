"""``POST /v1/ask/stream``: progress, tokens, a final event, Russian errors, and disconnects
that cancel the run without saving half a turn."""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx
import pytest
from langchain_core.messages import AIMessage

from finagent.bootstrap import Deps
from finagent.server.app import create_app
from tests.conftest import LEASE
from tests.fakes.streaming_llm import StreamingChatModel, words
from tests.integration.test_agent_graph import decision
from tests.serving import loopback_service

TOKENS = "alice-token-0001:alice,bob-token-00002:bob"
ALICE = {"Authorization": "Bearer alice-token-0001"}
BOB = {"Authorization": "Bearer bob-token-00002"}
QUESTION = "какие пени в моём договоре аренды?"


def parse_sse(text: str) -> list[tuple[str, dict[str, Any]]]:
    """(event, data) pairs of an SSE body (comments and pings skipped)."""
    events = []
    for block in text.replace("\r\n", "\n").split("\n\n"):
        name, data = "message", []
        for line in block.split("\n"):
            if line.startswith("event:"):
                name = line[6:].strip()
            elif line.startswith("data:"):
                data.append(line[5:].removeprefix(" "))
        if data:
            events.append((name, json.loads("\n".join(data))))
    return events


@asynccontextmanager
async def asgi_client(services: Deps) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(services.settings, services)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://finagent") as http:
            yield http


async def upload_lease(http: httpx.AsyncClient) -> str:
    files = [("files", ("lease.md", LEASE.encode(), "text/markdown"))]
    response = await http.post("/v1/documents", files=files, headers=ALICE)
    assert response.status_code == 200, response.text
    return str(response.json()["results"][0]["document_id"])


async def test_offline_stream_has_progress_tokens_and_final(make_services) -> None:  # type: ignore[no-untyped-def]
    services: Deps = await make_services(api_tokens=TOKENS)
    async with asgi_client(services) as http:
        lease_id = await upload_lease(http)
        response = await http.post(
            "/v1/ask/stream", headers=ALICE, json={"query": QUESTION, "chat_id": "c1"}
        )
        assert response.status_code == 200
        assert response.headers["content-type"].startswith("text/event-stream")
        events = parse_sse(response.text)
        names = [name for name, _ in events]
        assert names[-1] == "final" and "error" not in names
        progress = [data for name, data in events if name == "progress"]
        assert progress[0]["stage"] == "scenario" and progress[0]["scenario"] == 1
        assert "S1" in progress[0]["message"]
        assert any(p["stage"] == "sources" and p["count"] >= 1 for p in progress)
        assert names.index("token") > max(i for i, n in enumerate(names) if n == "progress")
        final = events[-1][1]
        tokens = "".join(data["text"] for name, data in events if name == "token")
        assert tokens == final["answer"] and "0,1 %" in final["answer"]
        assert final["scenario"] == 1 and final["chat_id"] == "c1"
        assert {s["document_id"] for s in final["sources"]} == {lease_id}
        cited = final["citations"][0]
        assert cited["number"] == 1 and cited["kind"] == "user_docs"
        assert any("0,1 %" in p["text"] for p in cited["passages"])
        # the same answer as /v1/ask, and the turn is stored once
        plain = await http.post("/v1/ask", headers=ALICE, json={"query": QUESTION})
        assert plain.json()["answer"] == final["answer"]
    turns = await services.history.last("alice", "c1", 10)
    assert [t.role for t in turns] == ["user", "assistant"]
    assert turns[1].content == final["answer"]


async def test_llm_tokens_stream_before_the_final_answer(make_services) -> None:  # type: ignore[no-untyped-def]
    text = "## Краткий вывод\nПени составляют 0,1 % за каждый день просрочки [1]."
    llm = StreamingChatModel([decision(1), AIMessage(text)])
    services: Deps = await make_services(llm, api_tokens=TOKENS)
    async with asgi_client(services) as http:
        await upload_lease(http)
        response = await http.post("/v1/ask/stream", headers=ALICE, json={"query": QUESTION})
    events = parse_sse(response.text)
    tokens = [data["text"] for name, data in events if name == "token"]
    # the LLM's pieces as it produced them; pieces that piled up may share one event
    assert ("".join(tokens) == text and set(words(text)) >= {tokens[0]}) or len(tokens) == 1
    final = events[-1]
    assert final[0] == "final" and "0,1 %" in final[1]["answer"]
    assert "## Источники" in final[1]["answer"]  # the checked text with its source list


async def test_live_data_progress_says_when_a_source_is_unavailable(make_services) -> None:  # type: ignore[no-untyped-def]
    llm = StreamingChatModel([decision(2, ["rates", "kb"]), AIMessage("Ставка 20 % [1].")])
    services: Deps = await make_services(llm, api_tokens=TOKENS)  # no Bank of Russia
    async with asgi_client(services) as http:
        response = await http.post(
            "/v1/ask/stream", headers=ALICE, json={"query": "курс доллара и ставка НДС?"}
        )
    events = parse_sse(response.text)
    live = [d for n, d in events if n == "progress" and d["stage"] == "live_data"]
    assert live == [
        {
            "stage": "live_data",
            "source": "cbr",
            "ok": False,
            "message": "Живые данные недоступны: Банк России.",
        }
    ]
    scenario = next(d for n, d in events if n == "progress" and d["stage"] == "scenario")
    assert scenario["scenario"] == 2 and set(scenario["intents"]) == {"rates", "kb"}
    assert events[-1][0] == "final" and events[-1][1]["scenario"] == 2


async def test_same_auth_limits_and_russian_errors(make_services) -> None:  # type: ignore[no-untyped-def]
    services: Deps = await make_services(api_tokens=TOKENS)
    async with asgi_client(services) as http:
        lease_id = await upload_lease(http)
        anonymous = await http.post("/v1/ask/stream", json={"query": QUESTION})
        assert anonymous.status_code == 401 and "Authorization" in anonymous.json()["detail"]
        empty = await http.post("/v1/ask/stream", headers=ALICE, json={"query": " "})
        assert empty.status_code == 422 and "Вопрос пуст" in empty.json()["detail"]
        long_chat = await http.post(
            "/v1/ask/stream", headers=ALICE, json={"query": "НДС", "chat_id": "c" * 201}
        )
        assert long_chat.status_code == 422
        huge = await http.post(
            "/v1/ask/stream",
            headers={**ALICE, "Content-Type": "application/json"},
            content=b" " * 2**21,
        )
        assert huge.status_code == 413
        stolen = await http.post(
            "/v1/ask/stream", headers=BOB, json={"query": "сумма?", "document_ids": [lease_id]}
        )
        events = parse_sse(stolen.text)
        assert events[-1][0] == "error" and "Документы не найдены" in events[-1][1]["message"]
        assert "final" not in [name for name, _ in events]


async def test_disconnect_cancels_the_run_and_saves_no_half_turn(make_services) -> None:  # type: ignore[no-untyped-def]
    cancelled = asyncio.Event()
    text = "Пени составляют 0,1 % за каждый день просрочки [1]."
    llm = StreamingChatModel([decision(1), AIMessage(text)], hold_after=2, cancelled=cancelled)
    services: Deps = await make_services(llm, api_tokens=TOKENS)
    async with (
        loopback_service(services) as url,
        httpx.AsyncClient(base_url=url, timeout=60) as http,
    ):
        await upload_lease(http)
        body = {"query": QUESTION, "chat_id": "c1"}
        seen: list[str] = []
        async with http.stream("POST", "/v1/ask/stream", headers=ALICE, json=body) as response:
            assert response.status_code == 200
            async for line in response.aiter_lines():
                seen.append(line)
                if line == "event: token":
                    break  # the client goes away mid-answer
        await asyncio.wait_for(cancelled.wait(), timeout=60)  # the LLM stream was cancelled
        assert "event: final" not in seen
        assert await services.history.last("alice", "c1", 10) == []


@pytest.mark.parametrize("size", [1, 40, 200])
def test_chunked_pieces_join_back(size: int) -> None:
    from finagent.server.stream import chunked

    text = "Арендная плата 150 000 рублей.\n\n## Источники\n[1] lease.md " * 3
    pieces = chunked(text, size)
    assert "".join(pieces) == text
    assert all(len(p) <= size for p in pieces)


async def test_tokens_that_piled_up_go_out_as_one_event() -> None:
    from finagent.server.stream import _NEXT, coalesced

    queue: asyncio.Queue[Any] = asyncio.Queue()
    for item in (("token", {"text": "б "}), ("token", {"text": "в"}), ("final", {"a": 1}), None):
        queue.put_nowait(item)
    event, following = coalesced(("token", {"text": "а "}), queue)
    assert event == ("token", {"text": "а б в"}) and following == ("final", {"a": 1})
    assert coalesced(("progress", {"stage": "sources"}), queue) == (
        ("progress", {"stage": "sources"}),
        _NEXT,
    )
    assert coalesced(("token", {"text": "x"}), queue) == (("token", {"text": "x"}), None)
