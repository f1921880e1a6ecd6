"""Routing evaluation: the orchestrator's decisions against evals/datasets/routing.jsonl.

A row is correct when the scenario matches and, for scenario 2, the intents match
exactly (order included). Without an LLM the rule router is evaluated; with one, the
whole orchestrate step (LLM call, fallbacks) is.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from finagent.routing.rules import classify
from finagent.state import Decision, Turn


class RoutingCase(BaseModel):
    id: str
    query: str
    scenario: int
    intents: list[str] = Field(default_factory=list)
    history: list[Turn] = Field(default_factory=list)
    selected_documents: bool = False
    note: str = ""


def load_routing_dataset(path: Path) -> list[RoutingCase]:
    cases = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                cases.append(RoutingCase.model_validate(json.loads(line)))
            except (json.JSONDecodeError, ValueError) as exc:
                raise ValueError(f"{path.name}:{number}: invalid row ({exc})") from exc
    return cases


def is_correct(case: RoutingCase, decision: Decision) -> bool:
    if int(decision.scenario) != case.scenario:
        return False
    return case.scenario != 2 or list(decision.intents) == case.intents


def label(case: RoutingCase) -> str:
    return f"S{case.scenario}" + (f":{'+'.join(case.intents)}" if case.scenario == 2 else "")


def score(cases: list[RoutingCase], decisions: list[Decision]) -> dict[str, Any]:
    """Accuracy overall and per label, with every miss listed."""
    totals: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    misses = []
    for case, decision in zip(cases, decisions, strict=True):
        key = label(case)
        totals[key] += 1
        if is_correct(case, decision):
            hits[key] += 1
        else:
            got = f"S{int(decision.scenario)}" + (
                f":{'+'.join(decision.intents)}" if decision.intents else ""
            )
            misses.append({"id": case.id, "query": case.query, "expected": key, "got": got})
    n = max(len(cases), 1)
    return {
        "size": len(cases),
        "accuracy": round(sum(hits.values()) / n, 4),
        "per_label": {
            k: {"n": totals[k], "accuracy": round(hits[k] / totals[k], 4)} for k in sorted(totals)
        },
        "misses": misses,
    }


def evaluate_rules(cases: list[RoutingCase]) -> dict[str, Any]:
    """The rule router alone (what runs with no LLM configured)."""
    decisions = [classify(c.query, c.history, c.selected_documents) for c in cases]
    return {"router": "rules", **score(cases, decisions)}


def format_report(result: dict[str, Any]) -> str:
    lines = [
        f"router: {result['router']}  rows: {result['size']}  accuracy: {result['accuracy']:.3f}",
        "",
    ]
    lines += [f"{k:22} n={v['n']:3}  {v['accuracy']:.3f}" for k, v in result["per_label"].items()]
    if result["misses"]:
        lines += ["", "misses:"]
        lines += [
            f"  {m['id']} {m['expected']} -> {m['got']}: {m['query']}" for m in result["misses"]
        ]
    return "\n".join(lines)
