"""LangChain interop: our embeddings, BM25 and indexes as LangChain components.

* :class:`LcEmbeddings` / :class:`LcSparseEmbeddings` wrap our :class:`Embedder` and
  :class:`RussianBm25` as ``langchain_core`` / ``langchain_qdrant`` embeddings;
* :func:`qdrant_vector_store` gives a ``langchain_qdrant.QdrantVectorStore`` over a
  collection written by our ingestion (server backend; named vectors ``dense`` and
  ``bm25``, flat payload with ``text``); over the documents collection it is bound to
  one user, whose chunks alone weight the BM25 query (as :class:`Retriever` does);
* :class:`EdgeVectorStore` is a ``VectorStore`` over any :class:`VectorIndex` (made
  for the embedded Qdrant Edge backend) with a per-store user filter, so
  ``as_retriever()`` works for the KB and for one user's documents.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
from collections.abc import Coroutine, Iterable
from typing import Any, TypeVar

from langchain_core.documents import Document
from langchain_core.embeddings import Embeddings
from langchain_core.vectorstores import VectorStore
from langchain_qdrant import QdrantVectorStore, RetrievalMode, SparseEmbeddings, SparseVector
from qdrant_client import QdrantClient
from qdrant_client import models as qm

from finagent.retrieval.embeddings import Embedder
from finagent.retrieval.index import DENSE, SPARSE, SearchFilter, SearchMode
from finagent.retrieval.retriever import PER_USER_IDF, ChunkRecord, Retriever
from finagent.retrieval.sparse import RussianBm25
from finagent.retrieval.user_terms import TermStats, count_terms

T = TypeVar("T")
_CONTENT_KEY = "text"
_HIDDEN = {"text"}


def _run_sync(coro: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine from sync code, also when the caller is inside an event loop."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(coro)
    with concurrent.futures.ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, coro).result()


class LcEmbeddings(Embeddings):
    """Our dense :class:`Embedder` (e5 prefixes handled) as LangChain ``Embeddings``."""

    def __init__(self, embedder: Embedder) -> None:
        self.embedder = embedder

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return _run_sync(self.aembed_documents(texts))

    def embed_query(self, text: str) -> list[float]:
        return _run_sync(self.aembed_query(text))

    async def aembed_documents(self, texts: list[str]) -> list[list[float]]:
        return [row.tolist() for row in await self.embedder.embed_passages(list(texts))]

    async def aembed_query(self, text: str) -> list[float]:
        return [float(x) for x in (await self.embedder.embed_queries([text]))[0]]


class LcSparseEmbeddings(SparseEmbeddings):
    """Russian BM25 as ``langchain_qdrant`` sparse embeddings (IDF is applied by Qdrant)."""

    def __init__(self, bm25: RussianBm25) -> None:
        self.bm25 = bm25

    def embed_documents(self, texts: list[str]) -> list[SparseVector]:
        out = []
        for text in texts:
            vec = self.bm25.embed_document(text)
            out.append(SparseVector(indices=vec.indices, values=vec.values))
        return out

    def embed_query(self, text: str) -> SparseVector:
        vec = self.bm25.embed_query(text)
        return SparseVector(indices=vec.indices, values=vec.values)


class _FlatPayloadQdrantVectorStore(QdrantVectorStore):
    """Our payload is flat (``text`` + metadata fields), not ``page_content``/``metadata``."""

    @classmethod
    def _document_from_point(
        cls,
        scored_point: Any,
        collection_name: str,
        content_payload_key: str,
        metadata_payload_key: str,
    ) -> Document:
        payload = dict(scored_point.payload or {})
        metadata = {k: v for k, v in payload.items() if k not in _HIDDEN}
        metadata["_id"] = scored_point.id
        metadata["_collection_name"] = collection_name
        return Document(page_content=str(payload.get(content_payload_key, "")), metadata=metadata)


class _UserIdfSparseEmbeddings(LcSparseEmbeddings):
    """Russian BM25 whose query terms are weighted by the IDF over one user's chunks of a
    collection made without the collection-wide IDF (:mod:`finagent.retrieval.user_terms`);
    the statistics are recounted when the user's point count changes."""

    def __init__(
        self, bm25: RussianBm25, client: QdrantClient, collection: str, user_id: str
    ) -> None:
        super().__init__(bm25)
        self.client = client
        self.collection = collection
        self.user_id = user_id
        self._counted: tuple[int, TermStats] | None = None

    def stats(self) -> TermStats:
        flt = user_filter(self.user_id)
        points = self.client.count(self.collection, count_filter=flt, exact=True).count
        if self._counted is not None and self._counted[0] == points:
            return self._counted[1]
        texts: list[str] = []
        offset: Any = None
        while True:
            records, offset = self.client.scroll(
                self.collection,
                scroll_filter=flt,
                limit=1_000,
                offset=offset,
                with_payload=[_CONTENT_KEY],
                with_vectors=False,
            )
            texts.extend(str((r.payload or {}).get(_CONTENT_KEY, "")) for r in records)
            if offset is None or not records:
                break
        stats = count_terms(texts, self.bm25)
        self._counted = (points, stats)
        return stats

    def embed_query(self, text: str) -> SparseVector:
        vec = self.bm25.embed_query(text)
        if not vec.empty:
            vec = self.stats().weighted(vec)
        return SparseVector(indices=vec.indices, values=vec.values)


class _UserQdrantVectorStore(_FlatPayloadQdrantVectorStore):
    """Every search is restricted to one user's chunks (a per-call filter narrows it)."""

    bound_user: str = ""

    def _bound(self, flt: qm.Filter | None) -> qm.Filter:
        own = user_filter(self.bound_user)
        return own if flt is None else qm.Filter(must=[own, flt])

    def similarity_search_with_score(  # type: ignore[override]
        self, query: str, k: int = 4, filter: qm.Filter | None = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        return super().similarity_search_with_score(query, k, self._bound(filter), **kwargs)

    def similarity_search_with_score_by_vector(  # type: ignore[override]
        self, embedding: list[float], k: int = 4, filter: qm.Filter | None = None, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        return super().similarity_search_with_score_by_vector(
            embedding, k, self._bound(filter), **kwargs
        )

    def max_marginal_relevance_search_with_score_by_vector(  # type: ignore[override]
        self,
        embedding: list[float],
        k: int = 4,
        fetch_k: int = 20,
        lambda_mult: float = 0.5,
        filter: qm.Filter | None = None,
        **kwargs: Any,
    ) -> list[tuple[Document, float]]:
        return super().max_marginal_relevance_search_with_score_by_vector(
            embedding, k, fetch_k, lambda_mult, self._bound(filter), **kwargs
        )


def _applies_idf(client: QdrantClient, collection: str) -> bool:
    params = (client.get_collection(collection).config.params.sparse_vectors or {}).get(SPARSE)
    return params is not None and params.modifier == qm.Modifier.IDF


def qdrant_vector_store(
    client: QdrantClient,
    collection: str,
    embedder: Embedder,
    bm25: RussianBm25 | None = None,
    mode: SearchMode = "hybrid",
    user_id: str | None = None,
) -> QdrantVectorStore:
    """A ``QdrantVectorStore`` over a collection filled by our ingestion.

    Filters are ``qdrant_client.models.Filter`` on the flat payload, e.g.
    ``FieldCondition(key="user_id", match=MatchValue(value=...))``.

    ``user_id`` binds the store to one user's chunks of a collection of every user's
    documents (made without the collection-wide IDF): every search is restricted to them
    and the BM25 query is weighted by the IDF over them only, so other users' uploads
    never change the results. Such a collection cannot be searched by BM25 without a
    user; a collection that still has the collection-wide IDF (made before per-user
    statistics, rebuilt when finagent first uses it) cannot be bound to a user.
    """
    sparse_used = mode != "dense"
    per_user = sparse_used and not _applies_idf(client, collection)
    if user_id is not None and not per_user and sparse_used:
        raise ValueError(
            f"{collection!r} weights BM25 by its collection-wide IDF (made before per-user "
            "statistics); open it with finagent once to rebuild it"
        )
    if per_user and user_id is None:
        raise ValueError(f"{collection!r} is weighted per user: pass user_id")
    words = bm25 or RussianBm25()
    sparse: LcSparseEmbeddings | None = None
    if sparse_used:
        sparse = (
            _UserIdfSparseEmbeddings(words, client, collection, user_id)
            if user_id is not None
            else LcSparseEmbeddings(words)
        )
    retrieval_mode = {
        "hybrid": RetrievalMode.HYBRID,
        "dense": RetrievalMode.DENSE,
        "sparse": RetrievalMode.SPARSE,
    }[mode]
    store_class = _UserQdrantVectorStore if user_id is not None else _FlatPayloadQdrantVectorStore
    store = store_class(
        client=client,
        collection_name=collection,
        embedding=LcEmbeddings(embedder) if mode != "sparse" else None,
        retrieval_mode=retrieval_mode,
        vector_name=DENSE,
        sparse_embedding=sparse,
        sparse_vector_name=SPARSE,
        content_payload_key=_CONTENT_KEY,
        distance=qm.Distance.COSINE,
    )
    if isinstance(store, _UserQdrantVectorStore) and user_id is not None:
        store.bound_user = user_id
    return store


def user_filter(user_id: str) -> qm.Filter:
    """Qdrant filter for one user's documents (for :func:`qdrant_vector_store`)."""
    return qm.Filter(must=[qm.FieldCondition(key="user_id", match=qm.MatchValue(value=user_id))])


def _as_filter(value: SearchFilter | dict[str, Any] | None) -> SearchFilter | None:
    if value is None or isinstance(value, SearchFilter):
        return value
    data = dict(value)
    return SearchFilter(
        user_id=data.pop("user_id", None),
        document_ids=data.pop("document_ids", None),
        source=data.pop("source", None),
        extra=data,
    )


def _merge(base: SearchFilter, extra: SearchFilter | None) -> SearchFilter:
    if extra is None:
        return base
    merged = SearchFilter(
        user_id=base.user_id,
        document_ids=base.document_ids,
        source=base.source,
        extra=dict(base.extra),
    )
    if extra.user_id is not None:
        if base.user_id is not None and extra.user_id != base.user_id:
            raise ValueError("the store is bound to another user")
        merged.user_id = extra.user_id
    merged.document_ids = (
        extra.document_ids if extra.document_ids is not None else base.document_ids
    )
    merged.source = extra.source if extra.source is not None else base.source
    merged.extra.update(extra.extra)
    return merged


class EdgeVectorStore(VectorStore):
    """A LangChain ``VectorStore`` over our index (Qdrant Edge by default).

    ``search_filter`` is applied to every search (e.g. ``SearchFilter(user_id=...)``
    binds the store to one user's documents; a per-call ``filter`` cannot widen it).
    Sync methods run the async ones to completion; prefer the async API in servers.
    """

    def __init__(
        self,
        retriever: Retriever,
        collection: str,
        search_filter: SearchFilter | None = None,
        mode: SearchMode | None = None,
    ) -> None:
        self.retriever = retriever
        self.collection_name = collection
        self.search_filter = search_filter or SearchFilter()
        self.mode = mode
        self._embeddings = LcEmbeddings(retriever.embedder)

    @property
    def embeddings(self) -> Embeddings:
        return self._embeddings

    # --- search ------------------------------------------------------------------------
    async def asimilarity_search_with_score(
        self, query: str, k: int = 4, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        flt = _merge(self.search_filter, _as_filter(kwargs.get("filter")))
        chunks = await self.retriever.search(
            self.collection_name, query, flt=flt, top_k=k, mode=kwargs.get("mode") or self.mode
        )
        docs = []
        for chunk in chunks:
            metadata = {
                **chunk.metadata,
                "id": chunk.id,
                "source": chunk.source,
                "title": chunk.title,
                "document_id": chunk.document_id,
            }
            docs.append(
                (Document(page_content=chunk.text, metadata=metadata, id=chunk.id), chunk.score)
            )
        return docs

    async def asimilarity_search(self, query: str, k: int = 4, **kwargs: Any) -> list[Document]:
        return [doc for doc, _ in await self.asimilarity_search_with_score(query, k, **kwargs)]

    def similarity_search_with_score(
        self, query: str, k: int = 4, **kwargs: Any
    ) -> list[tuple[Document, float]]:
        return _run_sync(self.asimilarity_search_with_score(query, k, **kwargs))

    def similarity_search(self, query: str, k: int = 4, **kwargs: Any) -> list[Document]:
        return _run_sync(self.asimilarity_search(query, k, **kwargs))

    def _select_relevance_score_fn(self) -> Any:
        return lambda score: score  # RRF / cosine scores, already "higher is better"

    # --- writes ------------------------------------------------------------------------
    async def aadd_texts(
        self,
        texts: Iterable[str],
        metadatas: list[dict[str, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        if self.search_filter.user_id is not None and self.collection_name not in PER_USER_IDF:
            # a shared collection (the KB) weights terms over all its points and is searched
            # by every user: one user's texts there would change, and show in, others' results
            raise ValueError(
                f"a store bound to a user adds texts to {sorted(PER_USER_IDF)} only, "
                f"not to the shared {self.collection_name!r}"
            )
        items = list(texts)
        metas = metadatas or [{} for _ in items]
        chunk_ids = ids or [
            "lc-" + hashlib.sha256(t.encode("utf-8")).hexdigest()[:24] for t in items
        ]
        bound = {k: v for k, v in (("user_id", self.search_filter.user_id),) if v is not None}
        records = [
            ChunkRecord(chunk_id=cid, text=text, payload={**meta, **bound})
            for cid, text, meta in zip(chunk_ids, items, metas, strict=True)
        ]
        await self.retriever.add(self.collection_name, records)
        return chunk_ids

    def add_texts(
        self,
        texts: Iterable[str],
        metadatas: list[dict[str, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> list[str]:
        return _run_sync(self.aadd_texts(texts, metadatas, ids=ids, **kwargs))

    @classmethod
    def from_texts(
        cls,
        texts: list[str],
        embedding: Embeddings,
        metadatas: list[dict[str, Any]] | None = None,
        *,
        ids: list[str] | None = None,
        **kwargs: Any,
    ) -> EdgeVectorStore:
        """Build from an existing ``retriever=`` and ``collection=`` (our embedder is used)."""
        retriever: Retriever = kwargs["retriever"]
        store = cls(retriever, kwargs.get("collection", "kb"), kwargs.get("search_filter"))
        store.add_texts(texts, metadatas, ids=ids)
        return store
