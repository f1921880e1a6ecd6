"""Offline answer latency: the ``direct`` composer against ``extractive``, same questions,
one run, warm.

Uses the direct evaluation's data dir (the knowledge base, the Tax Code and the dev rounds'
documents, ingested by ``finagent eval direct``; run that once first). Every question is
answered once per mode unmeasured (the sentence-embedding cache is then warm for both),
then ``--rounds`` times per mode, the modes alternating per question so that load from
other processes falls on both alike. Prints p50/p95 per mode and the ratio direct /
extractive.

    python -m benchmarks.bench_direct [--dataset F.jsonl ...] [--limit N] [--rounds 2]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from dataclasses import replace
from pathlib import Path

from evals.answers.runner import TAXCODE_FILES, eval_settings
from evals.direct.dataset import DirectItem, load_direct_dataset
from evals.direct.runner import DirectEvalConfig, _sources, user_of
from evals.direct.setup import data_dir_for
from finagent.bootstrap import Root
from finagent.config import get_settings
from finagent.graph.agent import Agent
from finagent.moscow_time import pinned_today
from finagent.retrieval.embedding_cache import build_cached_embedder
from finagent.retrieval.taxcode_source import find_tax_code

REPO = Path(__file__).resolve().parents[1]
DATASETS = [REPO / f"evals/datasets/direct_dev_blind{i}.jsonl" for i in (1, 2, 3)]
MODES = ("direct", "extractive")


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def _answer(agent: Agent, item: DirectItem) -> float:
    started = time.perf_counter()
    with pinned_today(item.as_of):
        await agent.run(user_id=user_of(item), query=item.question)
    return 1000 * (time.perf_counter() - started)


async def main(datasets: list[Path], limit: int | None, rounds: int) -> None:
    loaded = [load_direct_dataset(path, limit) for path in datasets]
    settings = get_settings()
    folder_tc = find_tax_code(settings.taxcode_dir)[0].path.parent
    config = DirectEvalConfig(
        kb_csv=REPO / "knowledge_base" / "train_data.csv",
        demo_docs=REPO / "sample_docs",
        taxcode=[(folder_tc / name, part) for part, name in TAXCODE_FILES.items()],
    )
    embedder = build_cached_embedder(settings)
    sources = _sources([load_direct_dataset(p) for p in datasets], config)
    folder, warm = data_dir_for(settings.data_dir, sources, embedder.model_id)
    if not warm:
        raise SystemExit(f"{folder} is not ingested: run `finagent eval direct` first")
    root = Root(eval_settings(settings, folder, verified=True), llm=None, embedder=embedder)
    deps = await root.start()
    try:
        agents = {
            m: Agent(
                replace(deps, settings=deps.settings.model_copy(update={"answer_composer": m}))
            )
            for m in MODES
        }
        items = [item for data in loaded for item in data.items]
        for item in items:  # warm-up: every sentence embedded once, for both modes
            for mode in MODES:
                await _answer(agents[mode], item)
        times: dict[str, list[float]] = {m: [] for m in MODES}
        for r in range(rounds):
            for i, item in enumerate(items):
                order = MODES if (i + r) % 2 == 0 else MODES[::-1]
                for mode in order:
                    times[mode].append(await _answer(agents[mode], item))
    finally:
        await root.aclose()
    print(f"{len(items)} questions x {rounds} rounds, warm")
    print(f"{'mode':<12}{'p50 ms':>10}{'p95 ms':>10}{'mean ms':>10}")
    for mode in MODES:
        t = times[mode]
        print(
            f"{mode:<12}{_percentile(t, 0.5):>10.1f}{_percentile(t, 0.95):>10.1f}"
            f"{statistics.fmean(t):>10.1f}"
        )
    for q, name in ((0.5, "p50"), (0.95, "p95")):
        ratio = _percentile(times["direct"], q) / _percentile(times["extractive"], q)
        print(f"ratio direct / extractive, {name}: {ratio:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dataset", type=Path, action="append", default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--rounds", type=int, default=2)
    args = parser.parse_args()
    asyncio.run(main(args.dataset or DATASETS, args.limit, args.rounds))
