"""Vector index size and memory per chunk, for the capacity model of docs/deployment.md.

Measures an embedded Qdrant Edge index in a fresh process: opens every collection, runs
hybrid searches so the segments are paged in, and reports the chunks, the bytes allocated
on disk and the RSS growth. Edge preallocates segment files, so one size alone says little:
``--synthetic 5000,40000`` builds collections of those sizes (random unit 384-d dense
vectors, 80-term sparse vectors, 1 200-character payload texts: the shape of finagent's
chunks) and reports the marginal cost per chunk between them, extrapolated linearly to one
million chunks (an extrapolation, not a measurement at 1 M). The dense vectors' raw floor
(dim x 4 bytes) is printed beside it.

    python benchmarks/bench_index_memory.py --synthetic 5000,40000
    python benchmarks/bench_index_memory.py --data-dir .finagent   # a real index
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from finagent.retrieval.edge_index import EdgeIndex  # noqa: E402
from finagent.retrieval.index import IndexPoint, SearchQuery  # noqa: E402
from finagent.retrieval.sparse import SparseVec  # noqa: E402

MILLION = 1_000_000


def rss_mb() -> float:
    pages = int(Path("/proc/self/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def disk_bytes(root: Path) -> int:
    """Bytes allocated on disk (preallocated, still sparse files count what they use)."""
    return sum(p.stat().st_blocks * 512 for p in root.rglob("*") if p.is_file())


def sparse(rng: np.random.Generator, terms: int = 80) -> SparseVec:
    indices = sorted({int(t) for t in rng.integers(0, 2**20, terms)})
    return SparseVec(indices, [float(v) for v in rng.random(len(indices)) + 0.5])


async def build(root: Path, chunks: int, dim: int) -> None:
    """A collection of ``chunks`` synthetic points shaped like finagent's."""
    rng = np.random.default_rng(chunks)
    index = EdgeIndex(root)
    words = "налог ставка вычет декларация срок уплаты организация период сумма".split()
    for start in range(0, chunks, 1000):
        size = min(1000, chunks - start)
        dense = rng.standard_normal((size, dim)).astype(np.float32)
        dense /= np.linalg.norm(dense, axis=1, keepdims=True)
        points = [
            IndexPoint(
                chunk_id=f"doc_{(start + i) // 20}:{(start + i) % 20}",
                dense=[float(x) for x in dense[i]],
                sparse=sparse(rng),
                payload={
                    "text": " ".join(rng.choice(words, 150)),
                    "title": f"Документ {(start + i) // 20}",
                    "source": "kb",
                    "document_id": f"doc_{(start + i) // 20}",
                    "user_id": "bench",
                },
            )
            for i in range(size)
        ]
        await index.upsert("bench_kb", points)
    await index.close()


def synthetic(sizes: list[int], dim: int, searches: int) -> dict[str, object]:
    """Build each size in a temp dir and measure it in a fresh process; the marginal
    cost per chunk between the smallest and the largest."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-index-") as tmp:
        for size in sizes:
            data = Path(tmp) / f"n{size}"
            asyncio.run(build(data / "qdrant_edge", size, dim))
            out = subprocess.run(
                [sys.executable, __file__, "--data-dir", str(data), "--searches", str(searches)],
                capture_output=True,
                text=True,
                check=True,
            )
            rows.append(json.loads(out.stdout))
    small, large = rows[0], rows[-1]
    extra = int(large["chunks"]) - int(small["chunks"])  # type: ignore[call-overload]
    disk = (float(large["disk_mb"]) - float(small["disk_mb"])) * 2**20 / extra  # type: ignore[arg-type]
    grown_large = float(large["rss_after_mb"]) - float(large["rss_before_mb"])  # type: ignore[arg-type]
    grown_small = float(small["rss_after_mb"]) - float(small["rss_before_mb"])  # type: ignore[arg-type]
    rss = (grown_large - grown_small) * 2**20 / extra
    return {
        "sizes": rows,
        "marginal_disk_bytes_per_chunk": round(disk),
        "marginal_rss_bytes_per_chunk": round(rss),
        "extrapolated_disk_gb_per_million": round(disk * MILLION / 2**30, 2),
        "extrapolated_rss_gb_per_million": round(rss * MILLION / 2**30, 2),
        "dense_floor_gb_per_million": round(dim * 4 * MILLION / 2**30, 2),
    }


async def main(args: argparse.Namespace) -> dict[str, object]:
    root = Path(args.data_dir) / "qdrant_edge"
    collections = sorted(p.name for p in root.iterdir() if (p / "edge_config.json").exists())
    before = rss_mb()
    index = EdgeIndex(root)
    rng = np.random.default_rng(0)
    chunks = 0
    for name in collections:
        chunks += await index.count(name)
        for _ in range(args.searches):
            dense = rng.standard_normal(args.dim).astype(np.float32)
            query = SearchQuery(
                dense=list(map(float, dense / np.linalg.norm(dense))),
                sparse=SparseVec([int(i) for i in rng.integers(0, 2**20, 8)], [1.0] * 8),
                limit=6,
                prefetch_limit=100,
            )
            await index.search(name, query)
    after = rss_mb()
    await index.close()
    size = disk_bytes(root)
    grown = (after - before) * 2**20
    return {
        "collections": collections,
        "chunks": chunks,
        "disk_mb": round(size / 2**20, 1),
        "rss_before_mb": round(before, 1),
        "rss_after_mb": round(after, 1),
        "disk_bytes_per_chunk": round(size / chunks),
        "rss_bytes_per_chunk": round(grown / chunks),
        "dense_floor_bytes_per_chunk": args.dim * 4,
        "extrapolated_disk_gb_per_million": round(size / chunks * MILLION / 2**30, 2),
        "extrapolated_rss_gb_per_million": round(grown / chunks * MILLION / 2**30, 2),
        "dense_floor_gb_per_million": round(args.dim * 4 * MILLION / 2**30, 2),
    }


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data-dir", default=".finagent")
    parser.add_argument("--searches", type=int, default=50)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--synthetic", help="comma-separated chunk counts, e.g. 5000,40000")
    parsed = parser.parse_args()
    if parsed.synthetic:
        sizes = sorted(int(n) for n in parsed.synthetic.split(","))
        print(json.dumps(synthetic(sizes, parsed.dim, parsed.searches), indent=2))
    else:
        print(json.dumps(asyncio.run(main(parsed)), indent=2))
