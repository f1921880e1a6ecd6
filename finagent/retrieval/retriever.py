"""Search over a collection: dense + Russian BM25 fused in Qdrant, sub-queries fused by RRF."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeVar

import numpy as np

from finagent.config import Settings
from finagent.language.glossary import glossary_terms
from finagent.observability import CHUNKS_RETRIEVED, SEARCH_SECONDS, get_logger
from finagent.retrieval import progress
from finagent.retrieval.embeddings import Embedder
from finagent.retrieval.fairness import background_embedding
from finagent.retrieval.index import (
    IndexPoint,
    SearchFilter,
    SearchMode,
    SearchQuery,
    VectorIndex,
)
from finagent.retrieval.ordering import TIE_MARGIN, stable_order
from finagent.retrieval.sparse import RussianBm25, SparseVec
from finagent.retrieval.user_terms import TermStats, count_terms
from finagent.state import Chunk, ChunkSource

log = get_logger("finagent.retrieval")

KB = "kb"
LAW = "law"  # the payload source of Tax Code passages
# the metadata flag of a Code passage only the details' «Норма НК РФ» may quote
# (:meth:`Retriever.code_extra`)
NORM_ONLY = "norm_only"
# its values: the Code-only searches that bring such passages, in the order their
# passages are added (and quoted, one «Норма НК РФ» each)
NORM_LEGS: tuple[SearchMode, ...] = ("dense", "sparse")
# the leg that matches meaning, not words: a lexical hit names the question's rare words
# by construction, so only a dense hit naming them is evidence of the asked subject
SEMANTIC_LEG: SearchMode = "dense"
# the leg of a question asking a time limit: the Code's points of the asked tax that state one
TIMED_LEG = "timed"
# passages of the timed leg's search read for the ones stating the kind of value asked
TIMED_POOL = 20
DOCS = "docs"
# collections of every user's chunks: the sparse IDF is counted per user (user_terms.py)
PER_USER_IDF = frozenset({DOCS})


@dataclass
class ChunkRecord:
    """A chunk to index: its id, text, and payload (user_id, document_id, source, ...)."""

    chunk_id: str
    text: str
    payload: dict[str, Any]


async def _nothing() -> list[Chunk]:
    return []


class Focus(Protocol):
    """The part of a collection a question is about (e.g. the chapter of the tax it names)."""

    def narrowed(self, flt: SearchFilter | None) -> list[SearchFilter]:
        """``flt`` narrowed to the focused parts (none when they cannot overlap)."""
        ...

    def demoted(self, chunk: Chunk) -> bool:
        """A result that belongs to a competing part (it goes after the others)."""
        ...

    def weight(self, chunk: Chunk) -> float:
        """The factor of a result's fused score (above 1: it states the kind of value asked)."""
        ...

    def kept(self, focused: Sequence[Sequence[Chunk]]) -> list[Chunk]:
        """Results of the focused searches (one list per narrowed filter) that must be
        among the results whatever the fusion ranks them."""
        ...


def reciprocal_rank_fusion(ranked_lists: Sequence[Sequence[Chunk]], k: int = 60) -> list[Chunk]:
    """Fuse ranked lists: score = sum of 1 / (k + rank); the best copy of a chunk is kept."""
    scores: dict[str, float] = {}
    best: dict[str, Chunk] = {}
    for ranked in ranked_lists:
        for rank, chunk in enumerate(ranked, start=1):
            scores[chunk.id] = scores.get(chunk.id, 0.0) + 1.0 / (k + rank)
            best.setdefault(chunk.id, chunk)
    fused = [best[cid].model_copy(update={"score": score}) for cid, score in scores.items()]
    return stable_order(fused, lambda c: c.score, lambda c: c.id)


def _with_kept(fused: list[Chunk], kept: Sequence[Chunk], limit: int) -> list[Chunk]:
    """``fused`` with each kept chunk it lacks in the last places (still ``limit`` long)."""
    missing = [c for c in kept if all(f.id != c.id for f in fused)][:limit]
    if not missing:
        return fused
    return fused[: max(limit - len(missing), 0)] + missing


def chunk_of_hit(chunk_id: str, score: float, payload: dict[str, Any]) -> Chunk:
    source: ChunkSource = payload.get("source", "kb")
    meta = {
        k: v
        for k, v in payload.items()
        if k not in {"text", "title", "source", "document_id", "chunk_id", "user_id"}
    }
    return Chunk(
        id=chunk_id,
        text=str(payload.get("text", "")),
        score=score,
        source=source,
        title=str(payload.get("title", "")),
        document_id=payload.get("document_id"),
        metadata=meta,
    )


_T = TypeVar("_T")


def _succeeded(mode: str, result: _T | BaseException) -> _T | None:
    """The result of an optional search leg, or None when it failed: the failure is logged
    by its class only (a client's message can echo its URL); a cancellation or an
    interrupt is no leg's failure and is raised."""
    if not isinstance(result, BaseException):
        return result
    if not isinstance(result, Exception):
        raise result
    log.warning("code_extra_failed", mode=mode, error=type(result).__name__)
    return None


class Retriever:
    """Embeds queries and passages and talks to the vector index."""

    def __init__(
        self, index: VectorIndex, embedder: Embedder, bm25: RussianBm25, settings: Settings
    ) -> None:
        self.index = index
        self.embedder = embedder
        self.bm25 = bm25
        self.settings = settings
        # (collection, user) -> (the user's point count when counted, its term statistics)
        self._user_terms: dict[tuple[str, str], tuple[int, TermStats]] = {}
        self._own_idf: set[str] = set()  # per-user collections checked (and rebuilt)
        self._migration = asyncio.Lock()

    def collection(self, name: str) -> str:
        return f"{self.settings.collection_prefix}_{name}"

    async def add(self, collection: str, records: list[ChunkRecord]) -> int:
        """Embed and upsert chunks (same chunk id = same point, so re-adding never duplicates).

        Chunks are embedded in batches of ``ingest_batch_size`` in the embedder's ingestion
        lane, each batch after any waiting question embedding; BM25 runs off the loop."""
        if not records:
            return 0
        name = self.collection(collection)
        await self._weights_per_user(collection)  # an old collection is rebuilt first
        await self.index.ensure_collection(
            name, self.embedder.dim, idf=collection not in PER_USER_IDF
        )
        self._forget_users(name, {str(r.payload.get("user_id", "")) for r in records})
        batch = max(1, self.settings.ingest_batch_size)
        bar = progress.current()
        if bar is not None:
            bar.expect(len(records))
            bar.stage = "embedding"
        token = background_embedding.set(True)
        try:
            for start in range(0, len(records), batch):
                part = records[start : start + batch]
                dense = await self.embedder.embed_passages([r.text for r in part])
                sparse = await asyncio.to_thread(
                    lambda texts: [self.bm25.embed_document(t) for t in texts],
                    [r.text for r in part],
                )
                points = [
                    IndexPoint(
                        chunk_id=r.chunk_id,
                        dense=dense[i].tolist(),
                        sparse=sparse[i],
                        payload={**r.payload, "text": r.text},
                    )
                    for i, r in enumerate(part)
                ]
                await self.index.upsert(name, points)
                if bar is not None:
                    bar.advance(len(part))
        finally:
            background_embedding.reset(token)
        return len(records)

    async def remove(self, collection: str, flt: SearchFilter) -> None:
        name = self.collection(collection)
        await self.index.delete(name, flt)
        if flt.user_id is None:
            self._user_terms = {k: v for k, v in self._user_terms.items() if k[0] != name}
        else:
            self._forget_users(name, {flt.user_id})

    def _forget_users(self, name: str, users: set[str]) -> None:
        for user in users:
            self._user_terms.pop((name, user), None)

    async def _weights_per_user(self, collection: str) -> bool:
        """Whether searches of ``collection`` weight the query by the asking user's own term
        statistics (a per-user collection). On first use, a per-user collection made before
        per-user statistics, with the index's collection-wide IDF, is rebuilt without it
        (every point kept; :meth:`VectorIndex.drop_idf`)."""
        if collection not in PER_USER_IDF:
            return False
        name = self.collection(collection)
        if name in self._own_idf:
            return True
        async with self._migration:
            if name not in self._own_idf:
                if await self.index.applies_idf(name):
                    started = time.perf_counter()
                    moved = await self.index.drop_idf(name)
                    log.info(
                        "per_user_idf_migration",
                        collection=name,
                        points=moved,
                        seconds=round(time.perf_counter() - started, 2),
                    )
                self._own_idf.add(name)
        return True

    async def user_terms(self, collection: str, user_id: str) -> TermStats:
        """The term statistics of ``user_id``'s chunks in ``collection``, counted once and
        again whenever the user's point count changes."""
        name = self.collection(collection)
        flt = SearchFilter(user_id=user_id)
        points = await self.index.count(name, flt)
        cached = self._user_terms.get((name, user_id))
        if cached is not None and cached[0] == points:
            return cached[1]
        payloads = await self.index.scroll(name, flt)
        texts = [str(p.get("text", "")) for p in payloads]
        stats = await asyncio.to_thread(count_terms, texts, self.bm25)
        self._user_terms[(name, user_id)] = (points, stats)
        return stats

    async def _query_sparse(
        self, collection: str, query: str, flt: SearchFilter | None, per_user: bool
    ) -> SparseVec:
        """The query's BM25 vector; weighted by the asking user's IDF where that applies."""
        sparse = self.bm25.embed_query(query)
        if not per_user or flt is None or flt.user_id is None or sparse.empty:
            return sparse
        return (await self.user_terms(collection, flt.user_id)).weighted(sparse)

    async def search(
        self,
        collection: str,
        query: str,
        *,
        flt: SearchFilter | None = None,
        top_k: int | None = None,
        mode: SearchMode | None = None,
        score_threshold: float | None = None,
    ) -> list[Chunk]:
        lists = await self._search_batch(
            collection, [query], flt=flt, top_k=top_k, mode=mode, score_threshold=score_threshold
        )
        return lists[0]

    async def nearest_similarity(self, collection: str, vector: np.ndarray) -> float:
        """The dense similarity of the passage of ``collection`` closest to ``vector`` (a
        query vector computed this turn), 0 for an empty collection."""
        request = SearchQuery(
            dense=np.asarray(vector, dtype=np.float32).tolist(),
            sparse=None,
            limit=1,
            prefetch_limit=1,
            mode="dense",
        )
        hits = await self.index.search(self.collection(collection), request)
        return max((h.score for h in hits), default=0.0)

    async def _search_batch(
        self,
        collection: str,
        queries: Sequence[str],
        *,
        flt: SearchFilter | None = None,
        top_k: int | None = None,
        mode: SearchMode | None = None,
        score_threshold: float | None = None,
        vectors: Mapping[str, np.ndarray] | None = None,
        filters: Sequence[SearchFilter | None] | None = None,
    ) -> list[list[Chunk]]:
        """One embedding call for the queries without a precomputed vector, then the index
        searches run concurrently. ``vectors`` maps a query text to its e5 ``query:``
        vector already computed this turn (the router's), so it is not embedded twice.
        ``filters``, one per query, replace ``flt`` (a query may repeat with another one)."""
        mode = mode or self.settings.search_mode
        started = time.perf_counter()
        dense: list[list[float] | None] = [None] * len(queries)
        if mode != "sparse":
            known = vectors or {}
            missing = list(dict.fromkeys(q for q in queries if q not in known))
            fresh: dict[str, np.ndarray] = {}
            if missing:
                computed = await self.embedder.embed_queries(missing)
                fresh = dict(zip(missing, computed, strict=True))
            dense = [np.asarray(known.get(q, fresh.get(q))).tolist() for q in queries]
        threshold = self.settings.score_threshold if score_threshold is None else score_threshold
        limit = top_k or self.settings.top_k
        query_filters = [(filters[i] if filters is not None else flt) for i in range(len(queries))]
        sparse: list[SparseVec | None] = [None] * len(queries)
        if mode != "dense":
            per_user = await self._weights_per_user(collection)
            sparse = [
                await self._query_sparse(collection, q, query_filters[i], per_user)
                for i, q in enumerate(queries)
            ]
        requests = [
            SearchQuery(
                dense=dense[i],
                sparse=sparse[i],
                limit=limit + TIE_MARGIN,
                prefetch_limit=max(self.settings.prefetch_limit, limit + TIE_MARGIN),
                mode=mode,
                rrf_k=self.settings.rrf_k,
                score_threshold=threshold or None,
                filter=query_filters[i] or SearchFilter(),
            )
            for i, q in enumerate(queries)
        ]
        name = self.collection(collection)
        results = await asyncio.gather(*(self.index.search(name, r) for r in requests))
        SEARCH_SECONDS.labels(collection=collection).observe(time.perf_counter() - started)
        CHUNKS_RETRIEVED.labels(collection=collection).inc(sum(min(len(h), limit) for h in results))
        kept = [stable_order(h, lambda x: x.score, lambda x: x.chunk_id)[:limit] for h in results]
        return [[chunk_of_hit(h.chunk_id, h.score, h.payload) for h in hits] for hits in kept]

    async def code_extra(
        self,
        collection: str,
        query: str,
        have: Sequence[Chunk],
        *,
        limit: int,
        lexical: int = 0,
        vectors: Mapping[str, np.ndarray] | None = None,
        focus: Focus | None = None,
        timed: int = 0,
        timed_focus: Focus | None = None,
    ) -> list[Chunk]:
        """Up to ``limit`` Tax Code passages of a dense search of the Code alone that
        ``have`` lacks, best first, then up to ``lexical`` of a BM25 search of the Code
        alone that neither has (a competing tax's chapter is skipped in both), flagged
        :data:`NORM_ONLY` and scored below ``have``'s last (they sort after it).

        The fused hybrid search lets the knowledge base's sections fill the places, and a
        Code point the dense model finds first is often not among them: the Code's lexical
        leg matches the question's everyday words to other points. The Code-only BM25
        search finds what the dense model misses when the question names the point's own
        rare terms (a term of art, an exact phrase). The details may quote these passages'
        sentences as «Норма НК РФ»; they never lead the answer. A leg that fails (its index
        unavailable, the Code's BM25 vectors absent) adds no passage and logs a warning:
        the extra passages are optional, the turn's search stands without them.

        ``timed`` more (flagged :data:`TIMED_LEG`) when ``timed_focus`` is given (a question
        asking a time limit): a dense and a lexical search of the Code inside the chapters
        of the taxes the question names (the whole Code when it names none), whose best
        :data:`TIMED_POOL` each are fused by rank (RRF), of which only the passages
        ``timed_focus`` weighs up count (those stating a time limit in the Code's words),
        the heaviest first (those stating the asked action's time limit; a point both
        searches rank high before one only one of them does): «когда сдавать расчет по
        взносам» shares its words with the
        points on what the report holds more than with the one that says by when it is
        filed, and with the payment term's point as much as with the filing one."""
        if (limit < 1 and lexical < 1 and timed < 1) or not query.strip():
            return []
        wanted = dict(zip(NORM_LEGS, (limit, lexical), strict=True))
        modes = [m for m in NORM_LEGS if wanted[m] > 0]
        timed_search = (
            self._timed(collection, query, timed_focus, vectors)
            if timed > 0 and timed_focus is not None
            else _nothing()
        )
        found, timed_found = await asyncio.gather(
            asyncio.gather(
                *(
                    self._search_batch(
                        collection,
                        [query.strip()],
                        flt=SearchFilter(source=LAW),
                        top_k=max(limit, lexical) + len(have) + limit,
                        mode=mode,
                        vectors=vectors,
                    )
                    for mode in modes
                ),
                return_exceptions=True,
            ),
            timed_search,
        )
        seen = {c.id for c in have}
        picked: list[tuple[str, Chunk]] = []
        for mode, result in zip(modes, found, strict=True):
            # an extra passage is optional: a failing leg adds none, the search goes on
            lists = _succeeded(mode, result)
            if lists is None:
                continue
            fresh = [
                c for c in lists[0] if c.id not in seen and (focus is None or not focus.demoted(c))
            ][: wanted[mode]]
            seen.update(c.id for c in fresh)
            picked += [(mode, c) for c in fresh]
        picked += [(TIMED_LEG, c) for c in timed_found if c.id not in seen][:timed]
        floor = min((c.score for c in have), default=1.0) / 2
        return [
            c.model_copy(update={"score": floor, "metadata": {**c.metadata, NORM_ONLY: mode}})
            for mode, c in picked
        ]

    async def _timed(
        self,
        collection: str,
        query: str,
        focus: Focus,
        vectors: Mapping[str, np.ndarray] | None,
    ) -> list[Chunk]:
        """The passages of the timed leg (see :meth:`code_extra`), best first; none when
        its search fails (logged: the leg is optional)."""
        flt = next(iter(focus.narrowed(SearchFilter(source=LAW))), SearchFilter(source=LAW))
        # the dense search, and a lexical one in the Code's terms of the question's words
        # («РСВ» -> «расчет по страховым взносам»): it finds a point naming the report
        searches: tuple[tuple[SearchMode, str], ...] = (
            ("dense", query.strip()),
            ("sparse", " ".join([query, *glossary_terms(query)])),
        )
        results = await asyncio.gather(
            *(
                self._search_batch(
                    collection, [text], flt=flt, top_k=TIMED_POOL, mode=mode, vectors=vectors
                )
                for mode, text in searches
            ),
            return_exceptions=True,
        )
        lists: list[list[list[Chunk]]] = []
        for (mode, _), result in zip(searches, results, strict=True):
            # one failing search drops only itself: the other one's passages stay
            if (kept := _succeeded(f"{TIMED_LEG}:{mode}", result)) is not None:
                lists.append(kept)
        # one order of both searches' ranks (a passage both rank high goes first), not the
        # lexical passages after all the dense ones
        pool = reciprocal_rank_fusion([found[0] for found in lists], k=self.settings.rrf_k)
        found = [c for c in pool if focus.weight(c) > 1.0 and not focus.demoted(c)]
        # the asked action's time limit before the chapter's others (a stable sort)
        return sorted(found, key=focus.weight, reverse=True)

    async def search_many(
        self,
        collection: str,
        queries: Sequence[str],
        *,
        flt: SearchFilter | None = None,
        top_k: int | None = None,
        vectors: Mapping[str, np.ndarray] | None = None,
        focus: Focus | None = None,
    ) -> tuple[list[Chunk], dict[str, Any]]:
        """Search every sub-query and fuse the lists with RRF (k from settings, 60).

        ``vectors``: query vectors computed earlier in the turn, by query text.
        ``focus``: the first sub-query is searched once more inside each focused part and
        fused with the others; results of a competing part go last
        (:mod:`finagent.retrieval.tax_focus`)."""
        unique = list(dict.fromkeys(q.strip() for q in queries if q and q.strip()))
        limit = top_k or self.settings.top_k
        narrowed = focus.narrowed(flt) if focus is not None and unique else []
        legs = unique + unique[:1] * len(narrowed)
        filters = [flt] * len(unique) + list(narrowed)
        lists = (
            await self._search_batch(
                collection, legs, top_k=limit, vectors=vectors, filters=filters
            )
            if legs
            else []
        )
        fused = reciprocal_rank_fusion(lists, k=self.settings.rrf_k)
        if focus is not None:  # stable sorts: the order within each group stays
            weighted = {c.id: c.score * focus.weight(c) for c in fused}
            fused = sorted(fused, key=lambda c: -weighted[c.id])
            fused = sorted(fused, key=focus.demoted)
        fused = fused[:limit]
        if focus is not None:
            fused = _with_kept(fused, focus.kept(lists[len(unique) :]), limit)
        debug: dict[str, Any] = {
            "queries": unique,
            "per_query": {q: [c.id for c in lst] for q, lst in zip(unique, lists, strict=False)},
            "fused": [{"id": c.id, "score": round(c.score, 5)} for c in fused],
            "precomputed_vectors": [q for q in unique if vectors and q in vectors],
        }
        if narrowed:
            debug["focused"] = [[c.id for c in lst] for lst in lists[len(unique) :]]
        log.info("query_expansion", collection=collection, queries=len(unique), hits=len(fused))
        return fused, debug
