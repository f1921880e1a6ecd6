"""What a turn no longer redoes: the user's cards validated once per stored version, and a
checkpoint's texts redacted once per set of secrets; each against the previous way (every
read validates every card, every write redacts every text), in one run.

    python -m benchmarks.bench_turn_reuse [--cards 12] [--reads 200]
"""

from __future__ import annotations

import argparse
import asyncio
import time
from pathlib import Path

from langgraph.store.memory import InMemoryStore

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.redaction import Redactor
from finagent.storage.cards import CardStore, _namespace

REPO = Path(__file__).resolve().parents[1]


async def _cards(n: int, reads: int) -> tuple[float, float]:
    store = InMemoryStore()
    cards = CardStore(store)
    texts = sorted((REPO / "sample_docs").glob("*.md")) or sorted((REPO / "sample_docs").iterdir())
    for i in range(n):
        path = texts[i % len(texts)]
        await cards.put("u", build_card(f"d{i}", path.stem, path.read_text(errors="ignore")))
    started = time.perf_counter()
    for _ in range(reads):
        items = await store.asearch(_namespace("u"), limit=1000)
        [DocumentCard.model_validate(item.value) for item in items]
    before = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(reads):
        await cards.list("u")
    return before, time.perf_counter() - started


def _redaction(writes: int) -> tuple[float, float]:
    texts = [p.read_text(errors="ignore")[:1500] for p in sorted((REPO / "sample_docs").iterdir())]
    redactor = Redactor(["sk-bench-0123456789abcdef"])
    started = time.perf_counter()
    for _ in range(writes):
        [redactor._redact(t) for t in texts]
    before = time.perf_counter() - started
    started = time.perf_counter()
    for _ in range(writes):
        [redactor.redact(t) for t in texts]
    return before, time.perf_counter() - started


def main(n: int, reads: int) -> None:
    rows = [("card reads", *asyncio.run(_cards(n, reads))), ("redaction", *_redaction(reads))]
    print(f"{'what':<12}{'before ms':>12}{'after ms':>12}{'ratio':>8}")
    for what, before, after in rows:
        print(f"{what:<12}{1000 * before:>12.1f}{1000 * after:>12.1f}{after / before:>8.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cards", type=int, default=12)
    parser.add_argument("--reads", type=int, default=200)
    args = parser.parse_args()
    main(args.cards, args.reads)
