"""How many regular expressions the calculators' question understanding holds.

Counts, in the modules that read a deadline or пени question (``CALC_MODULES``, whichever
exist at the revision) and in their data files (``CALC_DATA``):

- Python: every string literal (or f-string) that is a regular expression, recognised by
  its syntax (``\\b``, ``\\w``, ``(?``, ``[...]``, ``|``, ``.{``, anchors, ...); docstrings
  are not counted;
- YAML: every pattern of the period table's regex fields (``patterns``, ``requires``,
  ``unless``, ``asked``, ``unless_asked``, ``event_cue``), and any other string value with
  regex syntax (the lemma cue tables hold none).

``python -m evals.calc_regex_count`` counts the working tree; ``--rev <commit>`` counts a
revision read with ``git show`` (e.g. the commit before the lemma rewrite). Modules shared
with other features that calc reuses (``SHARED_MODULES``) are reported apart.
"""

from __future__ import annotations

import argparse
import ast
import re
import subprocess
from pathlib import Path
from typing import Any

import yaml

REPO = Path(__file__).resolve().parents[1]
CALC_MODULES = (
    "finagent/legal/calc_query.py",
    "finagent/legal/periods.py",
    "finagent/legal/question_dates.py",
    "finagent/legal/calc_wording.py",
    "finagent/legal/calc_asks.py",
    "finagent/routing/calc_rules.py",
    "finagent/legal/calc_text.py",
    "finagent/legal/calc_lexicon.py",
    "finagent/legal/calc_extract.py",
    "finagent/legal/stated_rule.py",
    "finagent/legal/calc_request.py",
    "finagent/legal/period_cues.py",
    "finagent/legal/question_days.py",
    "finagent/legal/question_periods.py",
    "finagent/legal/deadline_reading.py",
    "finagent/legal/penalty_reading.py",
)
CALC_DATA = (
    "finagent/legal/data/procedural_periods.yaml",
    "finagent/legal/data/period_cues.yaml",
    "finagent/legal/data/calc_lexicon.yaml",
)
# reused by the calculators, written for other features
SHARED_MODULES = ("finagent/legal/jurisdiction.py", "finagent/legal/references.py")
REGEX_FIELDS = ("patterns", "requires", "unless", "asked", "unless_asked", "event_cue")
_SYNTAX = re.compile(r"\\[bwsdWSDB.]|\(\?|\[[^\]]*\]|\||\.\{|\{\d|\.\*|\^|\$")


def _read(path: str, rev: str | None) -> str | None:
    if rev is None:
        file = REPO / path
        return file.read_text(encoding="utf-8") if file.exists() else None
    shown = subprocess.run(
        ["git", "-C", str(REPO), "show", f"{rev}:{path}"], capture_output=True, text=True
    )
    return shown.stdout if shown.returncode == 0 else None


def python_regexes(source: str) -> int:
    """String literals with regex syntax, docstrings and f-string parts excluded."""
    tree = ast.parse(source)
    docstrings = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (
            isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
        ):
            docstrings.add(id(body[0].value))
    inside_fstrings = set()
    count = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            inside_fstrings |= {id(v) for v in node.values}
            text = "".join(
                str(v.value) if isinstance(v, ast.Constant) else "X" for v in node.values
            )
            count += bool(_SYNTAX.search(text))
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings | inside_fstrings
        ):
            count += bool(_SYNTAX.search(node.value))
    return count


def _strings(value: Any) -> list[str]:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list):
        return [s for item in value for s in _strings(item)]
    if isinstance(value, dict):
        return [s for item in value.values() for s in _strings(item)]
    return []


def yaml_regexes(source: str) -> dict[str, int]:
    """Patterns of the regex fields, ``unless`` apart, and other strings with regex syntax."""
    data = yaml.safe_load(source)
    rows = data if isinstance(data, list) else []
    fields = {name: 0 for name in REGEX_FIELDS}
    other = 0
    for row in rows:
        for name in REGEX_FIELDS:
            value = row.get(name)
            fields[name] += len(value) if isinstance(value, list) else int(value is not None)
        other += sum(
            bool(_SYNTAX.search(s))
            for key, value in row.items()
            if key not in REGEX_FIELDS and key not in ("decline", "what", "event", "norm")
            for s in _strings(value)
        )
    if not rows:
        other += sum(bool(_SYNTAX.search(s)) for s in _strings(data))
    return {**fields, "other": other}


def count(rev: str | None = None) -> dict[str, Any]:
    python = {}
    for path in CALC_MODULES:
        source = _read(path, rev)
        if source is not None:
            python[path] = python_regexes(source)
    data = {}
    for path in CALC_DATA:
        source = _read(path, rev)
        if source is not None:
            data[path] = yaml_regexes(source)
    shared = {p: python_regexes(s) for p in SHARED_MODULES if (s := _read(p, rev)) is not None}
    yaml_total = sum(sum(v.values()) for v in data.values())
    return {
        "python": python,
        "python_total": sum(python.values()),
        "yaml": data,
        "yaml_total": yaml_total,
        "unless_total": sum(v["unless"] + v["unless_asked"] for v in data.values()),
        "total": sum(python.values()) + yaml_total,
        "shared": shared,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rev", help="a git revision (default: the working tree)")
    args = parser.parse_args()
    found = count(args.rev)
    for path, n in found["python"].items():
        print(f"{n:5d}  {path}")
    for path, fields in found["yaml"].items():
        detail = ", ".join(f"{k} {v}" for k, v in fields.items() if v)
        print(f"{sum(fields.values()):5d}  {path}" + (f" ({detail})" if detail else ""))
    print(f"{found['python_total']:5d}  Python total")
    print(f"{found['yaml_total']:5d}  YAML total ({found['unless_total']} unless)")
    print(f"{found['total']:5d}  total")
    for path, n in found["shared"].items():
        print(f"{n:5d}  shared, not counted: {path}")


if __name__ == "__main__":
    main()
