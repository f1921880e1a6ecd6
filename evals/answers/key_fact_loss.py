"""Where each missed key fact of ``finagent eval answers`` is lost (a diagnostic).

Reads the JSON that ``finagent eval answers --json`` prints (or a ``finagent eval direct``
report's ``key_fact`` part does not carry answers: use the answers JSON) and the dataset,
and puts every answerable item whose answer body lacks its ``key_fact`` in one class:

* ``not_retrieved``: no retrieved unit's text holds the key fact (the Tax Code text of
  each retrieved unit id, parsed from ``--taxcode-dir``; a retrieved chunk may be a piece
  of its unit, so this is an upper bound of what retrieval brought);
  ``expected_retrieved`` tells whether an expected unit was among the retrieved ones;
* ``retrieved_not_in_body``: a retrieved unit holds it, the body does not;
* ``worded_differently``: the body holds it once punctuation, quotes and dashes are
  dropped too (a normalisation difference, not a lost fact);
* ``abstained``: the answer declined.

``--direct`` first answers the dataset on the warm data dir of ``finagent eval direct``
over every blind dev set (knowledge base and Tax Code together, as the key fact row of
that evaluation is measured) and writes RUN.json in the answers JSON's shape.

Usage::

    python -m evals.answers.key_fact_loss RUN.json \
        --dataset evals/datasets/answers_taxcode.jsonl --taxcode-dir DIR [--direct] [--items]
"""

from __future__ import annotations

import argparse
import json
import re
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from evals.answers.text import abstained, answer_body, normalise
from finagent.retrieval.legal import parse_code

REPO = Path(__file__).resolve().parents[2]
TAXCODE_FILES = {1: "nk-part1-2025.txt", 2: "nk-part2-2025.txt"}
_PUNCT = re.compile(r"[«»\"'“”„()\[\].,;:!?—–-]+")


def loose(text: str) -> str:
    """``normalise`` with punctuation, quotes and dashes dropped."""
    return " ".join(_PUNCT.sub(" ", normalise(text)).split())


def unit_texts(taxcode_dir: Path) -> dict[str, str]:
    """Unit id -> text for both parts of the Tax Code."""
    out: dict[str, str] = {}
    for part, name in TAXCODE_FILES.items():
        path = taxcode_dir / name
        for unit in parse_code(path.read_text(encoding="utf-8"), "nk", part):
            out[unit.unit_id] = unit.text
    return out


def text_of(unit_id: str, texts: dict[str, str]) -> str:
    """The text of a retrieved unit; a sub-point id falls back to its nearest parent."""
    parts = unit_id.split(".")
    while parts:
        key = ".".join(parts)
        if key in texts:
            return texts[key]
        parts.pop()
    return ""


def classify(
    entry: dict[str, Any], key_fact: str, expected: Iterable[str], texts: dict[str, str]
) -> dict[str, Any]:
    """The loss class of one missed item (see the module docstring)."""
    answer = str(entry.get("answer") or "")
    body = answer_body(answer)
    retrieved = [str(u) for u in entry.get("retrieved_units") or []]
    holders = [u for u in retrieved if normalise(key_fact) in normalise(text_of(u, texts))]
    where = [u for u, t in texts.items() if normalise(key_fact) in normalise(t)]
    if abstained(answer):
        kind = "abstained"
    elif loose(key_fact) in loose(body):
        kind = "worded_differently"
    elif holders:
        kind = "retrieved_not_in_body"
    else:
        kind = "not_retrieved"
    return {
        "id": entry.get("id"),
        "class": kind,
        "holders": holders,
        "key_fact_units": where[:5],
        "expected_retrieved": bool(set(expected) & set(retrieved)),
        "retrieved": retrieved,
    }


def items_of(report: dict[str, Any]) -> list[dict[str, Any]]:
    """Every scored item of the verified mode of every dataset in the answers JSON."""
    out: list[dict[str, Any]] = []
    for part in report.get("by_dataset", {}).values():
        out += part.get("items", {}).get("verified", [])
    return out


def dev_sets(folder: Path) -> list[Path]:
    """Every blind dev set of ``folder`` in its number's order (the sets whose documents
    ``finagent eval direct`` ingests into its data dir)."""
    paths = folder.glob("direct_dev_blind*.jsonl")
    return sorted(paths, key=lambda p: int(p.stem.removeprefix("direct_dev_blind") or 0))


async def answer_on_direct_dir(dataset: Path, taxcode_dir: Path) -> dict[str, Any]:
    """Answer ``dataset`` as ``finagent eval direct`` does for its key fact row (the data
    dir of every blind dev set, which must be warm: this ingests nothing)."""
    from dataclasses import replace

    from evals.answers.code_units import CodeUnits
    from evals.answers.dataset import load_answer_dataset
    from evals.answers.langsmith_io import offline_client
    from evals.answers.runner import _evaluate_mode, eval_settings
    from evals.direct.dataset import DATASETS_DIR, load_direct_dataset
    from evals.direct.runner import DirectEvalConfig, _sources
    from evals.direct.setup import data_dir_for
    from finagent.bootstrap import Root
    from finagent.config import get_settings
    from finagent.graph.agent import Agent
    from finagent.retrieval.embedding_cache import build_cached_embedder

    settings = get_settings()
    files = [(taxcode_dir / name, part) for part, name in TAXCODE_FILES.items()]
    config = DirectEvalConfig(
        kb_csv=REPO / "knowledge_base" / "train_data.csv",
        demo_docs=REPO / "sample_docs",
        taxcode=files,
    )
    sets = [load_direct_dataset(path, 1) for path in dev_sets(DATASETS_DIR)]
    embedder = build_cached_embedder(settings)
    folder, warm = data_dir_for(settings.data_dir, _sources(sets, config), embedder.model_id)
    if not warm:
        raise SystemExit(f"{folder} is not ready: run finagent eval direct once first")
    root = Root(eval_settings(settings, folder, verified=True), llm=None, embedder=embedder)
    try:
        deps = await root.start()
        agent = Agent(
            replace(deps, settings=deps.settings.model_copy(update={"answer_composer": "direct"}))
        )
        items = load_answer_dataset(dataset, None)
        code = CodeUnits.from_taxcode(files)
        scored, _ = await _evaluate_mode(
            agent, items, code, mode="direct", upload=False, client=offline_client(), metadata={}
        )
    finally:
        await root.aclose()
    name = items[0].dataset
    return {"by_dataset": {name: {"items": {"verified": scored}}}}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--dataset", type=Path, required=True)
    parser.add_argument("--taxcode-dir", type=Path, required=True)
    parser.add_argument("--items", action="store_true", help="print every missed item")
    parser.add_argument("--direct", action="store_true", help="answer first (see above)")
    args = parser.parse_args(argv)
    if args.direct:
        import asyncio

        run = asyncio.run(answer_on_direct_dir(args.dataset, args.taxcode_dir))
        args.report.write_text(json.dumps(run, ensure_ascii=False), "utf-8")
    data = {
        d["id"]: d
        for d in (json.loads(line) for line in args.dataset.read_text().splitlines() if line)
    }
    texts = unit_texts(args.taxcode_dir)
    rows = []
    for entry in items_of(json.loads(args.report.read_text())):
        item = data.get(str(entry.get("id")))
        if item is None or entry.get("key_fact") is None or entry["key_fact"] >= 1.0:
            continue
        rows.append(classify(entry, item["key_fact"], item.get("expected_units", []), texts))
    counts = Counter(r["class"] for r in rows)
    nr = [r for r in rows if r["class"] == "not_retrieved"]
    print(f"missed {len(rows)}: " + ", ".join(f"{k} {v}" for k, v in counts.most_common()))
    print(
        f"not_retrieved with an expected unit retrieved: {sum(r['expected_retrieved'] for r in nr)}"
    )
    if args.items:
        for r in rows:
            print(json.dumps(r, ensure_ascii=False))


if __name__ == "__main__":
    main()
