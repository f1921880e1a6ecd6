"""The echoing provider (tests/e2e/test_secret_echo.py) behind the LangGraph API server.

``langgraph dev`` serves the agent and research graphs with ``FINAGENT_LLM_BASE_URL`` at
the loopback OpenAI fake whose 401 repeats the API key in every form (whole, without its
prefix, upper-cased, a 16-character run: tests/e2e/test_secret_forms.py). Questions are
asked through langgraph_sdk, and any 16-character run of the key, in any case, is then
looked for in every API response
(run output, the streamed chunks, thread state, thread history, run records), in the
server's log and in every file the server and finagent stored (the in-memory runtime's
checkpoints and threads, finagent's data dir): 0 hits.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from langgraph_sdk import get_client

from finagent.prompts import research_messages
from tests.conftest import run_finagent
from tests.e2e.langgraph_server import langgraph_dev
from tests.e2e.test_secret_echo import echo_env
from tests.e2e.test_secret_forms import KEY, leaked_runs
from tests.fakes.openai_api import run_fake_chat

ALICE = {"Authorization": "Bearer alice-token-0001"}
QUESTIONS = ("Какая ставка НДС при экспорте?", "А при импорте?")


def _dump(value: Any) -> str:
    # ensure_ascii=False: the key is ASCII either way, Russian text stays readable on failure
    return json.dumps(value, ensure_ascii=False, default=str)


async def _ask_everything(url: str) -> tuple[list[str], dict[str, Any]]:
    """Ask through the API in every way a client can, returning every response body."""
    client = get_client(url=url, headers=ALICE)
    thread = await client.threads.create()
    thread_id = thread["thread_id"]
    bodies: list[str] = []
    final = await client.runs.wait(thread_id, "agent", input={"query": QUESTIONS[0]})
    assert isinstance(final, dict)
    bodies.append(_dump(final))
    async for part in client.runs.stream(
        thread_id,
        "agent",
        input={"query": QUESTIONS[1]},
        stream_mode=["values", "updates", "debug", "events", "messages-tuple"],
    ):
        bodies.append(_dump(part.data))
    stateless = await client.runs.wait(None, "agent", input={"query": QUESTIONS[0]})
    bodies.append(_dump(stateless))
    research_thread = (await client.threads.create())["thread_id"]
    research = await client.runs.wait(research_thread, "research", input={"query": QUESTIONS[0]})
    assert isinstance(research, dict) and research["status"] == "failed"
    assert research["answer"] == research_messages.LLM_UNAVAILABLE  # Russian, no upstream text
    bodies.append(_dump(research))
    bodies.append(_dump(await client.threads.get_history(research_thread, limit=100)))
    bodies.append(_dump(await client.threads.get_state(thread_id)))
    bodies.append(_dump(await client.threads.get_history(thread_id, limit=100)))
    bodies.append(_dump(await client.threads.get(thread_id)))
    bodies.append(_dump(await client.threads.search(limit=100)))
    bodies.append(_dump(await client.runs.list(thread_id, limit=100)))
    return bodies, final


async def test_echoed_key_reaches_no_langgraph_api_response_log_or_stored_file(
    tmp_path: Path, kb_csv: Path
) -> None:
    data_dir = tmp_path / "data"
    workdir = tmp_path / "server"
    workdir.mkdir()
    log_path = tmp_path / "server.log"
    with run_fake_chat([], mode="echo_key_forms_401") as chat:
        env = {
            **echo_env(data_dir, chat.url, KEY),
            "OPENROUTER_API_KEY": "",
            "LANGSMITH_TRACING": "false",
            "LANGGRAPH_CLI_NO_ANALYTICS": "1",
            "FINAGENT_API_TOKENS": "alice-token-0001:alice",
        }
        assert run_finagent(env, "ingest", "kb", str(kb_csv)).returncode == 0
        with langgraph_dev(env, log_path, workdir=workdir) as url:
            bodies, final = await _ask_everything(url)
    assert chat.requests, "the LLM was never called: the test proves nothing"
    # debug holds the error's kind and the provider's request id, never its text
    fallback = final["debug"]["orchestrator_fallback"]
    assert fallback["error_kind"] == "AuthenticationError"
    assert fallback["request_id"].startswith("req_fake_")
    assert "## Источники" in final["answer"]
    assert [leaked_runs(body) for body in bodies if leaked_runs(body)] == []
    log = log_path.read_text(encoding="utf-8", errors="replace")
    assert leaked_runs(log) == []
    assert fallback["request_id"] in log  # the redacted cause is logged under that id
    # the follow-up run read the thread's checkpoint back: strict msgpack knows every type
    assert "Deserializing unregistered type" not in log
    stored = [p for p in (*workdir.rglob("*"), *data_dir.rglob("*")) if p.is_file()]
    api_files = [p for p in stored if ".langgraph_api" in p.parts]
    assert any("checkpoint" in p.name for p in api_files), "the API stored no checkpoints"
    found = {str(p): leaked_runs(p.read_bytes()) for p in stored}
    assert {path: runs for path, runs in found.items() if runs} == {}
