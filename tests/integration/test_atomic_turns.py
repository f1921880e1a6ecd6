"""A question and its answer are stored in one write: a crash never leaves half a turn."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from collections.abc import Iterable
from contextlib import AsyncExitStack
from pathlib import Path

from langgraph.store.base import Op, PutOp, Result
from langgraph.store.sqlite.aio import AsyncSqliteStore

from finagent.config import Settings
from finagent.state import Turn
from finagent.storage.backend import open_persistence
from finagent.storage.history import ChatHistory, _namespace
from tests.conftest import REPO_ROOT
from tests.integration.turn_writer import CHATS, USER


def exchange(i: int) -> list[Turn]:
    return [Turn(role="user", content=f"q{i}"), Turn(role="assistant", content=f"a{i}")]


def assert_whole_turns(turns: list[Turn]) -> None:
    """Turns alternate question, answer, and the answer belongs to the question."""
    assert len(turns) % 2 == 0
    for question, answer in zip(turns[::2], turns[1::2], strict=True):
        assert question.role == "user" and answer.role == "assistant"
        assert answer.content.startswith(question.content.replace("вопрос", "ответ"))


class CountingStore(AsyncSqliteStore):
    """The real SQLite store, recording the puts of every batch it runs."""

    batches: list[int]

    async def abatch(self, ops: Iterable[Op]) -> list[Result]:
        ops = list(ops)
        self.batches.append(sum(isinstance(op, PutOp) for op in ops))
        return await super().abatch(ops)


async def test_an_exchange_is_one_store_write(tmp_path: Path):
    async with CountingStore.from_conn_string(str(tmp_path / "store.sqlite")) as store:
        assert isinstance(store, CountingStore)
        store.batches = []
        await store.setup()
        history = ChatHistory(store)
        await history.append("alice", "c1", exchange(1))
        assert store.batches == [1]
        await history.append("alice", "c1", exchange(2))
        assert await history.last("alice", "c1", 10) == exchange(1) + exchange(2)
        assert await history.last("alice", "c1", 2) == exchange(2)
        assert await history.last("alice", "c1", 3) == exchange(1)[1:] + exchange(2)


async def test_turns_stored_one_per_item_are_still_read(tmp_path: Path):
    async with AsyncSqliteStore.from_conn_string(str(tmp_path / "store.sqlite")) as store:
        await store.setup()
        for i, turn in enumerate(exchange(0)):  # the layout before exchanges
            await store.aput(_namespace("alice", "c1"), f"{i:020d}", turn.model_dump())
        history = ChatHistory(store)
        await history.append("alice", "c1", exchange(1))
        assert await history.last("alice", "c1", 10) == exchange(0) + exchange(1)


def kill_writer_when_ready(data_dir: Path, ready_after: int, *extra: str) -> None:
    """Start the writer (``extra``: a PostgreSQL URL), wait for its signal on stdout, then
    SIGKILL it."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.integration.turn_writer",
            str(data_dir),
            str(ready_after),
            *extra,
        ],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "ready"  # writers are mid-flight now
        os.kill(proc.pid, signal.SIGKILL)
    finally:
        proc.kill()
        proc.wait(timeout=30)
    assert proc.returncode == -signal.SIGKILL


async def test_no_half_turns_after_kill_9_under_load(tmp_path: Path):
    data_dir = tmp_path / "data"
    ready_after = 2 * CHATS * 25 + 1  # mid-exchange if a turn took two puts
    kill_writer_when_ready(data_dir, ready_after)

    settings = Settings(data_dir=data_dir, _env_file=None)  # type: ignore[call-arg]
    async with AsyncExitStack() as stack:
        history = ChatHistory((await open_persistence(settings, stack)).store)
        total = 0
        for n in range(CHATS):
            turns = await history.last(USER, f"chat{n}", 100_000)
            assert_whole_turns(turns)
            total += len(turns) // 2
    assert total >= ready_after // 2


async def test_on_postgresql_an_exchange_is_one_row(tmp_path: Path, postgres_url: str):
    import psycopg

    settings = Settings(  # type: ignore[call-arg]
        data_dir=tmp_path / "data", postgres_url=postgres_url, _env_file=None
    )
    async with AsyncExitStack() as stack:
        history = ChatHistory((await open_persistence(settings, stack)).store)
        await history.append("alice", "c1", exchange(1))
        await history.append("alice", "c1", exchange(2))
        assert await history.last("alice", "c1", 10) == exchange(1) + exchange(2)
    with psycopg.connect(postgres_url) as conn:
        row = conn.execute("SELECT count(*) FROM store WHERE prefix = 'chats.alice.c1'").fetchone()
    assert row is not None and row[0] == 2
