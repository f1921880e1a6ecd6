"""Cold embedding throughput (chunks/s) and peak RSS: this tree vs a baseline commit.

Each run is a whole ``finagent ingest ...`` process on a fresh data dir with the
embedding cache off (FINAGENT_EMBEDDING_CACHE=false), so every chunk goes through the
model. Ours and the baseline alternate; peak RSS is the child's ``ru_maxrss`` (wait4),
CPU time its user + sys time: CPU / wall near 2 on an idle 2-core machine means both
cores embed (on a shared machine the load average printed next to it caps that ratio).

    python -m benchmarks.bench_cold_embedding [--articles 60] [--base 637a5c6]
    python -m benchmarks.bench_cold_embedding --tax-code --no-base   # peak RSS, Tax Code cold
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_first_run import REPO, baseline_tree, environment


def run(tree: Path, args: list[str], env: dict[str, str]) -> tuple[float, int, str, float]:
    """(wall seconds, peak RSS in MB, stdout, CPU seconds) of one finagent process."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "finagent.cli", *args],
            cwd=tree,
            env=env,
            stdout=out,
            stderr=subprocess.DEVNULL,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        out.seek(0)
        text = out.read()
    if os.waitstatus_to_exitcode(status) != 0:
        raise SystemExit(f"{tree.name}: finagent {' '.join(args)} failed")
    return seconds, int(usage.ru_maxrss / 1024), text, usage.ru_utime + usage.ru_stime


def load() -> str:
    return "load " + " / ".join(f"{x:.1f}" for x in os.getloadavg())


def kb_sample(path: Path, articles: int) -> Path:
    source = REPO / "knowledge_base" / "train_data.csv"
    with source.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        rows = [row for _, row in zip(range(articles), reader, strict=False)]
        fields = reader.fieldnames or []
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=fields)
        writer.writeheader()
        writer.writerows(rows)
    return path


def kb_chunks(stdout: str) -> int:
    return sum(r["chunks"] for r in json.loads(stdout)["results"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="637a5c6")
    parser.add_argument("--articles", type=int, default=60)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--no-base", action="store_true", help="Only this tree")
    parser.add_argument("--tax-code", action="store_true", help="Ingest the Tax Code cold")
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="finagent-cold-") as tmp:
        root = Path(tmp)
        trees = {"ours": REPO}
        if not opts.no_base:
            trees["base"] = baseline_tree(opts.base, root)
        if opts.tax_code:
            env = environment(root / "taxcode", REPO)
            env["FINAGENT_EMBEDDING_CACHE"] = "false"
            batch = env.get("FINAGENT_EMBEDDINGS_BATCH_SIZE", "32 (default)")
            print(f"Tax Code cold, batch size {batch}, {load()} at start", flush=True)
            seconds, rss, out, cpu = run(REPO, ["ingest", "law", "nk", "--json"], env)
            chunks = sum(json.loads(line)["chunks"] for line in out.splitlines() if line)
            print(
                f"Tax Code cold: {chunks} chunks in {seconds:.0f} s wall, {cpu:.0f} s CPU "
                f"(CPU/wall {cpu / seconds:.2f}), {chunks / seconds:.2f} chunks/s, "
                f"peak RSS {rss} MB; {load()} at the end"
            )
            return
        csv_path = kb_sample(root / "kb.csv", opts.articles)
        print(f"KB sample: {opts.articles} articles, cache off, {load()}")
        print(
            "| tree | chunks | wall s | CPU s | CPU/wall | chunks/s | peak RSS | load |\n"
            "|---|---|---|---|---|---|---|---|"
        )
        for i in range(opts.repeats):
            for label, tree in trees.items():
                env = environment(root / f"{label}-{i}", tree)
                env["FINAGENT_EMBEDDING_CACHE"] = "false"
                seconds, rss, out, cpu = run(tree, ["ingest", "kb", str(csv_path), "--json"], env)
                chunks = kb_chunks(out)
                print(
                    f"| {label} | {chunks} | {seconds:.1f} | {cpu:.1f} | {cpu / seconds:.2f} "
                    f"| {chunks / seconds:.2f} | {rss} MB | {os.getloadavg()[0]:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
