"""Filtered hybrid query latency: Qdrant Edge vs qdrant-client in-process mode.

Synthetic corpus at each scale (default 20 000 and 100 000 chunks): clustered random
unit vectors (384-d, like e5-small) and BM25 sparse vectors of texts sampled from the
Tax Code's vocabulary (or a built-in word list when the text is absent), 50 users.
Each query is a hybrid (dense + BM25, RRF) search filtered by ``user_id`` through our
own index classes, so the measured path is the production one (prefetch depth from
the settings, ``FINAGENT_PREFETCH_LIMIT``, default 100).

    python benchmarks/bench_query.py [--sizes 20000 100000] [--queries 200] [--prefetch N]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import statistics
import tempfile
import time
from pathlib import Path

import numpy as np

from finagent.config import Settings
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.index import IndexPoint, SearchFilter, SearchQuery, VectorIndex
from finagent.retrieval.qdrant_index import QdrantServerIndex
from finagent.retrieval.sparse import RussianBm25

DIM = 384
USERS = 50
COLLECTION = "bench"
_FALLBACK_WORDS = (
    "налог вычет декларация ставка доход расход организация предприниматель проверка штраф "
    "уплата срок период база взносы патент упрощенная система счет фактура возмещение "
    "имущество квартира лечение обучение ребенок резидент агент требование решение акт"
).split()


def vocabulary() -> list[str]:
    folder = Path(
        os.environ.get(
            "FINAGENT_TAXCODE_DIR", Path(__file__).resolve().parents[2] / "shared/data/tax-code"
        )
    )
    path = folder / "nk-part2-2025.txt"
    if not path.exists():
        return _FALLBACK_WORDS
    words = re.findall(r"[а-яё]{4,}", path.read_text(encoding="utf-8")[:1_500_000].lower())
    return sorted(set(words))


def synthetic_points(n: int, rng: np.random.Generator, words: list[str]) -> list[IndexPoint]:
    bm25 = RussianBm25()
    centers = rng.normal(size=(256, DIM)).astype(np.float32)
    assign = rng.integers(0, len(centers), n)
    dense = centers[assign] + 0.6 * rng.normal(size=(n, DIM)).astype(np.float32)
    dense /= np.linalg.norm(dense, axis=1, keepdims=True)
    zipf = rng.zipf(1.3, size=(n, 60)) % len(words)
    points = []
    for i in range(n):
        text = " ".join(words[j] for j in zipf[i])
        points.append(
            IndexPoint(
                chunk_id=f"c{i}",
                dense=dense[i].tolist(),
                sparse=bm25.embed_document(text),
                payload={"user_id": f"u{i % USERS}", "source": "user_docs", "document_id": f"d{i}"},
            )
        )
    return points


def queries(k: int, rng: np.random.Generator, words: list[str], prefetch: int) -> list[SearchQuery]:
    bm25 = RussianBm25()
    out = []
    for _ in range(k):
        vec = rng.normal(size=DIM).astype(np.float32)
        vec /= np.linalg.norm(vec)
        text = " ".join(words[j] for j in rng.zipf(1.3, size=6) % len(words))
        out.append(
            SearchQuery(
                dense=vec.tolist(),
                sparse=bm25.embed_query(text),
                limit=10,
                prefetch_limit=prefetch,
                mode="hybrid",
                filter=SearchFilter(user_id=f"u{int(rng.integers(0, USERS))}"),
            )
        )
    return out


async def measure(index: VectorIndex, points: list[IndexPoint], qs: list[SearchQuery]) -> dict:
    await index.ensure_collection(COLLECTION, DIM)
    started = time.perf_counter()
    for start in range(0, len(points), 1000):
        await index.upsert(COLLECTION, points[start : start + 1000])
    load_s = time.perf_counter() - started
    for q in qs[:5]:  # warm-up
        await index.search(COLLECTION, q)
    lat = []
    for q in qs:
        t = time.perf_counter()
        hits = await index.search(COLLECTION, q)
        lat.append((time.perf_counter() - t) * 1000)
        assert all(h.payload["user_id"] == q.filter.user_id for h in hits)
    await index.close()
    lat.sort()
    return {
        "load_s": load_s,
        "p50": statistics.median(lat),
        "p95": lat[int(0.95 * (len(lat) - 1))],
    }


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--sizes", type=int, nargs="+", default=[20_000, 100_000])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument(
        "--prefetch",
        type=int,
        default=Settings().prefetch_limit,
        help="Prefetch depth per leg (default: the production setting)",
    )
    args = parser.parse_args()
    rng = np.random.default_rng(7)
    words = vocabulary()
    rows = []
    for n in args.sizes:
        points = synthetic_points(n, rng, words)
        qs = queries(args.queries, rng, words, args.prefetch)
        with tempfile.TemporaryDirectory() as tmp:
            edge = await measure(EdgeIndex(Path(tmp)), points, qs)
        local = await measure(QdrantServerIndex(location=":memory:"), points, qs)
        rows.append((n, edge, local))
        print(f"done {n}", flush=True)
    print(
        f"\n{'chunks':>8} | {'edge p50':>9} {'edge p95':>9} | {'local p50':>10} {'local p95':>10}"
        f" | {'p50 ratio':>9} {'p95 ratio':>9} | {'edge load s':>11} {'local load s':>12}"
    )
    for n, e, loc in rows:
        print(
            f"{n:>8} | {e['p50']:>8.2f}ms {e['p95']:>7.2f}ms | {loc['p50']:>8.2f}ms "
            f"{loc['p95']:>8.2f}ms | {loc['p50'] / e['p50']:>8.1f}x {loc['p95'] / e['p95']:>8.1f}x"
            f" | {e['load_s']:>11.1f} {loc['load_s']:>12.1f}"
        )
    print("(ratio = qdrant-client in-process latency / Qdrant Edge latency)")


if __name__ == "__main__":
    asyncio.run(main())
