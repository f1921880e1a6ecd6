"""`langgraph dev` serves the graphs of langgraph.json; a run completes through langgraph_sdk."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from langgraph_sdk import get_client

from finagent.server.identity import INVALID_TOKEN
from tests.conftest import run_finagent
from tests.e2e.langgraph_server import langgraph_dev, offline_api_env

ALICE = {"Authorization": "Bearer alice-token-0001"}
BOB = {"Authorization": "Bearer bob-token-00002"}


@pytest.fixture
def server(tmp_path: Path, kb_csv: Path, doc_files: dict[str, Path]) -> Iterator[str]:
    data_dir = tmp_path / "data"
    env = offline_api_env(data_dir)
    for args in (
        ["ingest", "kb", str(kb_csv)],
        ["ingest", "docs", "--user", "bob", str(doc_files["lease"])],
    ):
        done = run_finagent(env, *args)
        assert done.returncode == 0, done.stderr
    with langgraph_dev(env, tmp_path / "server.log") as url:
        yield url


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
    with pytest.raises(Exception, match="Не найдено"):  # 404, in Russian
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


async def test_api_errors_are_russian(server: str) -> None:
    """langgraph-api's own 404, 405 and 422 bodies come back in Russian (the auth's 401
    already does); the original text goes to the server's log only."""
    missing_thread = f"{server}/threads/00000000-0000-4000-8000-000000000000"
    async with httpx.AsyncClient(headers=ALICE, timeout=30) as http:
        responses = {
            404: [await http.get(missing_thread), await http.get(f"{server}/nothing-here")],
            405: [await http.put(f"{server}/threads/search", json={})],
            422: [
                await http.post(f"{server}/threads/search", json={"limit": "many"}),
                await http.post(f"{server}/runs/wait", json={"assistant_id": 5}),
            ],
        }
    for status, answers in responses.items():
        for response in answers:
            assert response.status_code == status, response.text
            detail = response.json()["detail"]
            assert re.search("[А-Яа-яЁё]", detail) and not re.search("[a-z]{3,}", detail), detail
    assert "PUT" in responses[405][0].json()["detail"]
