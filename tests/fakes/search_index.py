"""A vector store fake for the retriever's own searches: the same hits for every search
(dense or lexical), each query it was asked recorded."""

from __future__ import annotations

from typing import Any

from finagent.retrieval.index import SearchHit, SearchQuery

Hit = tuple[str, float, dict[str, Any]]  # (chunk id, score, payload)


class RecordingIndex:
    """Answers every search with ``hits``; ``asked`` holds the queries in order."""

    backend = "fake"

    def __init__(self, hits: list[Hit]) -> None:
        self.hits = hits
        self.asked: list[SearchQuery] = []

    async def search(self, collection: str, query: SearchQuery) -> list[SearchHit]:
        self.asked.append(query)
        return [SearchHit(cid, score, payload) for cid, score, payload in self.hits]
