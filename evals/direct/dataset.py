"""Direct-answer items (JSONL, one object a line) and the rules of their datasets.

An item: ``id``, ``question``, ``category`` (doc_sample, doc_new, taxcode, kb, decline),
``user`` (``demo``: the bundled sample documents; ``fresh``: the dataset's own documents),
``documents``, ``answer_type``, ``must_contain`` (groups of alternatives: every group must
occur in the Краткий вывод, a group is met by any of its alternatives), ``expected``
(answer, decline, clarify), ``source``, ``as_of`` (ISO date: the question's "today") and
``notes``. A malformed item is reported and skipped, never fatal.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from pathlib import Path
from typing import Any

from evals import DATASETS_DIR

DEV_DATASET = DATASETS_DIR / "direct_dev_blind1.jsonl"
# written blind; never read for development: the harness prints its totals only
HOLDOUT_DATASET = DATASETS_DIR / "direct_holdout_v28.jsonl"
DOCS_DIR = DATASETS_DIR / "direct_docs"
CATEGORIES = frozenset({"doc_sample", "doc_new", "taxcode", "kb", "decline"})
USERS = frozenset({"demo", "fresh"})
EXPECTED = frozenset({"answer", "decline", "clarify"})
ANSWER_TYPES = frozenset(
    {
        "rate",
        "amount",
        "date",
        "period",
        "party",
        "limit",
        "yes_no",
        "list",
        "procedure",
        "definition",
        "none",
    }
)


@dataclass
class DirectItem:
    id: str
    question: str
    category: str
    user: str
    expected: str
    must_contain: list[list[str]]
    answer_type: str = "none"
    as_of: date | None = None
    documents: list[str] = field(default_factory=list)
    source: str = ""
    notes: str = ""
    dataset: str = "dataset"

    @property
    def answerable(self) -> bool:
        return self.expected == "answer"


@dataclass
class LoadedDataset:
    """The items of one file that could be read, and why the others were skipped."""

    name: str
    path: Path
    items: list[DirectItem]
    problems: list[str]

    @property
    def blind(self) -> bool:
        return is_blind(self.name)


def is_blind(name: str) -> bool:
    """A hold-out: its items, questions and answers are never shown, only totals."""
    return "holdout" in name.lower()


def docs_folder(path: Path) -> Path:
    """``direct_dev_blind1.jsonl`` -> ``direct_docs/dev_blind1/`` beside the dataset."""
    return path.parent / "direct_docs" / path.stem.removeprefix("direct_")


def fresh_user(name: str) -> str:
    """The user who owns a dataset's own documents: ``fresh-dev_blind1``."""
    return "fresh-" + name.removeprefix("direct_")


def _text(data: dict[str, Any], key: str) -> str:
    value = data.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ValueError(f"'{key}' must be a non-empty string")
    return value.strip()


def _choice(data: dict[str, Any], key: str, allowed: frozenset[str]) -> str:
    value = _text(data, key)
    if value not in allowed:
        raise ValueError(f"'{key}' is {value!r}, expected one of {sorted(allowed)}")
    return value


def _groups(raw: Any) -> list[list[str]]:
    """Groups of alternatives; a bare string is a group of one."""
    if raw is None:
        return []
    if not isinstance(raw, list):
        raise ValueError("'must_contain' must be a list of groups")
    groups = []
    for group in raw:
        alternatives = [group] if isinstance(group, str) else group
        if not isinstance(alternatives, list) or not alternatives:
            raise ValueError("'must_contain' groups must be non-empty lists of strings")
        if not all(isinstance(a, str) and a.strip() for a in alternatives):
            raise ValueError("'must_contain' alternatives must be non-empty strings")
        groups.append([a.strip() for a in alternatives])
    return groups


def parse_item(data: Any, dataset: str) -> DirectItem:
    """One item, or ValueError saying which field is wrong."""
    if not isinstance(data, dict):
        raise ValueError("not a JSON object")
    expected = _choice(data, "expected", EXPECTED)
    groups = _groups(data.get("must_contain"))
    if expected == "answer" and not groups:
        raise ValueError("an answerable item needs 'must_contain'")
    as_of = data.get("as_of")
    try:
        day = date.fromisoformat(as_of) if as_of else None
    except (TypeError, ValueError):
        raise ValueError(f"'as_of' is not an ISO date: {as_of!r}") from None
    documents = data.get("documents") or []
    if not isinstance(documents, list):
        raise ValueError("'documents' must be a list")
    return DirectItem(
        id=_text(data, "id"),
        question=_text(data, "question"),
        category=_choice(data, "category", CATEGORIES),
        user=_choice(data, "user", USERS),
        expected=expected,
        must_contain=groups,
        answer_type=_choice(data, "answer_type", ANSWER_TYPES)
        if data.get("answer_type")
        else "none",
        as_of=day,
        documents=[str(d) for d in documents],
        source=str(data.get("source") or ""),
        notes=str(data.get("notes") or ""),
        dataset=dataset,
    )


def load_direct_dataset(path: Path, limit: int | None = None) -> LoadedDataset:
    """Every readable item of ``path``; malformed lines and duplicate ids are skipped
    and listed in ``problems`` (by line number only: hold-out text is never repeated)."""
    name = path.stem
    items: list[DirectItem] = []
    problems: list[str] = []
    seen: set[str] = set()
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        try:
            item = parse_item(json.loads(line), name)
        except json.JSONDecodeError:
            problems.append(f"line {number}: not valid JSON")
            continue
        except ValueError as exc:
            problems.append(f"line {number}: {exc}")
            continue
        if item.id in seen:
            problems.append(f"line {number}: duplicate id")
            continue
        seen.add(item.id)
        items.append(item)
    return LoadedDataset(name, path, items[:limit] if limit else items, problems)
