"""Cold embedding throughput (chunks/s) and peak RSS: this tree vs a baseline commit.

Each run is a whole ``finagent ingest ...`` process on a fresh data dir with the
embedding cache off (FINAGENT_EMBEDDING_CACHE=false), so every chunk goes through the
model. Ours and the baseline alternate; peak RSS is the child's ``ru_maxrss`` (wait4),
CPU time its user + sys time: CPU / wall near 2 on an idle 2-core machine means both
cores embed (on a shared machine the load average printed next to it caps that ratio).

    python -m benchmarks.bench_cold_embedding [--articles 60] [--base 637a5c6]
    python -m benchmarks.bench_cold_embedding --docs      # the six sample_docs/, as a user's
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


def vm_hwm_mb(pid: int) -> int:
    """The process's peak resident set so far (VmHWM), in MB; 0 once it has exited."""
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return 0
    kb = next((line.split()[1] for line in status.splitlines() if line.startswith("VmHWM")), 0)
    return int(kb) // 1024


def run(
    tree: Path, args: list[str], env: dict[str, str], poll_s: float = 0.0
) -> tuple[float, int, str, float]:
    """(wall seconds, peak RSS in MB, stdout, CPU seconds) of one finagent process.

    With ``poll_s`` the peak RSS so far is printed every ``poll_s`` seconds (a long run
    still leaves figures when it is stopped)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile("w+") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "finagent.cli", *args],
            cwd=tree,
            env=env,
            stdout=out,
            stderr=subprocess.DEVNULL,
        )
        pid = 0
        while poll_s and not pid:
            pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
            if not pid:
                elapsed = time.perf_counter() - started
                hwm = vm_hwm_mb(proc.pid)
                print(f"  {elapsed:.0f} s: peak RSS so far {hwm} MB, {load()}", flush=True)
                time.sleep(poll_s)
        if not pid:
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
    parser.add_argument("--docs", action="store_true", help="Ingest sample_docs/ as a user's")
    parser.add_argument("--poll", type=float, default=60.0, help="Seconds between RSS lines")
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
            args = ["ingest", "law", "nk", "--json"]
            seconds, rss, out, cpu = run(REPO, args, env, opts.poll)
            chunks = sum(json.loads(line)["chunks"] for line in out.splitlines() if line)
            print(
                f"Tax Code cold: {chunks} chunks in {seconds:.0f} s wall, {cpu:.0f} s CPU "
                f"(CPU/wall {cpu / seconds:.2f}), {chunks / seconds:.2f} chunks/s, "
                f"peak RSS {rss} MB; {load()} at the end"
            )
            return
        csv_path = kb_sample(root / "kb.csv", opts.articles)
        docs = [str(p) for p in sorted((REPO / "sample_docs").iterdir())]
        command = ["ingest", "docs", *docs, "--user", "bench"] if opts.docs else None
        what = f"{len(docs)} sample documents" if opts.docs else f"{opts.articles} articles"
        print(f"{what}, cache off, {load()}")
        print(
            "| tree | chunks | wall s | CPU s | CPU/wall | chunks/s | peak RSS | load |\n"
            "|---|---|---|---|---|---|---|---|"
        )
        for i in range(opts.repeats):
            for label, tree in trees.items():
                env = environment(root / f"{label}-{i}", tree)
                env["FINAGENT_EMBEDDING_CACHE"] = "false"
                args = command or ["ingest", "kb", str(csv_path)]
                seconds, rss, out, cpu = run(tree, [*args, "--json"], env)
                chunks = kb_chunks(out)
                print(
                    f"| {label} | {chunks} | {seconds:.1f} | {cpu:.1f} | {cpu / seconds:.2f} "
                    f"| {chunks / seconds:.2f} | {rss} MB | {os.getloadavg()[0]:.1f} |",
                    flush=True,
                )


if __name__ == "__main__":
    main()
