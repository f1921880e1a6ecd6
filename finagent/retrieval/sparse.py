"""Russian BM25 sparse vectors (Snowball stemming, stop words), identical for both backends.

Documents get term-frequency weights with length normalisation; queries get 1.0 per
unique term. The IDF part is applied by Qdrant itself (sparse vectors with the IDF
modifier), so weights never need recomputing as the corpus grows.
"""

from __future__ import annotations

from dataclasses import dataclass

import qdrant_edge


@dataclass(frozen=True)
class SparseVec:
    indices: list[int]
    values: list[float]

    @property
    def empty(self) -> bool:
        return not self.indices


class RussianBm25:
    """Thin wrapper over qdrant-edge's BM25 configured for Russian."""

    def __init__(self, k: float = 1.2, b: float = 0.75, avg_len: float = 180.0) -> None:
        self._model = qdrant_edge.Bm25(
            qdrant_edge.Bm25Config(k=k, b=b, avg_len=avg_len, language="russian")
        )

    def embed_document(self, text: str) -> SparseVec:
        vec = self._model.embed_document(text)
        return SparseVec(list(vec.indices), list(vec.values))

    def embed_query(self, text: str) -> SparseVec:
        vec = self._model.embed_query(text)
        return SparseVec(list(vec.indices), list(vec.values))
