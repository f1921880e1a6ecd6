"""How long the per-user IDF migration takes: a documents collection of the old shape
(with Qdrant's IDF modifier) of N synthetic chunks is rebuilt by ``drop_idf``.

    python benchmarks/bench_idf_migration.py [--backend edge|qdrant] [--chunks 10000]

``qdrant`` is qdrant-client's in-process mode (the server backend's code path).
"""

from __future__ import annotations

import argparse
import asyncio
import random
import tempfile
import time
from pathlib import Path

from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.index import IndexPoint, VectorIndex
from finagent.retrieval.qdrant_index import QdrantServerIndex
from finagent.retrieval.sparse import RussianBm25

WORDS = (
    "налог вычет склад договор аренда оплата акт счет сумма срок лицензия охрана товар услуга"
).split()


async def run(backend: str, chunks: int, dim: int, words: int) -> None:
    rnd = random.Random(0)
    bm25 = RussianBm25()
    with tempfile.TemporaryDirectory() as tmp:
        index: VectorIndex = (
            EdgeIndex(Path(tmp)) if backend == "edge" else QdrantServerIndex(location=":memory:")
        )
        try:
            await index.ensure_collection("docs", dim, idf=True)
            for start in range(0, chunks, 500):
                points = []
                for i in range(start, min(chunks, start + 500)):
                    text = " ".join(rnd.choice(WORDS) for _ in range(words))
                    payload = {"user_id": f"u{i % 7}", "document_id": f"d{i // 20}", "text": text}
                    dense = [rnd.random() for _ in range(dim)]
                    points.append(IndexPoint(f"c{i}", dense, bm25.embed_document(text), payload))
                await index.upsert("docs", points)
            started = time.perf_counter()
            moved = await index.drop_idf("docs")
            took = time.perf_counter() - started
            assert moved == chunks == await index.count("docs")
            assert not await index.applies_idf("docs")
        finally:
            await index.close()
    print(
        f"{backend}: {chunks} chunks, dim {dim}: {took:.2f} s "
        f"({1000 * took / chunks:.3f} ms a chunk)"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--backend", choices=["edge", "qdrant"], default="edge")
    parser.add_argument("--chunks", type=int, default=10_000)
    parser.add_argument("--dim", type=int, default=384)
    parser.add_argument("--words", type=int, default=120)
    args = parser.parse_args()
    asyncio.run(run(args.backend, args.chunks, args.dim, args.words))


if __name__ == "__main__":
    main()
