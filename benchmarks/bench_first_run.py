"""First-run wall times: this tree vs a baseline commit, side by side in one run.

Each measure is a whole ``finagent`` process (``python -m finagent.cli ...``), timed
with ``time.perf_counter`` around ``subprocess.run``; ours and the baseline alternate
so machine load hits both alike. The baseline is ``git archive BASE`` unpacked into a
temporary folder and run from there with the same interpreter (the current directory
comes first on ``sys.path``, so its ``finagent`` package is the one imported).

``demo`` runs on a fresh data dir (empty index and embedding cache) every time: ours
ingests the Tax Code too when it is found (FINAGENT_TAXCODE_DIR or ../shared/data/
tax-code), the baseline cannot.

``ask`` runs offline on a warm data dir: ours runs the demo once (or ``--warm-data`` names
a data dir that already holds it), and each tree gets its own copy, so neither finds the
other's vectors cached. Three measures: the README's question (its vectors are in the
cache, so the process is start-up, the graph and a ~50 ms answer), a question not asked
before in every repeat, as a user would (the question and the sentences the answer ranks
are embedded then), and a new question about the demo's documents in every repeat (user
``demo``: the documents' sentences are ranked too); ours and the baseline get the same
questions. The first row,
``python3 -c pass``, is the interpreter alone in the same environment: the machine is
shared, so the ratio of a command to it says more than its absolute time.

    python benchmarks/bench_first_run.py [--base 637a5c6] [--repeats 5] [--demo-repeats 1]
    python benchmarks/bench_first_run.py --no-demo      # CLI start and ask (two minutes)
"""

from __future__ import annotations

import argparse
import io
import os
import shutil
import statistics
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
CLI_MEASURES: list[tuple[str, list[str]]] = [
    ("finagent --help", ["--help"]),
    ('finagent route "..." --json', ["route", "Какие ставки НДС действуют?", "--json"]),
    ("finagent tools list", ["tools", "list"]),
]
# distinct offline questions, none from an eval set; one per repeat (a new question each time)
ASK_QUESTIONS = (
    "Какая ставка НДС применяется при экспорте товаров?",
    "До какого числа платить НДФЛ за сотрудников?",
    "Можно ли учесть расходы на такси при УСН доходы минус расходы?",
    "Как считается пеня за просрочку уплаты налога?",
    "Кто платит транспортный налог за арендованный автомобиль?",
    "Когда сдавать декларацию по налогу на прибыль за год?",
    "Облагаются ли страховыми взносами суточные в командировке?",
    "Какой срок хранения первичных документов?",
    "Нужно ли выставлять счёт-фактуру на аванс?",
    "Как подтвердить нулевую ставку НДС?",
)
# distinct questions about the demo's documents (user ``demo``), none from an eval set
ASK_DOC_QUESTIONS = (
    "Какой срок поставки товара по договору?",
    "Кто подписал акт выполненных работ?",
    "Какая сумма НДС в счёте-фактуре?",
    "В какой срок нужно ответить на уведомление налоговой?",
    "Какой остаток на счёте на конец периода по выписке?",
    "Какой размер залога по договору аренды?",
    "Кто поставщик по договору поставки?",
    "Какая стоимость работ по акту?",
    "Какой номер счёта-фактуры?",
    "Когда заканчивается договор аренды?",
)
README_QUESTION = ["ask", "кто арендодатель и сколько платим в месяц?", "--user", "demo"]
ASK = "finagent ask (README question, warm data dir)"
ASK_NEW = "finagent ask (a new question each time, warm data dir)"
ASK_DOC = "finagent ask (a new question about the documents each time)"
PASS = "python3 -c pass"
TARGETS = {
    "finagent --help": 0.5,
    ASK: 2.0,
    ASK_NEW: 2.0,
    ASK_DOC: 2.0,
    'finagent route "..." --json': 1.5,
    "finagent tools list": 1.5,
    "finagent demo (fresh data dir)": 20.0,
}


def baseline_tree(commit: str, into: Path) -> Path:
    """``git archive commit`` unpacked under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(REPO), "archive", "--format=tar", commit],
        capture_output=True,
        check=True,
    ).stdout
    root = into / f"base-{commit}"
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(root, filter="data")
    return root


def timed(
    tree: Path, args: list[str], env: dict[str, str], *, python: list[str] | None = None
) -> tuple[float, float]:
    """(wall seconds, CPU seconds user+sys) of one process; CPU time hardly depends on
    how busy the machine is, wall time does. ``python`` replaces the finagent command line
    (``-c pass``)."""
    started = time.perf_counter()
    with tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(
            [sys.executable, *(python or ["-m", "finagent.cli", *args])],
            cwd=tree,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=err,
        )
        _, status, usage = os.wait4(proc.pid, 0)
        seconds = time.perf_counter() - started
        if os.waitstatus_to_exitcode(status) != 0:
            err.seek(0)
            tail = err.read()[-2000:].decode(errors="replace")
            raise SystemExit(f"{tree.name}: finagent {' '.join(args)} failed:\n{tail}")
    return seconds, usage.ru_utime + usage.ru_stime


def environment(data_dir: Path, tree: Path) -> dict[str, str]:
    env = {
        **os.environ,
        "FINAGENT_DATA_DIR": str(data_dir),
        "FINAGENT_CBR_ENABLED": "false",
        "FINAGENT_LLM_API_KEY": "",
        "OPENROUTER_API_KEY": "",
        "FINAGENT_LLM_MODEL": "",
        "PYTHONPATH": str(tree),
    }
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    return env


def row(
    name: str,
    ours: list[tuple[float, float]],
    base: list[tuple[float, float]],
    interpreter: float | None = None,
) -> str:
    """A table row; ``interpreter`` is the median wall of ``python3 -c pass`` in this run."""
    o, b = (statistics.median(w for w, _ in ours), statistics.median(w for w, _ in base))
    oc, bc = (statistics.median(c for _, c in ours), statistics.median(c for _, c in base))
    target = TARGETS.get(name)
    mark = "" if target is None else (" ok" if o <= target else " MISSED")
    goal = f"<= {target:g} s{mark}" if target else ""
    load = os.getloadavg()[0]
    ratio = f"{o / interpreter:.0f}x" if interpreter else ""
    return (
        f"| {name} | {o:.2f} s | {b:.2f} s | {b / o:.1f}x | {oc:.2f} s | {bc:.2f} s "
        f"| {ratio} | {load:.1f} | {goal} |"
    )


def warm_data(root: Path, given: Path | None) -> Path:
    """A data dir holding the demo's data (ours builds it offline unless ``given``)."""
    if given is not None:
        return given
    warm = root / "warm"
    started = time.perf_counter()
    timed(REPO, ["demo", "--json"], environment(warm, REPO))
    print(f"warm data dir: demo in {time.perf_counter() - started:.1f} s", flush=True)
    return warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--base", default="637a5c6", help="Baseline commit")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--demo-repeats", type=int, default=1)
    parser.add_argument("--no-demo", action="store_true")
    parser.add_argument("--no-ask", action="store_true")
    parser.add_argument("--warm-data", type=Path, help="A data dir the demo has filled")
    opts = parser.parse_args()

    with tempfile.TemporaryDirectory(prefix="finagent-first-run-") as tmp:
        root = Path(tmp)
        base = baseline_tree(opts.base, root)
        trees = {"ours": REPO, "base": base}
        lines = [
            f"first run: this tree vs {opts.base}, medians of process wall times "
            f"(cpus={os.cpu_count()}, load={os.getloadavg()[0]:.1f})",
            "",
            "| measure | ours wall | baseline wall | speed-up | ours CPU | baseline CPU "
            "| ours / python3 -c pass | load after | target |",
            "|---|---|---|---|---|---|---|---|---|",
        ]
        bare = [timed(REPO, [], environment(root / "none", REPO), python=["-c", "pass"])]
        bare += [
            timed(REPO, [], environment(root / "none", REPO), python=["-c", "pass"])
            for _ in range(max(opts.repeats, 5))
        ]
        interpreter = statistics.median(w for w, _ in bare[1:])
        lines.append(row(PASS, bare[1:], bare[1:], interpreter))
        print(lines[-1], flush=True)
        if not opts.no_ask:
            warm = warm_data(root, opts.warm_data)
            times = {"ours": [], "base": []}
            dirs = {}
            for label in ("ours", "base"):  # a copy each: no question vector is shared
                dirs[label] = root / f"ask-{label}"
                shutil.copytree(warm, dirs[label])
                warm_up = ["ask", "Что такое УСН?"]  # byte-code compiled, files cached
                timed(trees[label], warm_up, environment(dirs[label], trees[label]))
            for _ in range(opts.repeats):
                for label in ("ours", "base"):
                    env = environment(dirs[label], trees[label])
                    times[label].append(timed(trees[label], README_QUESTION, env))
            lines.append(row(ASK, times["ours"], times["base"], interpreter))
            print(lines[-1], flush=True)
            times = {"ours": [], "base": []}
            for i in range(opts.repeats):
                question = ASK_QUESTIONS[i % len(ASK_QUESTIONS)]
                for label in ("ours", "base"):
                    env = environment(dirs[label], trees[label])
                    times[label].append(timed(trees[label], ["ask", question], env))
            lines.append(row(ASK_NEW, times["ours"], times["base"], interpreter))
            print(lines[-1], flush=True)
            times = {"ours": [], "base": []}
            for i in range(opts.repeats):
                question = ASK_DOC_QUESTIONS[i % len(ASK_DOC_QUESTIONS)]
                for label in ("ours", "base"):
                    env = environment(dirs[label], trees[label])
                    args = ["ask", question, "--user", "demo"]
                    times[label].append(timed(trees[label], args, env))
            lines.append(row(ASK_DOC, times["ours"], times["base"], interpreter))
            print(lines[-1], flush=True)
        for name, args in CLI_MEASURES:
            times: dict[str, list[tuple[float, float]]] = {"ours": [], "base": []}
            data = root / "cli-data"  # shared and warm: only the start-up differs
            for label in ("ours", "base"):  # warm-up: byte-code compiled, model files cached
                timed(trees[label], args, environment(data / label, trees[label]))
            for _ in range(opts.repeats):
                for label in ("ours", "base"):
                    env = environment(data / label, trees[label])
                    times[label].append(timed(trees[label], args, env))
            lines.append(row(name, times["ours"], times["base"], interpreter))
            print(lines[-1], flush=True)
        if not opts.no_demo:
            times = {"ours": [], "base": []}
            for i in range(opts.demo_repeats):
                for label in ("ours", "base"):
                    fresh = root / f"demo-{label}-{i}"
                    env = environment(fresh, trees[label])
                    times[label].append(timed(trees[label], ["demo", "--json"], env))
                    wall, cpu = times[label][-1]
                    load = os.getloadavg()[0]
                    print(
                        f"demo {label}: {wall:.1f} s wall, {cpu:.1f} s CPU, load {load:.1f}",
                        flush=True,
                    )
            lines.append(
                row("finagent demo (fresh data dir)", times["ours"], times["base"], interpreter)
            )
        print("\n".join(lines))


if __name__ == "__main__":
    main()
