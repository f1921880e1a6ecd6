"""Embedded backend: Qdrant Edge shards on disk, one per collection, in-process."""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import threading
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import qdrant_edge as qe

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

# a collection without the collection-wide IDF being built beside the one it replaces
# (complete once it holds _COMPLETE), and the replaced one until it is removed
_REBUILD = ".rebuild"
_RETIRED = ".retired"
_COMPLETE = "rebuild_complete"
_COPY_PAGE = 512


def _edge_filter(flt: SearchFilter) -> qe.Filter | None:
    must: list[Any] = []
    for key, value in flt.conditions().items():
        match = qe.MatchAny(list(value)) if isinstance(value, list) else qe.MatchValue(value)
        must.append(qe.FieldCondition(key, match=match))
    return qe.Filter(must=must) if must else None


class EdgeIndex:
    """Qdrant Edge (``qdrant-edge-py``): the zero-setup default under FINAGENT_DATA_DIR."""

    backend = "edge"

    def __init__(self, root: Path) -> None:
        self._root = root
        self._shards: dict[str, qe.EdgeShard] = {}
        self._lock = threading.Lock()

    def _open(self, collection: str, dim: int | None, idf: bool = True) -> qe.EdgeShard:
        with self._lock:
            shard = self._shards.get(collection)
            if shard is not None:
                return shard
            path = self._root / collection
            self._recover(collection)
            try:
                if (path / "edge_config.json").exists():
                    shard = qe.EdgeShard.load(str(path))
                elif dim is None:
                    raise IndexUnavailableError(f"collection {collection!r} does not exist")
                else:
                    path.mkdir(parents=True, exist_ok=True)
                    shard = qe.EdgeShard.create(str(path), self._config(dim, idf))
                # a collection made before a field was indexed gets it now; an index that
                # exists is not re-added: re-adding rewrites it, so a process that only
                # reads would write the shard and pay a flush of it on close
                indexed = shard.info().payload_schema
                for name in INDEXED_FIELDS:
                    if name not in indexed:
                        shard.update(
                            qe.UpdateOperation.create_field_index(
                                name, qe.PayloadSchemaType.Keyword
                            )
                        )
            except IndexUnavailableError:
                raise
            except Exception as exc:
                if "WouldBlock" in str(exc):
                    raise IndexUnavailableError(
                        f"the embedded index {collection!r} is open in another finagent process; "
                        "stop it, or share a Qdrant server (FINAGENT_QDRANT_URL)",
                        f"встроенный индекс {collection!r} открыт другим процессом finagent: "
                        "остановите его или используйте общий сервер Qdrant "
                        "(FINAGENT_QDRANT_URL)",
                    ) from exc
                raise IndexUnavailableError(f"cannot open index {collection!r}: {exc}") from exc
            self._shards[collection] = shard
            return shard

    @staticmethod
    def _config(dim: int, idf: bool) -> qe.EdgeConfig:
        sparse = qe.EdgeSparseVectorParams(modifier=qe.Modifier.Idf) if idf else None
        return qe.EdgeConfig(
            vectors={DENSE: qe.EdgeVectorParams(size=dim, distance=qe.Distance.Cosine)},
            sparse_vectors={SPARSE: sparse or qe.EdgeSparseVectorParams()},
        )

    def _recover(self, collection: str) -> None:
        """Finish or undo a rebuild (:meth:`drop_idf`) a crash interrupted; lock held.

        The steps are: build ``<name>.rebuild`` and mark it complete; rename ``<name>``
        to ``<name>.retired``; rename ``<name>.rebuild`` to ``<name>``; remove the mark and
        ``<name>.retired``. Whatever step a crash stops at, one complete collection is left
        and is put under ``<name>`` here."""
        if collection in self._shards:
            return
        path = self._root / collection
        new = self._root / (collection + _REBUILD)
        old = self._root / (collection + _RETIRED)
        if not path.exists():
            if (new / _COMPLETE).exists():
                new.rename(path)
            elif old.exists():
                old.rename(path)
        if new.exists():  # an unfinished build, or a finished one the old copy still holds
            shutil.rmtree(new)
        if old.exists() and path.exists():
            shutil.rmtree(old)
        (path / _COMPLETE).unlink(missing_ok=True)

    def _drop_idf(self, collection: str) -> int:
        with self._lock:
            self._recover(collection)
            if not self._applies_idf_file(collection):
                return 0
            path = self._root / collection
            new = self._root / (collection + _REBUILD)
            config = json.loads((path / "edge_config.json").read_text(encoding="utf-8"))
            dim = int(config["vectors"][DENSE]["size"])
            shard = self._shards.pop(collection, None) or qe.EdgeShard.load(str(path))
            try:
                if new.exists():
                    shutil.rmtree(new)
                new.mkdir(parents=True)
                target = qe.EdgeShard.create(str(new), self._config(dim, idf=False))
                try:
                    for name in INDEXED_FIELDS:
                        target.update(
                            qe.UpdateOperation.create_field_index(
                                name, qe.PayloadSchemaType.Keyword
                            )
                        )
                    moved = self._copy(shard, target)
                    target.flush()
                    if int(target.count(qe.CountRequest())) != moved:
                        raise IndexUnavailableError(f"rebuilding {collection!r} lost points")
                finally:
                    target.close()
            finally:
                shard.close()
            mark = new / _COMPLETE
            with open(mark, "w", encoding="utf-8") as fh:
                fh.write(str(moved))
                fh.flush()
                os.fsync(fh.fileno())
            path.rename(self._root / (collection + _RETIRED))
            new.rename(path)
            self._recover(collection)
            return moved

    @staticmethod
    def _copy(source: qe.EdgeShard, target: qe.EdgeShard) -> int:
        moved = 0
        offset = None
        while True:
            request = qe.ScrollRequest(
                offset=offset, limit=_COPY_PAGE, with_payload=True, with_vector=True
            )
            records, offset = source.scroll(request)
            if records:
                points = [qe.Point(r.id, r.vector or {}, r.payload or {}) for r in records]
                target.update(qe.UpdateOperation.upsert_points(points))
                moved += len(points)
            if offset is None or not records:
                return moved

    async def drop_idf(self, collection: str) -> int:
        return await asyncio.to_thread(self._drop_idf, collection)

    def _applies_idf(self, collection: str) -> bool:
        with self._lock:
            self._recover(collection)
        return self._applies_idf_file(collection)

    def _applies_idf_file(self, collection: str) -> bool:
        config = self._root / collection / "edge_config.json"
        if not config.is_file():
            return False
        params = json.loads(config.read_text(encoding="utf-8")).get("sparse_vectors", {})
        return str(params.get(SPARSE, {}).get("modifier", "")).lower() == "idf"

    async def applies_idf(self, collection: str) -> bool:
        return await asyncio.to_thread(self._applies_idf, collection)

    def _exists(self, collection: str) -> bool:
        if collection in self._shards:
            return True
        with self._lock:
            self._recover(collection)
        return (self._root / collection).exists()

    async def _shard(self, collection: str) -> qe.EdgeShard | None:
        """The open shard, or None when the collection was never created (off the loop)."""
        if collection in self._shards:
            return self._shards[collection]
        if not await asyncio.to_thread(self._exists, collection):
            return None
        return await asyncio.to_thread(self._open, collection, None)

    async def ensure_collection(self, collection: str, dim: int, *, idf: bool = True) -> None:
        await asyncio.to_thread(self._open, collection, dim, idf)

    async def upsert(self, collection: str, points: list[IndexPoint]) -> None:
        if not points:
            return
        shard = await asyncio.to_thread(self._open, collection, len(points[0].dense))
        edge_points = [
            qe.Point(
                point_uuid(p.chunk_id),
                {DENSE: p.dense, SPARSE: qe.SparseVector(p.sparse.indices, p.sparse.values)},
                {**p.payload, "chunk_id": p.chunk_id},
            )
            for p in points
        ]
        op = qe.UpdateOperation.upsert_points(edge_points)
        await asyncio.to_thread(self._apply, shard, op)

    @staticmethod
    def _apply(shard: qe.EdgeShard, op: qe.UpdateOperation) -> None:
        shard.update(op)
        shard.flush()

    def _request(self, query: SearchQuery) -> qe.QueryRequest:
        flt = _edge_filter(query.filter)
        legs: list[qe.Prefetch] = []
        if query.mode in ("hybrid", "dense") and query.dense is not None:
            legs.append(
                qe.Prefetch(
                    limit=query.prefetch_limit,
                    query=qe.Query.Nearest(query.dense, using=DENSE),
                    filter=flt,
                )
            )
        if query.mode in ("hybrid", "sparse") and query.sparse and not query.sparse.empty:
            vec = qe.SparseVector(query.sparse.indices, query.sparse.values)
            legs.append(
                qe.Prefetch(
                    limit=query.prefetch_limit,
                    query=qe.Query.Nearest(vec, using=SPARSE),
                    filter=flt,
                )
            )
        if len(legs) == 1:  # a single leg is returned with its own scores
            leg = legs[0]
            return qe.QueryRequest(
                limit=query.limit,
                query=leg.query,
                filter=flt,
                with_payload=True,
                score_threshold=query.score_threshold,
            )
        return qe.QueryRequest(
            limit=query.limit,
            prefetches=legs,
            query=qe.Fusion.Rrf(k=query.rrf_k),  # type: ignore[arg-type]  # stub lists Fusion only
            filter=flt,
            with_payload=True,
            score_threshold=query.score_threshold,
        )

    async def search(self, collection: str, query: SearchQuery) -> list[SearchHit]:
        shard = await self._shard(collection)
        if shard is None:
            return []
        if query.dense is None and (query.sparse is None or query.sparse.empty):
            return []
        if query.mode == "sparse" and (query.sparse is None or query.sparse.empty):
            return []
        request = self._request(query)
        try:
            points = await asyncio.to_thread(shard.query, request)
        except Exception as exc:
            raise IndexUnavailableError(f"search failed in {collection!r}: {exc}") from exc
        return [
            SearchHit(
                chunk_id=str((p.payload or {}).get("chunk_id", p.id)),
                score=float(p.score),
                payload=dict(p.payload or {}),
            )
            for p in points
        ]

    async def delete(self, collection: str, flt: SearchFilter) -> None:
        edge_filter = _edge_filter(flt)
        if edge_filter is None:
            raise ValueError("refusing to delete a whole collection without a filter")
        shard = await self._shard(collection)
        if shard is None:
            return
        await asyncio.to_thread(
            self._apply, shard, qe.UpdateOperation.delete_points_by_filter(edge_filter)
        )

    async def count(self, collection: str, flt: SearchFilter | None = None) -> int:
        shard = await self._shard(collection)
        if shard is None:
            return 0
        edge_filter = _edge_filter(flt) if flt else None
        return int(await asyncio.to_thread(shard.count, qe.CountRequest(filter=edge_filter)))

    async def scroll(
        self,
        collection: str,
        flt: SearchFilter,
        limit: int = 100_000,
        fields: Sequence[str] | None = None,
    ) -> list[dict[str, Any]]:
        shard = await self._shard(collection)
        if shard is None:
            return []
        selected: bool | list[str] = True if fields is None else list(fields)
        return await asyncio.to_thread(self._scroll, shard, _edge_filter(flt), limit, selected)

    @staticmethod
    def _scroll(
        shard: qe.EdgeShard, flt: qe.Filter | None, limit: int, selected: bool | list[str]
    ) -> list[dict[str, Any]]:
        payloads: list[dict[str, Any]] = []
        offset = None
        while len(payloads) < limit:
            page = min(1_000, limit - len(payloads))
            request = qe.ScrollRequest(offset=offset, limit=page, filter=flt, with_payload=selected)
            records, offset = shard.scroll(request)
            payloads.extend(dict(r.payload or {}) for r in records)
            if offset is None or not records:
                break
        return payloads

    async def close(self) -> None:
        """Close every open shard. Each close flushes its shard to disk (Qdrant Edge has
        no read-only open), so the shards close side by side in worker threads: the
        flushes overlap and the event loop is not blocked meanwhile."""
        with self._lock:
            shards = list(self._shards.values())
            self._shards.clear()
        await asyncio.gather(*(asyncio.to_thread(shard.close) for shard in shards))
