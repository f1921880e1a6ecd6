"""``finagent demo`` from a fresh data dir: time to the first line and total wall time,
this tree vs a baseline commit, side by side in one run.

Each run is a whole process (``python -m finagent.cli demo``) with stdout and stderr on
pipes (not a terminal, so progress is plain lines); the first line is the first byte on
either stream. Ours and the baseline alternate so machine load hits both alike, each on
a fresh data dir with the Tax Code (FINAGENT_TAXCODE_DIR, default ../shared/data/tax-code).

    python benchmarks/bench_demo_first_line.py [--base main] [--repeats 3]
"""

from __future__ import annotations

import argparse
import os
import selectors
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from benchmarks.bench_first_run import REPO, baseline_tree, environment

TARGETS = {"first line": 1.0, "total": 12.0}


def first_line_and_total(tree: Path, env: dict[str, str]) -> tuple[float, float]:
    """(seconds to the first output byte, seconds to exit) of one ``finagent demo``."""
    started = time.perf_counter()
    proc = subprocess.Popen(
        [sys.executable, "-m", "finagent.cli", "demo"],
        cwd=tree,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    first: float | None = None
    tail = b""
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        sel.register(proc.stderr, selectors.EVENT_READ)
        while sel.get_map():
            for key, _ in sel.select():
                chunk = os.read(key.fd, 65536)
                if not chunk:
                    sel.unregister(key.fileobj)
                    continue
                if first is None:
                    first = time.perf_counter() - started
                if key.fileobj is proc.stderr:
                    tail = (tail + chunk)[-2000:]
    code = proc.wait()
    total = time.perf_counter() - started
    if code != 0:
        raise SystemExit(
            f"{tree.name}: finagent demo failed ({code}):\n{tail.decode(errors='replace')}"
        )
    return (first if first is not None else total), total


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="main", help="Baseline commit or branch")
    parser.add_argument("--repeats", type=int, default=3)
    opts = parser.parse_args()
    tax_code = Path(
        os.environ.get("FINAGENT_TAXCODE_DIR", REPO.parent / "shared" / "data" / "tax-code")
    ).resolve()
    if not tax_code.is_dir():
        raise SystemExit(f"no Tax Code at {tax_code}: set FINAGENT_TAXCODE_DIR")

    with tempfile.TemporaryDirectory(prefix="finagent-demo-bench-") as tmp:
        root = Path(tmp)
        trees = {"ours": REPO, "base": baseline_tree(opts.base, root)}
        runs: dict[str, list[tuple[float, float]]] = {"ours": [], "base": []}
        for i in range(opts.repeats):
            for label, tree in trees.items():
                env = environment(root / f"data-{label}-{i}", tree)
                env["FINAGENT_TAXCODE_DIR"] = str(tax_code)
                runs[label].append(first_line_and_total(tree, env))
                first, total = runs[label][-1]
                print(
                    f"{label}: first line {first:.2f} s, total {total:.1f} s, "
                    f"load {os.getloadavg()[0]:.1f}",
                    flush=True,
                )
        print(
            f"\nfinagent demo, fresh data dir with the Tax Code: this tree vs {opts.base}, "
            f"medians of {opts.repeats} (cpus={os.cpu_count()}, load={os.getloadavg()[0]:.1f})\n"
        )
        print("| measure | ours | baseline | target |\n|---|---|---|---|")
        for i, name in enumerate(("first line", "total")):
            ours = statistics.median(r[i] for r in runs["ours"])
            base = statistics.median(r[i] for r in runs["base"])
            mark = "ok" if ours <= TARGETS[name] else "MISSED"
            print(f"| {name} | {ours:.2f} s | {base:.2f} s | <= {TARGETS[name]:g} s {mark} |")


if __name__ == "__main__":
    main()
