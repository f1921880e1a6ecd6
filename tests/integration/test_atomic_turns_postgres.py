"""Atomic turns on PostgreSQL under real kill -9: a writer process appending exchanges to
several chats at once through finagent's PostgreSQL store is SIGKILLed mid-flight, three
times; each restart finds only whole turns and every exchange committed before the kill."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path

from finagent.config import Settings
from finagent.storage.backend import open_persistence
from finagent.storage.history import ChatHistory
from tests.integration.test_atomic_turns import assert_whole_turns, kill_writer_when_ready
from tests.integration.turn_writer import CHATS, USER

ROUNDS = (2 * CHATS * 10 + 1, 2 * CHATS * 15 + 3, 2 * CHATS * 20 + 1)


async def stored_exchanges(settings: Settings) -> int:
    """Exchanges in the store after a restart; fails on any half turn."""
    async with AsyncExitStack() as stack:
        history = ChatHistory((await open_persistence(settings, stack)).store)
        total = 0
        for n in range(CHATS):
            turns = await history.last(USER, f"chat{n}", 100_000)
            assert_whole_turns(turns)
            total += len(turns) // 2
    return total


async def test_no_half_turns_on_postgresql_after_kill_9_under_load(
    tmp_path: Path, postgres_url: str
) -> None:
    import psycopg

    data_dir = tmp_path / "data"
    settings = Settings(  # type: ignore[call-arg]
        data_dir=data_dir, postgres_url=postgres_url, _env_file=None
    )
    committed = 0
    for ready_after in ROUNDS:
        kill_writer_when_ready(data_dir, ready_after, postgres_url)
        committed += ready_after  # one put per exchange, each committed before "ready"
        assert await stored_exchanges(settings) >= committed  # nothing completed is lost
    with psycopg.connect(postgres_url) as conn:
        rows = conn.execute("SELECT value FROM store WHERE prefix LIKE 'chats.%'").fetchall()
    assert rows and all(len(value["turns"]) == 2 for (value,) in rows)  # one row, one exchange
