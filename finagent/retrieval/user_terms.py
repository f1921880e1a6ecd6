"""Term statistics of one user's documents: the BM25 inverse document frequency of user
document search, per user.

A collection-wide IDF (Qdrant's ``Modifier.IDF``) counts every point of the collection,
and the documents collection holds every user's chunks (one collection, a ``user_id``
filter). Then how one user's chunks rank for a word depends on how many chunks of *other*
users use it: user B's uploads change user A's results. So the documents collection is
created without the modifier, its points keep plain BM25 term-frequency weights, and the
query's terms are weighted here by the IDF over the asking user's chunks only.

The statistics are counted from the user's chunk texts (the same BM25 tokenisation as the
points), kept per (collection, user) and recounted when the user's point count changes or
this process adds or removes the user's chunks.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from finagent.retrieval.sparse import RussianBm25, SparseVec


@dataclass(frozen=True)
class TermStats:
    """How many of one user's chunks there are and how many use each BM25 term."""

    points: int
    used: dict[int, int]

    def idf(self, term: int) -> float:
        """Qdrant's IDF formula, over this user's chunks: ln(1 + (N - n + 0.5) / (n + 0.5))."""
        n = self.used.get(term, 0)
        return math.log(1.0 + (self.points - n + 0.5) / (n + 0.5))

    def weighted(self, query: SparseVec) -> SparseVec:
        """The query's sparse vector with each term weighted by its IDF among these chunks."""
        values = [v * self.idf(i) for i, v in zip(query.indices, query.values, strict=True)]
        return SparseVec(list(query.indices), values)


def count_terms(texts: Iterable[str], bm25: RussianBm25) -> TermStats:
    """Count the chunks ``texts`` and, for each BM25 term, the chunks that use it."""
    used: Counter[int] = Counter()
    points = 0
    for text in texts:
        points += 1
        used.update(set(bm25.embed_document(text).indices))
    return TermStats(points, dict(used))
