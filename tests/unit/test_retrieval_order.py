"""Search results come back in one order, whatever order the index returns tied hits in."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from finagent.config import Settings
from finagent.retrieval.index import SearchFilter, SearchHit, SearchQuery
from finagent.retrieval.ordering import id_key, stable_order
from finagent.retrieval.retriever import Retriever, reciprocal_rank_fusion
from finagent.retrieval.sparse import RussianBm25
from finagent.state import Chunk


class ShufflingIndex:
    """Returns the same hits on every search, tied scores in a new random order each time
    (as an index breaking ties by hash order does), cut to the asked limit."""

    backend = "fake"

    def __init__(self, hits: list[tuple[str, float]], seed: int) -> None:
        self.hits = hits
        self.rng = random.Random(seed)
        self.asked: list[int] = []

    async def search(self, collection: str, query: SearchQuery) -> list[SearchHit]:
        self.asked.append(query.limit)
        hits = [SearchHit(cid, score, {"text": cid}) for cid, score in self.hits]
        self.rng.shuffle(hits)
        hits.sort(key=lambda h: -h.score)  # stable: ties stay shuffled
        return hits[: query.limit]

    async def ensure_collection(self, collection: str, dim: int) -> None: ...
    async def upsert(self, collection: str, points: Any) -> None: ...
    async def delete(self, collection: str, flt: SearchFilter) -> None: ...
    async def count(self, collection: str, flt: SearchFilter | None = None) -> int:
        return len(self.hits)

    async def scroll(self, collection: str, flt: SearchFilter, limit: int = 100_000) -> list[Any]:
        return []

    async def close(self) -> None: ...


# sections of one article tie (RRF of swapped ranks); the tie straddles the cut at 3
HITS = [("kb-7:0", 0.5), ("kb-7:3", 0.03), ("kb-7:10", 0.03), ("kb-7:1", 0.03), ("kb-2:0", 0.01)]


def _search(seed: int) -> list[str]:
    index = ShufflingIndex(HITS, seed)
    retriever = Retriever(index, embedder=None, bm25=RussianBm25(), settings=Settings())  # type: ignore[arg-type]
    chunks = asyncio.run(retriever.search("kb", "вклад", top_k=3, mode="sparse"))
    assert index.asked[0] > 3  # the index is asked past the cut, so the tie is ours
    return [c.id for c in chunks]


def test_tied_hits_come_back_in_one_order_whatever_the_index_returns() -> None:
    orders = {tuple(_search(seed)) for seed in range(12)}
    assert orders == {("kb-7:0", "kb-7:1", "kb-7:3")}


def test_fused_ties_are_ordered_by_natural_chunk_id() -> None:
    def chunk(cid: str) -> Chunk:
        return Chunk(id=cid, text=cid)

    # each chunk first in one list: equal fused scores
    fused = reciprocal_rank_fusion([[chunk("doc:10")], [chunk("doc:2")], [chunk("doc:1")]])
    assert [c.id for c in fused] == ["doc:1", "doc:2", "doc:10"]
    swapped = reciprocal_rank_fusion([[chunk("doc:2")], [chunk("doc:1")], [chunk("doc:10")]])
    assert [c.id for c in swapped] == ["doc:1", "doc:2", "doc:10"]


def test_natural_order_of_ids_and_scores_equal_to_their_last_bits() -> None:
    assert sorted(["st88#12", "st88#2", "st88#1"], key=id_key) == ["st88#1", "st88#2", "st88#12"]
    items = [("b", 0.1 + 0.2), ("a", 0.3)]  # 0.30000000000000004 and 0.3 tie
    assert [i for i, _ in stable_order(items, lambda x: x[1], lambda x: x[0])] == ["a", "b"]


class _UnitIndex:
    """Scrolls the pieces of one invented unit."""

    def __init__(self) -> None:
        self.rows = [
            {"chunk_id": f"u.art9.p3#{i}", "unit_id": "u.art9.p3", "chunk_index": i, "text": t}
            for i, t in enumerate(
                ["Проверка идёт четыре месяца.", "Срок может быть продлен до семи месяцев."]
            )
        ]
        self.scrolled: list[Any] = []

    async def scroll(self, collection: str, flt: SearchFilter, limit: int = 100_000) -> list[Any]:
        self.scrolled.append(flt.conditions())
        return [r for r in self.rows if r["unit_id"] == flt.conditions().get("unit_id")]


class _Retriever:
    def __init__(self) -> None:
        self.index = _UnitIndex()

    def collection(self, name: str) -> str:
        return name


def _law(cid: str, index: int, score: float) -> Chunk:
    meta = {"unit_id": cid.split("#")[0], "chunk_index": index}
    return Chunk(id=cid, text="…", score=score, source="law", metadata=meta)


def test_a_later_piece_of_a_unit_brings_the_piece_before_it() -> None:
    from finagent.retrieval.unit_pieces import with_preceding_pieces

    retriever = _Retriever()
    later = _law("u.art9.p3#1", 1, 0.03)
    other = Chunk(id="kb-1:2", text="…", score=0.02, source="kb", metadata={"chunk_index": 2})
    out = asyncio.run(with_preceding_pieces(retriever, "kb", [later, other]))  # type: ignore[arg-type]
    assert [c.id for c in out] == ["u.art9.p3#1", "u.art9.p3#0", "kb-1:2"]
    assert out[1].text == "Проверка идёт четыре месяца." and out[1].score == later.score
    # a first piece, or one whose predecessor is already there, needs nothing
    first = _law("u.art9.p3#0", 0, 0.05)
    assert asyncio.run(with_preceding_pieces(retriever, "kb", [first, later])) == [first, later]  # type: ignore[arg-type]
    assert len(retriever.index.scrolled) == 1
