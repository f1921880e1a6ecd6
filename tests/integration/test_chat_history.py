"""The chat history (the one conversation memory) reads the last turns with a bounded,
newest-first query on the real stores, exchanges written within one second included."""

from __future__ import annotations

from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

from langgraph.store.base import BaseStore

from finagent.config import Settings
from finagent.state import Turn
from finagent.storage.backend import open_persistence
from finagent.storage.history import PAGE_MARGIN, ChatHistory, _namespace
from tests.integration.test_postgres_backend import make_settings


class CountingStore:
    """The real store, counting the items its searches return."""

    def __init__(self, store: BaseStore) -> None:
        self.store = store
        self.read = 0

    async def asearch(self, *args: Any, **kwargs: Any) -> Any:
        items = await self.store.asearch(*args, **kwargs)
        self.read += len(items)
        return items

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)


def exchange(i: int) -> list[Turn]:
    return [Turn(role="user", content=f"q{i}"), Turn(role="assistant", content=f"a{i}")]


async def check_newest_turns(store: BaseStore, chats: int = 40) -> CountingStore:
    counting = CountingStore(store)
    history = ChatHistory(counting)  # type: ignore[arg-type]
    # a chat from before exchanges were stored whole: one turn per item
    legacy = _namespace("alice", "old")
    await store.aput(
        legacy, "00000000000000000001-a", {"role": "user", "content": "q"}, index=False
    )
    await store.aput(
        legacy, "00000000000000000002-b", {"role": "assistant", "content": "a"}, index=False
    )
    for i in range(chats):  # far faster than one per second: SQLite's timestamps tie
        await history.append("alice", "c1", exchange(i))
    await history.append("bob", "c1", exchange(999))
    assert await history.last("alice", "c1", 4) == exchange(chats - 2) + exchange(chats - 1)
    assert await history.last("alice", "c1", 3) == exchange(chats - 2)[1:] + exchange(chats - 1)
    assert await history.last("alice", "old", 10) == [
        Turn(role="user", content="q"),
        Turn(role="assistant", content="a"),
    ]
    assert await history.last("bob", "c1", 10) == exchange(999)
    return counting


async def test_sqlite_history_keeps_the_newest_turns_in_order(tmp_path: Path) -> None:
    settings = Settings(data_dir=tmp_path / "data", _env_file=None)  # type: ignore[call-arg]
    settings.data_dir.mkdir(parents=True)
    async with AsyncExitStack() as stack:
        persistence = await open_persistence(settings, stack)
        await check_newest_turns(persistence.store)


async def test_postgres_history_reads_one_page_not_the_whole_chat(
    tmp_path: Path, postgres_url: str
) -> None:
    settings = make_settings(tmp_path / "data", postgres_url)
    async with AsyncExitStack() as stack:
        persistence = await open_persistence(settings, stack)
        counting = await check_newest_turns(persistence.store, chats=60)
        counting.read = 0
        await ChatHistory(counting).last("alice", "c1", 6)  # type: ignore[arg-type]
        assert counting.read <= 6 + PAGE_MARGIN  # microsecond timestamps: one page
