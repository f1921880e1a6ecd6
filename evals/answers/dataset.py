"""Answer evaluation items (JSONL, one object a line).

Fields: ``id``, ``question``, ``expected_units`` (unit ids such as ``nk1.ch14.art88.p2``),
``expected_articles`` (``nk1.ch14.art88``), ``key_fact`` (a short verbatim phrase of the
expected unit, or null), ``topic``, ``trap`` (bool), ``trap_kind`` (null, ``jurisdiction``,
``uningested_code``, ``nonexistent_document``, ``out_of_corpus`` or ``after_edition``) and
``note``.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from evals import DATASETS_DIR

DEV_DATASET = DATASETS_DIR / "answers_taxcode.jsonl"
HOLDOUT_DATASET = DATASETS_DIR / "answers_taxcode_holdout.jsonl"
# the development set and the blind hold-out set, reported separately
DEFAULT_DATASETS = [DEV_DATASET, HOLDOUT_DATASET]

TRAP_KINDS = frozenset(
    {"jurisdiction", "uningested_code", "nonexistent_document", "out_of_corpus", "after_edition"}
)
AFTER_EDITION = "after_edition"


@dataclass
class AnswerItem:
    id: str
    question: str
    expected_units: list[str] = field(default_factory=list)
    expected_articles: list[str] = field(default_factory=list)
    key_fact: str | None = None
    topic: str = ""
    trap: bool = False
    trap_kind: str | None = None
    note: str = ""
    dataset: str = "dataset"

    @property
    def abstention_expected(self) -> bool:
        """Traps other than ``after_edition`` must be declined."""
        return self.trap and self.trap_kind != AFTER_EDITION

    @property
    def counts_for_recall(self) -> bool:
        """Answerable items, and after-edition traps that name expected units."""
        if not self.trap:
            return True
        return self.trap_kind == AFTER_EDITION and bool(self.expected_units)

    def reference(self) -> dict[str, Any]:
        """What the evaluators compare against (a LangSmith example's outputs)."""
        data = asdict(self)
        data.pop("question")
        return data


def _item(data: dict[str, Any], dataset: str, line: int) -> AnswerItem:
    for key in ("id", "question"):
        if not isinstance(data.get(key), str) or not data[key].strip():
            raise ValueError(f"line {line}: '{key}' must be a non-empty string")
    kind = data.get("trap_kind")
    if kind is not None and kind not in TRAP_KINDS:
        raise ValueError(f"line {line}: unknown trap_kind {kind!r}")
    return AnswerItem(
        id=data["id"],
        question=data["question"],
        expected_units=[str(u) for u in data.get("expected_units") or []],
        expected_articles=[str(a) for a in data.get("expected_articles") or []],
        key_fact=data.get("key_fact") or None,
        topic=str(data.get("topic") or ""),
        trap=bool(data.get("trap")),
        trap_kind=kind,
        note=str(data.get("note") or ""),
        dataset=dataset,
    )


def load_answer_dataset(path: Path, limit: int | None = None) -> list[AnswerItem]:
    """Items of one JSONL file, tagged with the file's stem as their dataset name."""
    items: list[AnswerItem] = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if line.strip():
            items.append(_item(json.loads(line), path.stem, number))
    ids = [i.id for i in items]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path}: duplicate item ids")
    return items[:limit] if limit else items
