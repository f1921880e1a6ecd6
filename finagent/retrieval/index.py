"""The vector index interface shared by the embedded and the server backend."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from finagent.retrieval.sparse import SparseVec

SearchMode = Literal["hybrid", "dense", "sparse"]
DENSE = "dense"
SPARSE = "bm25"
# payload fields searches filter on; "code", "chapter" and "article_title" serve the
# focused legs of a question naming a tax (retrieval/tax_focus.py): unindexed, such a
# filtered search scans every point (0.6 s instead of 10 ms over the Tax Code)
INDEXED_FIELDS = (
    "user_id",
    "document_id",
    "source",
    "unit_id",
    "article",
    "code",
    "chapter",
    "article_title",
)
_ID_NAMESPACE = uuid.UUID("6f2b7a1e-3c55-4b8a-9d0e-5a1f2c3d4e5f")


def point_uuid(chunk_id: str) -> str:
    """Stable point id for a chunk id (Qdrant ids must be ints or UUIDs)."""
    return str(uuid.uuid5(_ID_NAMESPACE, chunk_id))


@dataclass
class IndexPoint:
    chunk_id: str
    dense: list[float]
    sparse: SparseVec
    payload: dict[str, Any]


@dataclass
class SearchFilter:
    """Payload conditions; every set field must match (lists match any value)."""

    user_id: str | None = None
    document_ids: list[str] | None = None
    source: str | list[str] | None = None
    extra: dict[str, str | list[str]] = field(default_factory=dict)

    def conditions(self) -> dict[str, str | list[str]]:
        out: dict[str, str | list[str]] = dict(self.extra)
        if self.user_id is not None:
            out["user_id"] = self.user_id
        if self.document_ids is not None:
            out["document_id"] = list(self.document_ids)
        if self.source is not None:
            out["source"] = self.source
        return out


@dataclass
class SearchHit:
    chunk_id: str
    score: float
    payload: dict[str, Any]


@dataclass
class SearchQuery:
    dense: list[float] | None
    sparse: SparseVec | None
    limit: int
    prefetch_limit: int
    mode: SearchMode = "hybrid"
    rrf_k: int = 60
    score_threshold: float | None = None
    filter: SearchFilter = field(default_factory=SearchFilter)


class IndexUnavailableError(RuntimeError):
    """The vector index cannot be reached or used.

    The message is English (logs); ``user_message`` is what a person is shown, in
    Russian, when the cause is one they can act on.
    """

    def __init__(self, message: str, user_message: str | None = None) -> None:
        super().__init__(message)
        self.user_message = user_message


class VectorIndex(Protocol):
    """Dense + sparse vector index with payload filters; one collection per corpus."""

    backend: str

    async def ensure_collection(self, collection: str, dim: int, *, idf: bool = True) -> None:
        """Create ``collection`` unless it exists. ``idf``: the index weights sparse terms by
        their frequency over the whole collection (off where the caller weights the query by
        statistics of its own, e.g. per user)."""
        ...

    async def applies_idf(self, collection: str) -> bool:
        """The existing ``collection`` weights sparse terms by its own IDF (a collection made
        with ``idf=True``, or before the option existed)."""
        ...

    async def drop_idf(self, collection: str) -> int:
        """Rebuild ``collection`` without the index's collection-wide IDF, keeping every
        point (id, vectors, payload); the number of points moved (0 when there was nothing
        to do). Crash-safe: the new collection is built aside and replaces the old one only
        once complete; an interrupted swap is finished when the collection is next opened."""
        ...

    async def upsert(self, collection: str, points: list[IndexPoint]) -> None: ...

    async def search(self, collection: str, query: SearchQuery) -> list[SearchHit]: ...

    async def delete(self, collection: str, flt: SearchFilter) -> None: ...

    async def count(self, collection: str, flt: SearchFilter | None = None) -> int: ...

    async def scroll(
        self,
        collection: str,
        flt: SearchFilter,
        limit: int = 100_000,
        fields: Sequence[str] | None = None,
    ) -> list[dict[str, Any]]:
        """Payloads of up to ``limit`` points matching ``flt`` (no vectors); ``fields``:
        only these payload keys (all when None)."""
        ...

    async def close(self) -> None: ...
