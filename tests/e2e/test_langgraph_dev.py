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
def server_log(tmp_path: Path) -> Path:
    return tmp_path / "server.log"


@pytest.fixture
def server(
    tmp_path: Path, kb_csv: Path, doc_files: dict[str, Path], server_log: Path
) -> Iterator[str]:
    data_dir = tmp_path / "data"
    env = offline_api_env(data_dir)
    for args in (
        ["ingest", "kb", str(kb_csv)],
        ["ingest", "docs", "--user", "bob", str(doc_files["lease"])],
    ):
        done = run_finagent(env, *args)
        assert done.returncode == 0, done.stderr
    with langgraph_dev(env, server_log) as url:
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


async def test_studio_schemas_chat_messages_and_the_thread_as_the_chat(
    server: str, server_log: Path
) -> None:
    client = get_client(url=server, headers=ALICE)
    for graph in ("agent", "research"):
        [assistant] = await client.assistants.search(graph_id=graph)
        schemas = await client.assistants.get_schemas(assistant["assistant_id"])
        for kind in ("input_schema", "output_schema", "context_schema"):
            assert schemas[kind] and schemas[kind]["properties"], (graph, kind)
        assert "pending" not in schemas["input_schema"]["properties"]  # input is not state
    agent = await client.assistants.search(graph_id="agent")
    agent_schemas = await client.assistants.get_schemas(agent[0]["assistant_id"])
    assert {"query", "messages"} <= set(agent_schemas["input_schema"]["properties"])
    assert "user_id" in agent_schemas["context_schema"]["properties"]

    thread = (await client.threads.create())["thread_id"]
    first = await client.runs.wait(
        thread,
        "agent",
        input={"messages": [{"type": "human", "content": "Ставка НДС при экспорте?"}]},
    )
    assert isinstance(first, dict)
    reply = first["messages"][-1]
    assert reply["type"] == "ai" and reply["content"] == first["answer"]
    assert "## Краткий вывод" in reply["content"] and reply["response_metadata"]["sources"]
    assert first["chat_id"] == thread  # the thread is the conversation
    second = await client.runs.wait(thread, "agent", input={"query": "А какая основная ставка?"})
    assert isinstance(second, dict)
    assert [m["type"] for m in second["messages"]] == ["human", "ai", "human", "ai"]
    state = await client.threads.get_state(thread)
    history = state["values"]["history"]  # the first turn, read back from the platform's store
    assert [t["content"] for t in history][:1] == ["Ставка НДС при экспорте?"]

    complaints = langsmith_complaints(server_log)
    assert not complaints, complaints[:3]


def langsmith_complaints(log_path: Path) -> list[str]:
    """Log lines about LangSmith errors or connections (none without a key and offline)."""
    log = log_path.read_text(encoding="utf-8", errors="replace").lower()
    words = ("error", "warn", "fail", "connect")
    return [
        line for line in log.splitlines() if "langsmith" in line and any(w in line for w in words)
    ]
