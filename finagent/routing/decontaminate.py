"""Keep the classifier's training examples apart from the evaluation sets.

Removes from a training file (``text``, ``label`` rows) every example whose normalised text
equals, or nearly equals (token Jaccard >= ``JACCARD``), a question of an evaluation set
(``query`` rows). It prints only counts, never an evaluation item, so it can run against a
blind hold-out without anyone reading it. With ``--record`` it also writes the ids of the
evaluation rows that had a (near) copy in the training file, so the evaluation can report
its figure without them (merged into the ids already recorded there).

Usage::

    python -m finagent.routing.decontaminate --train finagent/routing/data/routing_train.jsonl \\
        --against evals/datasets/routing_holdout.jsonl [--against ...] [--record ids.json]
"""

from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

JACCARD = 0.8
_TOKEN = re.compile(r"[a-zа-я0-9]+")


def tokens(text: str) -> frozenset[str]:
    return frozenset(_TOKEN.findall(text.lower().replace("ё", "е")))


def normalised(text: str) -> str:
    return " ".join(_TOKEN.findall(text.lower().replace("ё", "е")))


def near(a: frozenset[str], b: frozenset[str], threshold: float = JACCARD) -> bool:
    if not a or not b:
        return a == b
    return len(a & b) / len(a | b) >= threshold


def is_contaminated(text: str, queries: list[str], threshold: float = JACCARD) -> bool:
    key, bag = normalised(text), tokens(text)
    return any(key == normalised(q) or near(bag, tokens(q), threshold) for q in queries)


def _jsonl(path: Path) -> list[dict[str, object]]:
    return [json.loads(line) for line in path.read_text("utf-8").splitlines() if line.strip()]


def decontaminate(train: Path, against: list[Path], record: Path | None = None) -> int:
    """Rewrite ``train`` without the contaminated examples; return how many were removed."""
    rows = _jsonl(train)
    evaluated = [(path, row) for path in against for row in _jsonl(path)]
    queries = [str(row["query"]) for _, row in evaluated]
    kept = [row for row in rows if not is_contaminated(str(row["text"]), queries)]
    if record is not None:
        texts = [str(row["text"]) for row in rows]
        seen: dict[str, list[str]] = (
            json.loads(record.read_text("utf-8")) if record.is_file() else {}
        )
        for path in against:
            ids = {
                str(row["id"])
                for p, row in evaluated
                if p == path and is_contaminated(str(row["query"]), texts)
            }
            seen[path.name] = sorted(ids | set(seen.get(path.name, [])))
        record.write_text(json.dumps(seen, ensure_ascii=False, indent=2) + "\n", "utf-8")
    body = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in kept)
    train.write_text(body, "utf-8")
    return len(rows) - len(kept)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--train", type=Path, required=True)
    parser.add_argument("--against", type=Path, action="append", required=True)
    parser.add_argument("--record", type=Path, default=None)
    args = parser.parse_args()
    removed = decontaminate(args.train, args.against, args.record)
    print(f"{args.train.name}: removed {removed} example(s) matching the evaluation sets")


if __name__ == "__main__":
    main()
