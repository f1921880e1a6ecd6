"""Server backend: a Qdrant server or cluster through qdrant-client's async client.

``location=":memory:"`` gives qdrant-client's in-process mode, used by tests and
benchmarks with exactly the same code path as a real server.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any, cast

from qdrant_client import AsyncQdrantClient
from qdrant_client import models as qm

from finagent.retrieval.index import (
    DENSE,
    INDEXED_FIELDS,
    SPARSE,
    IndexPoint,
    IndexUnavailableError,
    SearchFilter,
    SearchHit,
    SearchQuery,
    point_uuid,
)

# the collection without the collection-wide IDF that a rebuild (drop_idf) fills; the
# old collection's name then becomes an alias of it
_REBUILT = "__per_user"
_COPY_PAGE = 512


def _server_filter(flt: SearchFilter) -> qm.Filter | None:
    must: list[Any] = []
    for key, value in flt.conditions().items():
        match: Any = (
            qm.MatchAny(any=list(value)) if isinstance(value, list) else qm.MatchValue(value=value)
        )
        must.append(qm.FieldCondition(key=key, match=match))
    return qm.Filter(must=must) if must else None


class QdrantServerIndex:
    """Qdrant server/cluster (``FINAGENT_QDRANT_URL``) or qdrant-client in-process mode."""

    backend = "qdrant"

    def __init__(
        self, url: str | None = None, api_key: str | None = None, location: str | None = None
    ) -> None:
        self._in_process = location is not None
        if location is not None:
            self._client = AsyncQdrantClient(location=location)
        else:
            self._client = AsyncQdrantClient(url=url, api_key=api_key, timeout=10)
        self._known: set[str] = set()
        self._lock = asyncio.Lock()

    @property
    def client(self) -> AsyncQdrantClient:
        return self._client

    async def _exists(self, collection: str) -> bool:
        if collection in self._known:
            return True
        try:
            exists = await self._client.collection_exists(collection)
            if not exists:
                exists = await self._recover(collection)
        except Exception as exc:
            raise IndexUnavailableError(f"Qdrant is unavailable: {exc}") from exc
        if exists:
            self._known.add(collection)
        return bool(exists)

    async def _recover(self, collection: str) -> bool:
        """Finish a rebuild (:meth:`drop_idf`) a crash stopped after the old collection was
        deleted: the rebuilt one, complete by then, gets the name as an alias."""
        rebuilt = collection + _REBUILT
        if not await self._client.collection_exists(rebuilt):
            return False
        await self._alias(collection, rebuilt)
        return True

    async def _alias(self, alias: str, collection: str) -> None:
        operation = qm.CreateAliasOperation(
            create_alias=qm.CreateAlias(collection_name=collection, alias_name=alias)
        )
        await self._client.update_collection_aliases(change_aliases_operations=[operation])

    async def _alias_target(self, alias: str) -> str | None:
        """The collection ``alias`` names, or None when it is not an alias."""
        response = await self._client.get_aliases()
        return next((a.collection_name for a in response.aliases if a.alias_name == alias), None)

    async def drop_idf(self, collection: str) -> int:
        """Copy the points into ``<name>__per_user`` (made without the IDF modifier), then
        delete the old collection and make ``<name>`` an alias of the new one. A crash
        during the copy leaves the old collection, and the copy is redone; a crash after
        the delete leaves the complete copy, which :meth:`_recover` names. Processes
        sharing the server check the alias before deleting anything, but are not
        otherwise coordinated: the first start-up after the upgrade should run alone."""
        async with self._lock:
            if not await self.applies_idf(collection):
                return 0
            rebuilt = collection + _REBUILT
            try:
                info = await self._client.get_collection(collection)
                vectors = info.config.params.vectors
                if not isinstance(vectors, dict) or DENSE not in vectors:
                    raise IndexUnavailableError(f"{collection!r} has no {DENSE!r} vector")
                if await self._client.collection_exists(rebuilt):
                    if await self._alias_target(collection) is not None:
                        return 0  # another process has just finished the rebuild
                    await self._client.delete_collection(rebuilt)  # an interrupted copy
                await self._client.create_collection(
                    rebuilt,
                    vectors_config={DENSE: vectors[DENSE]},
                    sparse_vectors_config={SPARSE: qm.SparseVectorParams()},
                )
                for name in () if self._in_process else INDEXED_FIELDS:
                    await self._client.create_payload_index(
                        rebuilt, name, field_schema=qm.PayloadSchemaType.KEYWORD
                    )
                moved = await self._copy(collection, rebuilt)
                copied = await self._client.count(rebuilt, exact=True)
                if copied.count != moved:
                    raise IndexUnavailableError(f"rebuilding {collection!r} lost points")
                if await self._alias_target(collection) is not None:
                    return 0  # another process finished first (into the same copy)
                await self._client.delete_collection(collection)
                self._known.discard(collection)
                await self._alias(collection, rebuilt)
            except IndexUnavailableError:
                raise
            except Exception as exc:
                raise IndexUnavailableError(f"cannot rebuild {collection!r}: {exc}") from exc
            self._known.add(collection)
            return moved

    async def _copy(self, source: str, target: str) -> int:
        moved = 0
        offset: Any = None
        while True:
            records, offset = await self._client.scroll(
                source, limit=_COPY_PAGE, offset=offset, with_payload=True, with_vectors=True
            )
            if records:
                points = [
                    # the record's vector struct is a point's (a narrower type to mypy)
                    qm.PointStruct(id=r.id, vector=cast(Any, r.vector), payload=r.payload or {})
                    for r in records
                ]
                await self._client.upsert(target, points=points, wait=True)
                moved += len(points)
            if offset is None or not records:
                return moved

    async def ensure_collection(self, collection: str, dim: int, *, idf: bool = True) -> None:
        async with self._lock:
            if await self._exists(collection):
                return
            try:
                await self._client.create_collection(
                    collection,
                    vectors_config={DENSE: qm.VectorParams(size=dim, distance=qm.Distance.COSINE)},
                    sparse_vectors_config={
                        SPARSE: qm.SparseVectorParams(modifier=qm.Modifier.IDF if idf else None)
                    },
                )
                # in-process mode ignores payload indexes (and warns); a server needs them
                for name in () if self._in_process else INDEXED_FIELDS:
                    await self._client.create_payload_index(
                        collection, name, field_schema=qm.PayloadSchemaType.KEYWORD
                    )
            except Exception as exc:
                raise IndexUnavailableError(f"cannot create {collection!r}: {exc}") from exc
            self._known.add(collection)

    async def applies_idf(self, collection: str) -> bool:
        if not await self._exists(collection):
            return False
        try:
            info = await self._client.get_collection(collection)
        except Exception as exc:
            raise IndexUnavailableError(f"Qdrant is unavailable: {exc}") from exc
        params = (info.config.params.sparse_vectors or {}).get(SPARSE)
        return params is not None and params.modifier == qm.Modifier.IDF

    async def upsert(self, collection: str, points: list[IndexPoint]) -> None:
        if not points:
            return
        await self.ensure_collection(collection, len(points[0].dense))
        structs = [
            qm.PointStruct(
                id=point_uuid(p.chunk_id),
                vector={
                    DENSE: p.dense,
                    SPARSE: qm.SparseVector(indices=p.sparse.indices, values=p.sparse.values),
                },
                payload={**p.payload, "chunk_id": p.chunk_id},
            )
            for p in points
        ]
        try:
            await self._client.upsert(collection, points=structs, wait=True)
        except Exception as exc:
            raise IndexUnavailableError(f"upsert into {collection!r} failed: {exc}") from exc

    async def search(self, collection: str, query: SearchQuery) -> list[SearchHit]:
        if not await self._exists(collection):
            return []
        flt = _server_filter(query.filter)
        legs: list[qm.Prefetch] = []
        if query.mode in ("hybrid", "dense") and query.dense is not None:
            legs.append(
                qm.Prefetch(query=query.dense, using=DENSE, limit=query.prefetch_limit, filter=flt)
            )
        if query.mode in ("hybrid", "sparse") and query.sparse and not query.sparse.empty:
            sparse = qm.SparseVector(indices=query.sparse.indices, values=query.sparse.values)
            legs.append(
                qm.Prefetch(query=sparse, using=SPARSE, limit=query.prefetch_limit, filter=flt)
            )
        if not legs:
            return []
        try:
            if len(legs) == 1:
                response = await self._client.query_points(
                    collection,
                    query=legs[0].query,
                    using=legs[0].using,
                    query_filter=flt,
                    limit=query.limit,
                    with_payload=True,
                    score_threshold=query.score_threshold,
                )
            else:
                response = await self._client.query_points(
                    collection,
                    prefetch=legs,
                    query=qm.RrfQuery(rrf=qm.Rrf(k=query.rrf_k)),
                    query_filter=flt,
                    limit=query.limit,
                    with_payload=True,
                    score_threshold=query.score_threshold,
                )
        except Exception as exc:
            raise IndexUnavailableError(f"search failed in {collection!r}: {exc}") from exc
        return [
            SearchHit(
                chunk_id=str((p.payload or {}).get("chunk_id", p.id)),
                score=float(p.score),
                payload=dict(p.payload or {}),
            )
            for p in response.points
        ]

    async def delete(self, collection: str, flt: SearchFilter) -> None:
        server_filter = _server_filter(flt)
        if server_filter is None:
            raise ValueError("refusing to delete a whole collection without a filter")
        if not await self._exists(collection):
            return
        await self._client.delete(
            collection, points_selector=qm.FilterSelector(filter=server_filter), wait=True
        )

    async def count(self, collection: str, flt: SearchFilter | None = None) -> int:
        if not await self._exists(collection):
            return 0
        result = await self._client.count(
            collection, count_filter=_server_filter(flt) if flt else None, exact=True
        )
        return int(result.count)

    async def scroll(
        self,
        collection: str,
        flt: SearchFilter,
        limit: int = 100_000,
        fields: Sequence[str] | None = None,
    ) -> list[dict[str, Any]]:
        if not await self._exists(collection):
            return []
        payloads: list[dict[str, Any]] = []
        offset: Any = None
        while len(payloads) < limit:
            records, offset = await self._client.scroll(
                collection,
                scroll_filter=_server_filter(flt),
                limit=min(1_000, limit - len(payloads)),
                offset=offset,
                with_payload=True if fields is None else list(fields),
                with_vectors=False,
            )
            payloads.extend(dict(r.payload or {}) for r in records)
            if offset is None or not records:
                break
        return payloads

    async def close(self) -> None:
        await self._client.close()
