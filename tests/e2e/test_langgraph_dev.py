"""`langgraph dev` serves the graphs of langgraph.json; a run completes through langgraph_sdk."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from langgraph_sdk import get_client

from finagent.server.identity import INVALID_TOKEN
from tests.conftest import REPO_ROOT, run_finagent
from tests.fakes.net import free_port

STARTUP_DEADLINE_S = 240


def _langgraph_cli() -> str:
    exe = Path(sys.executable).with_name("langgraph")
    found = str(exe) if exe.exists() else shutil.which("langgraph")
    assert found, "langgraph-cli[inmem] is a dev dependency and must be installed"
    return found


ALICE = {"Authorization": "Bearer alice-token-0001"}
BOB = {"Authorization": "Bearer bob-token-00002"}


@pytest.fixture
def server(tmp_path: Path, kb_csv: Path, doc_files: dict[str, Path]) -> Iterator[str]:
    data_dir = tmp_path / "data"
    env = {
        **os.environ,
        "FINAGENT_DATA_DIR": str(data_dir),
        "FINAGENT_CBR_ENABLED": "false",
        "FINAGENT_LLM_API_KEY": "",
        "OPENROUTER_API_KEY": "",
        "LANGSMITH_TRACING": "false",
        "LANGGRAPH_CLI_NO_ANALYTICS": "1",
        "FINAGENT_API_TOKENS": "alice-token-0001:alice,bob-token-00002:bob",
    }
    for args in (
        ["ingest", "kb", str(kb_csv)],
        ["ingest", "docs", "--user", "bob", str(doc_files["lease"])],
    ):
        done = run_finagent(env, *args)
        assert done.returncode == 0, done.stderr
    port = free_port()
    log = (tmp_path / "server.log").open("w")
    proc = subprocess.Popen(
        [
            _langgraph_cli(),
            "dev",
            "--no-browser",
            "--no-reload",
            "--port",
            str(port),
            "--host",
            "127.0.0.1",
        ],
        cwd=REPO_ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + STARTUP_DEADLINE_S
    try:
        while True:  # readiness: poll the health endpoint until it answers or the process dies
            assert proc.poll() is None, (tmp_path / "server.log").read_text()[-3000:]
            try:
                if httpx.get(f"{url}/ok", timeout=2).status_code == 200:
                    break
            except httpx.HTTPError:
                pass
            assert time.monotonic() < deadline, "langgraph dev did not start in time"
            time.sleep(0.5)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=30)
        except subprocess.TimeoutExpired:
            proc.kill()
        log.close()


async def test_run_completes_through_the_sdk(server: str) -> None:
    client = get_client(url=server, headers=ALICE)
    assistants = await client.assistants.search(graph_id="agent")
    assert assistants, "graph 'agent' is not served"
    thread = await client.threads.create()
    final = await client.runs.wait(
        thread["thread_id"],
        "agent",
        input={"query": "Какая ставка НДС при экспорте?"},
        config={"configurable": {"user_id": "alice"}},
    )
    assert isinstance(final, dict)
    assert "## Краткий вывод" in final["answer"] and "## Источники" in final["answer"]
    assert final["decision"]["scenario"] == 2
    research = await client.assistants.search(graph_id="research")
    assert research, "graph 'research' is not served"


async def test_identity_comes_from_the_token(server: str) -> None:
    anonymous = get_client(url=server, headers={"Authorization": "Bearer nope-nope-nope"})
    with pytest.raises(Exception, match=INVALID_TOKEN):
        await anonymous.threads.create()

    alice = get_client(url=server, headers=ALICE)
    thread = await alice.threads.create()
    # alice claims to be bob: the token's identity wins, bob's lease stays invisible
    final = await alice.runs.wait(
        thread["thread_id"],
        "agent",
        input={"query": "какие пени в моём договоре аренды?"},
        config={"configurable": {"user_id": "bob"}},
    )
    assert isinstance(final, dict) and final["decision"]["scenario"] == 1
    assert "0,1 %" not in final["answer"] and not final.get("chunks")

    bob = get_client(url=server, headers=BOB)
    bob_thread = await bob.threads.create()
    own = await bob.runs.wait(
        bob_thread["thread_id"], "agent", input={"query": "какие пени в моём договоре аренды?"}
    )
    assert isinstance(own, dict) and "0,1 %" in own["answer"]
    with pytest.raises(Exception, match=r"(?i)not found|404"):
        await bob.threads.get(thread["thread_id"])  # alice's thread is not bob's

    # a stateless run (no thread) works under owner-scoped threads, as the token's user
    stateless = await bob.runs.wait(
        None, "agent", input={"query": "какие пени в моём договоре аренды?"}
    )
    assert isinstance(stateless, dict) and "0,1 %" in stateless["answer"]
    as_alice = await alice.runs.wait(
        None,
        "agent",
        input={"query": "какие пени в моём договоре аренды?"},
        config={"configurable": {"user_id": "bob"}},
    )
    assert isinstance(as_alice, dict) and "0,1 %" not in as_alice["answer"]
