"""Chooses the vector index backend from the settings."""

from __future__ import annotations

from finagent.config import Settings
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.index import VectorIndex


def build_index(settings: Settings) -> VectorIndex:
    """Qdrant server when FINAGENT_QDRANT_URL is set, else Qdrant Edge on disk."""
    if settings.qdrant_url:
        from finagent.retrieval.qdrant_index import QdrantServerIndex  # qdrant-client is heavy

        key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        if settings.qdrant_url == ":memory:":
            return QdrantServerIndex(location=":memory:")
        return QdrantServerIndex(url=settings.qdrant_url, api_key=key)
    return EdgeIndex(settings.data_dir / "qdrant_edge")
