"""Collect the candidate sentences of document questions and compare orders of them.

``python -m evals.ranker.documents [--cache=FILE.npz]``: every document question
(``doc_*`` categories) of ``direct_dev_blind1..10`` is answered offline by the direct
composer on the direct evaluation's warm data dir; each time the composer orders the
sentences of the named documents (:func:`finagent.answering.document_sentences.
document_order_keys`) their cascade keys and a few positional features are recorded,
labelled by whether the sentence holds an expected value. A logistic regression (alone, or
breaking the cascade's ties below its value level) is then scored leave-one-set-out: fit
on nine sets, top-1 on the tenth, against the cascade's own top-1. Nothing is written: the
report decides whether a learned order is worth shipping (docs/direct-answers.md).
"""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

import evals.direct.runner as direct_runner
import finagent.answering.pipeline as pipeline
from evals.answers.code_units import CodeUnits
from evals.direct.dataset import DATASETS_DIR, DirectItem, LoadedDataset, load_direct_dataset
from evals.direct.matching import group_met
from evals.direct.runner import answer_item, run_direct_eval
from evals.ranker.collecting import (
    cache_path,
    collected,
    direct_config,
    load_labelled,
    save_labelled,
)
from evals.ranker.fit import fit_logistic
from finagent.answering.document_sentences import (
    OrderKey,
    document_order_keys,
    rerank_document_sentences,
)
from finagent.answering.evidence import FULL, Candidate
from finagent.config import get_settings
from finagent.graph.agent import Agent

SETS = [DATASETS_DIR / f"direct_dev_blind{n}.jsonl" for n in range(1, 11)]
FEATURES = (
    "clause",
    "not_restated",
    "value_level",
    "shared_words_e5",
    "title_words",
    "ranker_score",
    "position",
    "whole_document",
    "has_digit",
    "log_words",
)


@dataclass
class Question:
    """The ordered sentences of one document question: cascade keys, features, labels."""

    qid: str
    dataset: str
    keys: list[OrderKey]
    x: np.ndarray
    y: np.ndarray


def _row(key: OrderKey, candidate: Candidate, count: int) -> list[float]:
    text = candidate.sentence
    whole = bool(candidate.chunk.metadata.get(FULL))
    return [
        *(float(v) for v in key),
        candidate.position / max(1, count) if whole else 0.0,
        float(whole),
        float(any(ch.isdigit() for ch in text)),
        math.log1p(len(text.split())),
    ]


async def collect() -> list[Question]:
    """Answer every document question, recording the first document ordering of each."""
    settings = get_settings()
    loaded = [load_direct_dataset(path) for path in SETS]
    datasets = [
        LoadedDataset(
            d.name, d.path, [i for i in d.items if i.category.startswith("doc")], d.problems
        )
        for d in loaded
    ]
    config = direct_config(settings, modes=["direct"])
    current: list[DirectItem] = []
    out: list[Question] = []

    def recording(*args: Any, **kwargs: Any) -> list[Candidate]:
        keyed = document_order_keys(*args, **kwargs)
        item = current[-1] if current else None
        if keyed is not None and item is not None and item.answerable:
            own, keys = keyed
            if not any(q.qid == item.id and q.dataset == item.dataset for q in out):
                count = max((c.position for c in own), default=0) + 1
                x = np.asarray([_row(k, c, count) for k, c in zip(keys, own, strict=True)])
                y = np.asarray(
                    [float(any(group_met(c.sentence, g) for g in item.must_contain)) for c in own]
                )
                out.append(Question(item.id, item.dataset, keys, x, y))
        return rerank_document_sentences(*args, **kwargs)

    async def answering(agent: Agent, item: DirectItem, code: CodeUnits) -> Any:
        current.append(item)
        return await answer_item(agent, item, code)

    patched: list[tuple[Any, str, Callable[..., Any]]] = [
        (pipeline, "rerank_document_sentences", recording),
        (direct_runner, "answer_item", answering),
    ]
    saved = [(m, n, getattr(m, n)) for m, n, _ in patched]
    for module, name, value in patched:
        setattr(module, name, value)
    try:
        await run_direct_eval(datasets, settings, replace(config, warmup=False))
    finally:
        for module, name, value in saved:
            setattr(module, name, value)
    return out


def _cascade_top(q: Question) -> int:
    return max(range(len(q.keys)), key=lambda i: (q.keys[i], -i))


def _learned_top(q: Question, w: np.ndarray, b: float) -> int:
    return int(np.argmax(q.x @ w + b))


def _tie_top(q: Question, w: np.ndarray, b: float) -> int:
    """The cascade's first three levels (clause, not restated, value level), then the model."""
    s = q.x @ w + b
    return max(range(len(q.keys)), key=lambda i: (q.keys[i][:3], s[i]))


def leave_one_set_out(questions: Sequence[Question]) -> dict[str, Any]:
    names = sorted({q.dataset for q in questions}, key=lambda n: int(n.rsplit("blind", 1)[1]))
    report: dict[str, Any] = {}
    totals = {"questions": 0, "cascade": 0, "learned": 0, "tie_break": 0}
    for name in names:
        test = [q for q in questions if q.dataset == name and q.y.any()]
        train = [q for q in questions if q.dataset != name]
        w, b = fit_logistic(np.vstack([q.x for q in train]), np.concatenate([q.y for q in train]))
        row = {
            "questions": len(test),
            "cascade": sum(bool(q.y[_cascade_top(q)]) for q in test),
            "learned": sum(bool(q.y[_learned_top(q, w, b)]) for q in test),
            "tie_break": sum(bool(q.y[_tie_top(q, w, b)]) for q in test),
        }
        report[name] = row
        for k in totals:
            totals[k] += row[k]
    report["total"] = totals
    return report


def save(path: Path, questions: Sequence[Question]) -> None:
    save_labelled(path, [(q.qid, q.dataset, q.x, q.y) for q in questions], "sets")


def load(path: Path) -> list[Question]:
    out = []
    for qid, name, x, y in load_labelled(path, "sets"):
        keys: list[OrderKey] = [
            (bool(r[0]), bool(r[1]), float(r[2]), float(r[3]), int(r[4]), float(r[5])) for r in x
        ]
        out.append(Question(qid, name, keys, x, y))
    return out


def main(cache: Path | None) -> None:
    questions = collected(cache, collect, save, load)
    answerable = [q for q in questions if q.y.any()]
    report = {
        "features": list(FEATURES),
        "questions": len(questions),
        "with_value_sentence": len(answerable),
        "leave_one_set_out_top1": leave_one_set_out(questions),
    }
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main(cache_path(sys.argv[1:]))
