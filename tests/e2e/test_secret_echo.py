"""A provider that repeats the API key in its error message: the key is stored and shown nowhere.

Scans the CLI's ``--json`` output and logs, every byte under the data dir (SQLite store,
checkpoints, caches) and the FastAPI service's responses. The same provider is run with
PostgreSQL (tests/integration/test_secret_echo_postgres.py: every row of every table, all
checkpoint tables included) and behind the LangGraph API server
(tests/e2e/test_langgraph_api_secrets.py: its responses, log and stored files).
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx

from finagent.bootstrap import Deps
from finagent.config import Settings
from finagent.server.app import create_app
from tests.conftest import run_finagent
from tests.fakes.openai_api import run_fake_chat

KEY = "sk-echo-leak-5f1d2c9a7b"
NEEDLES = [KEY, KEY[:9], KEY[-10:]]


def _leaks(blob: bytes | str) -> list[str]:
    data = blob.encode() if isinstance(blob, str) else blob
    return [n for n in NEEDLES if n.encode() in data]


def echo_env(data_dir: Path, llm_url: str, key: str = KEY) -> dict[str, str]:
    """A finagent process environment whose LLM, with API key ``key``, is the key-echoing
    fake at ``llm_url``."""
    return {
        **os.environ,
        "FINAGENT_DATA_DIR": str(data_dir),
        "FINAGENT_CBR_ENABLED": "false",
        "FINAGENT_LLM_BASE_URL": llm_url,
        "FINAGENT_LLM_MODEL": "fake-model",
        "FINAGENT_LLM_API_KEY": key,
        "FINAGENT_LLM_MAX_RETRIES": "0",
    }


def test_echoed_key_reaches_no_output_log_or_stored_row(tmp_path: Path, kb_csv: Path) -> None:
    data_dir = tmp_path / "data"
    with run_fake_chat([], echo_key_401=True) as chat:
        env = echo_env(data_dir, chat.url)
        assert run_finagent(env, "ingest", "kb", str(kb_csv)).returncode == 0
        out = run_finagent(
            env, "-v", "ask", "Какая ставка НДС при экспорте?", "--chat", "c1", "--json"
        )
    assert out.returncode == 0, out.stderr[-2000:]
    assert chat.requests, "the LLM was never called: the test proves nothing"
    assert "orchestrator_fallback" in out.stdout  # the provider's error did reach debug
    assert _leaks(out.stdout) == [] and _leaks(out.stderr) == []
    stored = [p for p in data_dir.rglob("*") if p.is_file()]
    assert any(p.suffix in {".sqlite", ".db"} or "sqlite" in p.name for p in stored)
    assert {str(p): _leaks(p.read_bytes()) for p in stored if _leaks(p.read_bytes())} == {}


async def test_echoed_key_never_returned_by_the_service(make_services, kb_csv: Path) -> None:  # type: ignore[no-untyped-def]
    from finagent.clients.llm import build_chat_model

    with run_fake_chat([], echo_key_401=True) as chat:
        llm_settings = Settings(
            llm_base_url=chat.url, llm_model="fake-model", llm_api_key=KEY, llm_max_retries=0
        )
        services: Deps = await make_services(
            llm=build_chat_model(llm_settings), api_tokens="tok-alice-0001:alice", llm_api_key=KEY
        )
        await services.ingestor().ingest_kb([kb_csv])
        app = create_app(services.settings, services)
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                auth = {"Authorization": "Bearer tok-alice-0001"}
                question = {"query": "Какая ставка НДС при экспорте?", "chat_id": "c1"}
                response = await http.post("/v1/ask", headers=auth, json=question)
                others = [
                    await http.post("/v1/ask/stream", headers=auth, json=question),
                    await http.post(
                        "/langserve/agent/invoke", headers=auth, json={"input": question}
                    ),
                    await http.post(
                        "/v1/research", headers=auth, json={"query": question["query"]}
                    ),
                    await http.get("/v1/chats/c1", headers=auth),
                    await http.get("/v1/chats", headers=auth),
                ]
    assert response.status_code == 200, response.text
    assert chat.requests
    assert _leaks(response.text) == []
    assert [r.status_code for r in others] == [200] * len(others)
    assert "orchestrator_fallback" in others[1].text  # LangServe returns the state, debug too
    assert {r.url.path: _leaks(r.text) for r in others if _leaks(r.text)} == {}
