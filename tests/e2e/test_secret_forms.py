"""A provider that echoes the API key in every form: no form leaves the process or is stored.

The loopback OpenAI fake answers 401 with the key whole, without its ``sk-proj-`` prefix,
upper-cased and as a 16-character run from its middle (``echo_key_forms_401``). Every
route is driven with it: the CLI's ``ask --json`` (stdout, stderr, data dir), and in the
service ``/v1/ask``, ``/v1/ask/stream``, ``/v1/research``, the chat endpoints and
LangServe's ``invoke``, ``batch``, ``stream``, ``stream_log`` and ``stream_events`` for
both graphs; then every response byte, the log (structlog and stdlib records) and every
file under the data dir are scanned for any 16-character run of the key, in any case.
The LangGraph API server gets the same scan in tests/e2e/test_langgraph_api_secrets.py.
Clients get an error kind and a request id in debug, never the provider's text.
"""

from __future__ import annotations

import json
import logging
from pathlib import Path
from typing import Any

import httpx
import pytest

from finagent.bootstrap import Deps
from finagent.config import Settings
from finagent.observability import configure_logging
from finagent.server.app import create_app
from tests.conftest import run_finagent
from tests.e2e.test_secret_echo import echo_env
from tests.fakes.openai_api import key_forms, run_fake_chat

KEY = "sk-proj-Echo7Leak5f1d2c9a7bQz3WmN8"
TOKEN = "tok-alice-forms-0001"
QUESTION = "Какая ставка НДС при экспорте?"


def leaked_runs(blob: bytes | str, key: str = KEY) -> list[str]:
    """Every 16-character run of ``key`` found in ``blob``, in any case."""
    text = blob.decode("utf-8", "replace") if isinstance(blob, bytes) else blob
    low, secret = text.lower(), key.lower()
    grams = {secret[i : i + 16] for i in range(len(secret) - 15)}
    return sorted(g for g in grams if g in low)


def stored_leaks(folder: Path, key: str = KEY) -> dict[str, list[str]]:
    files = [p for p in folder.rglob("*") if p.is_file()]
    assert any("sqlite" in p.name or p.suffix in {".sqlite", ".db"} for p in files), files
    found = {str(p): leaked_runs(p.read_bytes(), key) for p in files}
    return {path: runs for path, runs in found.items() if runs}


def test_the_fake_echoes_every_form() -> None:
    whole, bare, upper, run = key_forms(KEY)
    assert (whole, bare, upper, len(run)) == (KEY, KEY.removeprefix("sk-proj-"), KEY.upper(), 16)
    assert all(leaked_runs(form) for form in key_forms(KEY))  # the scan sees each form


def test_cli_ask_json_shows_and_stores_no_form_of_the_key(tmp_path: Path, kb_csv: Path) -> None:
    data_dir = tmp_path / "data"
    with run_fake_chat([], mode="echo_key_forms_401") as chat:
        env = echo_env(data_dir, chat.url, KEY)
        assert run_finagent(env, "ingest", "kb", str(kb_csv)).returncode == 0
        out = run_finagent(env, "-v", "ask", QUESTION, "--chat", "c1", "--json")
    assert out.returncode == 0, out.stderr[-2000:]
    assert chat.requests, "the LLM was never called: the test proves nothing"
    debug = json.loads(out.stdout)["debug"]
    assert debug["orchestrator_fallback"] == {
        "error_kind": "AuthenticationError",
        "request_id": "req_fake_1",
    }
    assert "req_fake_1" in out.stderr  # the redacted cause is logged under the same id
    assert leaked_runs(out.stdout) == [] and leaked_runs(out.stderr) == []
    assert stored_leaks(data_dir) == {}


def _langserve_calls(graph: str, body: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    base = f"/langserve/{graph}"
    config = {"configurable": {"thread_id": f"{graph}-c1"}}
    return [
        (f"{base}/invoke", {"input": body, "config": config}),
        (f"{base}/batch", {"inputs": [body, body], "config": config}),
        (f"{base}/stream", {"input": body, "config": config}),
        (f"{base}/stream_log", {"input": body, "config": config}),
        (f"{base}/stream_events", {"input": body, "config": config}),
    ]


async def test_no_route_of_the_service_returns_or_logs_a_form_of_the_key(
    make_services: Any, kb_csv: Path, capfd: pytest.CaptureFixture[str]
) -> None:
    from finagent.clients.llm import build_chat_model

    configure_logging("DEBUG")
    logging.getLogger("httpx").setLevel(logging.DEBUG)
    logging.getLogger("openai").setLevel(logging.DEBUG)
    responses: dict[str, bytes] = {}
    with run_fake_chat([], mode="echo_key_forms_401") as chat:
        llm_settings = Settings(
            llm_base_url=chat.url, llm_model="fake-model", llm_api_key=KEY, llm_max_retries=0
        )
        services: Deps = await make_services(
            llm=build_chat_model(llm_settings), api_tokens=f"{TOKEN}:alice", llm_api_key=KEY
        )
        await services.ingestor().ingest_kb([kb_csv])
        app = create_app(services.settings, services)
        question = {"query": QUESTION, "chat_id": "c1"}
        posts = [
            ("/v1/ask", question),
            ("/v1/ask/stream", question),
            ("/v1/research", {"query": QUESTION}),
            *_langserve_calls("agent", question),
            *_langserve_calls("research", {"query": QUESTION}),
        ]
        async with app.router.lifespan_context(app):
            transport = httpx.ASGITransport(app=app)
            async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
                auth = {"Authorization": f"Bearer {TOKEN}"}
                for path, body in posts:
                    response = await http.post(path, headers=auth, json=body)
                    assert response.status_code == 200, (path, response.text[:500])
                    responses[path] = response.content
                for path in ("/v1/chats", "/v1/chats/c1"):
                    response = await http.get(path, headers=auth)
                    assert response.status_code == 200, (path, response.text[:500])
                    responses[path] = response.content
    assert len(chat.requests) >= len(posts), "the LLM was not called on every route"
    invoked = json.loads(responses["/langserve/agent/invoke"])["output"]["debug"]
    assert invoked["orchestrator_fallback"]["error_kind"] == "AuthenticationError"
    assert invoked["orchestrator_fallback"]["request_id"].startswith("req_fake_")
    assert {path: leaked_runs(body) for path, body in responses.items() if leaked_runs(body)} == {}
    logged = "".join(capfd.readouterr())
    assert "orchestrator_llm_failed" in logged and "req_fake_" in logged
    assert leaked_runs(logged) == []
    assert stored_leaks(services.settings.data_dir) == {}
