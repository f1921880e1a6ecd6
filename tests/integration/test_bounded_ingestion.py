"""Bounded, fair ingestion: chunk and time budgets refused in Russian before or instead of
embedding, questions before ingestion batches, progress only for its own user, and an
upload whose client goes away leaves nothing stored (real components; no sleeps as
synchronisation: the tests hold the question gate to park an ingestion where they want)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest

from finagent.bootstrap import Deps
from finagent.retrieval.chunking import MarkdownChunker, chunks_at_least
from finagent.retrieval.index import SearchFilter
from finagent.retrieval.progress import chunk_progress
from finagent.retrieval.retriever import DOCS
from finagent.server.app import create_app
from tests.serving import loopback_service

TOKENS = "alice-token-0001:alice,bob-token-00001:bob"
ALICE = {"Authorization": "Bearer alice-token-0001"}
BOB = {"Authorization": "Bearer bob-token-00001"}
GUARD_S = 120  # a deadlock guard, not a timing assert


def long_text(paragraphs: int) -> str:
    body = "\n\n".join(
        f"Пункт {i}. Арендатор вносит плату за пользование помещением не позднее "
        f"{i % 28 + 1}-го числа месяца; пени за просрочку составляют 0,1 % за каждый день."
        for i in range(paragraphs)
    )
    return f"# Договор аренды № {paragraphs}\n\n{body}"


def text_file(tmp_path: Path, text: str) -> list[Path]:
    path = tmp_path / "big.txt"
    path.write_text(text, encoding="utf-8")
    return [path]


def upload(name: str, text: str) -> list[tuple[str, Any]]:
    return [("files", (name, text.encode(), "text/plain"))]


async def stored_chunks(services: Deps, user: str) -> int:
    retriever = services.retriever
    return await retriever.index.count(retriever.collection(DOCS), SearchFilter(user_id=user))


async def until(check: Callable[[], Awaitable[bool]]) -> None:
    """Readiness polling with a deadlock guard."""
    async with asyncio.timeout(GUARD_S):
        while True:
            if await check():
                return
            await asyncio.sleep(0.01)


@asynccontextmanager
async def in_process(services: Deps) -> AsyncIterator[httpx.AsyncClient]:
    app = create_app(services.settings, services)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://finagent") as http:
            yield http


@pytest.mark.parametrize("limit", [5, 30])
async def test_a_document_over_the_chunk_budget_is_refused_in_russian_before_embedding(
    make_services,  # type: ignore[no-untyped-def]
    tmp_path: Path,
    limit: int,
) -> None:
    services: Deps = await make_services(chunk_size=200, chunk_overlap=0, max_document_chunks=limit)
    text = long_text(40)
    chunks = len(MarkdownChunker(200, 0).split(text, "Договор аренды № 40"))
    at_least = chunks_at_least(text, 200)
    assert at_least <= chunks and limit < chunks
    with chunk_progress("documents", show=False) as bar:
        report = await services.ingestor().ingest_documents("alice", text_file(tmp_path, text))
    (result,) = report.results
    assert result.status == "error" and result.error is not None
    # clearly too large: refused from a lower bound, without splitting; else the exact count
    count = f"не меньше {at_least}" if at_least > limit else str(chunks)
    assert f"документ слишком большой: {count} фрагментов" in result.error
    assert f"допустимо не больше {limit}; разделите файл на части" in result.error
    assert bar.total == 0  # nothing was handed to the embedder
    assert await services.documents.list("alice") == []
    assert await stored_chunks(services, "alice") == 0


async def test_an_ingestion_over_its_time_budget_is_refused_and_leaves_nothing(
    make_services,  # type: ignore[no-untyped-def]
    tmp_path: Path,
) -> None:
    services: Deps = await make_services(chunk_size=200, chunk_overlap=0, ingest_timeout_s=1)
    priority = services.embedder.priority  # type: ignore[attr-defined]
    async with priority.question():  # a question keeps every ingestion batch waiting
        report = await services.ingestor().ingest_documents(
            "alice", text_file(tmp_path, long_text(20))
        )
    (result,) = report.results
    assert result.status == "error" and result.error is not None
    assert "обрабатывался слишком долго (дольше 1 с)" in result.error
    assert await services.documents.list("alice") == []
    assert await stored_chunks(services, "alice") == 0


async def test_progress_shows_only_the_callers_ingestions_and_questions_go_first(
    make_services,  # type: ignore[no-untyped-def]
) -> None:
    services: Deps = await make_services(api_tokens=TOKENS, chunk_size=200, chunk_overlap=0)
    priority = services.embedder.priority  # type: ignore[attr-defined]
    async with in_process(services) as http:

        async def alice_embedding() -> bool:
            rows = (await http.get("/v1/documents/ingestions", headers=ALICE)).json()
            return bool(rows) and rows[0]["stage"] == "embedding"

        async with priority.question():  # parks Alice's ingestion before its first batch
            sent = asyncio.create_task(
                http.post("/v1/documents", files=upload("big.txt", long_text(30)), headers=ALICE)
            )
            await until(alice_embedding)
            (row,) = (await http.get("/v1/documents/ingestions", headers=ALICE)).json()
            assert row["file"] == "big.txt" and row["chunks_done"] == 0
            assert row["chunks_total"] > 1
            bob_sees = await http.get("/v1/documents/ingestions", headers=BOB)
            assert bob_sees.status_code == 200 and bob_sees.json() == []
            # Bob's question is answered while Alice's ingestion waits behind it
            asked = await http.post("/v1/ask", json={"query": "какой срок оплаты?"}, headers=BOB)
            assert asked.status_code == 200 and asked.json()["answer"]
            assert not sent.done()
        response = await asyncio.wait_for(sent, GUARD_S)
        assert response.json()["results"][0]["status"] == "ingested"
        assert (await http.get("/v1/documents/ingestions", headers=ALICE)).json() == []
        assert (await http.get("/v1/documents/ingestions")).status_code == 401


async def test_a_client_that_goes_away_cancels_its_ingestion_and_nothing_stays(
    make_services,  # type: ignore[no-untyped-def]
) -> None:
    services: Deps = await make_services(
        api_tokens=TOKENS, chunk_size=200, chunk_overlap=0, ingest_batch_size=2
    )
    priority = services.embedder.priority  # type: ignore[attr-defined]
    async with loopback_service(services) as url, httpx.AsyncClient(base_url=url) as http:

        async def progress() -> list[dict[str, Any]]:
            rows: list[dict[str, Any]] = (
                await http.get("/v1/documents/ingestions", headers=ALICE)
            ).json()
            return rows

        async def some_chunks_stored() -> bool:
            rows = await progress()
            return bool(rows) and rows[0]["chunks_done"] >= 2

        async def nothing_in_flight() -> bool:
            return await progress() == []

        async with httpx.AsyncClient(base_url=url, timeout=GUARD_S) as uploader:
            sent = asyncio.create_task(
                uploader.post(
                    "/v1/documents", files=upload("big.txt", long_text(40)), headers=ALICE
                )
            )
            await until(some_chunks_stored)
            async with priority.question():  # the next batch waits: the upload is half done
                assert await stored_chunks(services, "alice") >= 2
                sent.cancel()  # the client gives up: its connection closes
                await asyncio.gather(sent, return_exceptions=True)
                await until(nothing_in_flight)
        assert await stored_chunks(services, "alice") == 0
        assert await services.documents.list("alice") == []
