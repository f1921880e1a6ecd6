"""Deterministic per-answer scores and their aggregation.

Every score reads the agent's *outputs* (a plain dict, see :func:`outputs_from_result`)
and the dataset item; nothing here calls a model.

* **Citations.** The cited units are ``debug["cited_units"]`` (unit ids of the law
  sources cited in the final answer); when the answer node does not report them, the
  ``unit_id`` of every retrieved chunk whose source number ``[n]`` the answer cites.
  Article level compares their articles with ``expected_articles``, point level the
  units with ``expected_units``. precision = cited and expected / cited; recall =
  expected and cited / expected. Scored on answerable items, and recall also on
  ``after_edition`` traps that list expected units. An answer citing nothing has no
  precision (left out of the mean) and recall 0.
* **Key fact.** ``key_fact`` occurs in the answer body (the text before «## Источники»),
  both sides lower-cased, ё read as е and whitespace collapsed.
* **Abstention.** Traps other than ``after_edition`` pass when the answer contains
  «нет оснований для ответа» and its Краткий вывод (the whole body when it has no such
  section) states no figure: no number other than the question's own once citation
  markers and legal references are removed. ``after_edition`` traps pass when the answer
  warns «норма могла измениться». The marker on an answerable item is a false abstention.
* **References.** Every legal reference in the body (:func:`find_references`) is
  *supported* when it resolves to a unit of the ingested Tax Code (no code or НК РФ; the
  article exists and, when a point is named and the article has points, that point too)
  and its article is among the retrieved sources. Otherwise it is *unsupported*, except
  when it sits in a passage quoted verbatim from a retrieved source: the sentence holding
  it, or the «...» quotation holding it (a trailing «…» of a cut quotation dropped), with
  citation markers like ``[3]`` removed, occurs in some retrieved chunk's text
  (whitespace collapsed, case and ё normalised, at least 25 characters). Those are
  counted as *quoted*, separately: the Code's own cross-references inside a quotation.

Text helpers are in :mod:`~evals.answers.text`, the agent's outputs in
:mod:`~evals.answers.outputs`, reference support in :mod:`~evals.answers.quotes`, the
Tax Code's units in :mod:`~evals.answers.code_units` and the aggregation in
:mod:`~evals.answers.aggregate`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from evals.answers.code_units import CodeUnits
from evals.answers.dataset import AnswerItem
from evals.answers.quotes import reference_report
from evals.answers.text import (
    abstained,
    answer_body,
    article_of,
    figures,
    normalise,
    summary_section,
)

EDITION_MARKER = "норма могла измениться"


def _ratio(hit: int, total: int) -> float | None:
    return hit / total if total else None


def citation_scores(outputs: dict[str, Any], item: AnswerItem) -> dict[str, float | None]:
    """Article/point recall and precision of the cited units (None when not applicable)."""
    scores: dict[str, float | None] = {
        "article_recall": None,
        "article_precision": None,
        "point_recall": None,
        "point_precision": None,
    }
    cited_units = set(outputs.get("cited_units") or [])
    cited_articles = {article_of(u) for u in cited_units}
    exp_units, exp_articles = set(item.expected_units), set(item.expected_articles)
    if item.counts_for_recall:
        scores["article_recall"] = _ratio(len(exp_articles & cited_articles), len(exp_articles))
        scores["point_recall"] = _ratio(len(exp_units & cited_units), len(exp_units))
    if not item.trap:
        scores["article_precision"] = _ratio(
            len(cited_articles & exp_articles), len(cited_articles)
        )
        scores["point_precision"] = _ratio(len(cited_units & exp_units), len(cited_units))
    return scores


def key_fact_score(outputs: dict[str, Any], item: AnswerItem) -> float | None:
    if item.trap or not item.key_fact:
        return None
    body = answer_body(str(outputs.get("answer") or ""))
    return float(normalise(item.key_fact) in normalise(body))


def abstention_score(outputs: dict[str, Any], item: AnswerItem, question: str) -> float | None:
    """1/0 on trap items (see the module docstring), None on answerable ones."""
    if not item.trap:
        return None
    answer = str(outputs.get("answer") or "")
    if not item.abstention_expected:
        return float(EDITION_MARKER in normalise(answer))
    if not abstained(answer):
        return 0.0
    body = answer_body(answer)
    summary = summary_section(body)
    return float(not figures(body if summary is None else summary, question))


@dataclass
class ItemScores:
    """Everything measured on one answer."""

    id: str
    dataset: str
    trap: bool
    trap_kind: str | None
    article_recall: float | None = None
    article_precision: float | None = None
    point_recall: float | None = None
    point_precision: float | None = None
    key_fact: float | None = None
    trap_abstention: float | None = None
    false_abstention: float | None = None
    unsupported_refs: int = 0
    quoted_refs: int = 0
    supported_refs: int = 0
    named_missing_refs: int = 0
    latency_ms: float = 0.0
    llm_calls: int = 0
    abstained: bool = False
    cited_units: list[str] = field(default_factory=list)
    cited_units_source: str = ""
    unsupported: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def metric_values(self) -> dict[str, float | None]:
        return {k: getattr(self, k) for k in ITEM_METRICS}


# per-item scores averaged over the items each applies to (None: does not apply)
MEAN_METRICS = (
    "article_recall",
    "article_precision",
    "point_recall",
    "point_precision",
    "key_fact",
    "trap_abstention",
    "false_abstention",
)
ITEM_METRICS = (
    *MEAN_METRICS,
    "unsupported_refs",
    "quoted_refs",
    "latency_ms",
    "llm_calls",
)


def score_item(
    item: AnswerItem, question: str, outputs: dict[str, Any] | None, code: CodeUnits
) -> ItemScores:
    """All scores of one answer; a failed run (no outputs) scores as an empty answer."""
    scores = ItemScores(id=item.id, dataset=item.dataset, trap=item.trap, trap_kind=item.trap_kind)
    if outputs is None:
        scores.error = "the agent run failed"
        outputs = {"answer": "", "cited_units": [], "retrieved": []}
    for key, value in citation_scores(outputs, item).items():
        setattr(scores, key, value)
    scores.key_fact = key_fact_score(outputs, item)
    scores.trap_abstention = abstention_score(outputs, item, question)
    scores.abstained = abstained(str(outputs.get("answer") or ""))
    if not item.trap:
        scores.false_abstention = float(scores.abstained)
    refs = reference_report(outputs, code, question)
    scores.unsupported_refs = len(refs["unsupported"])
    scores.quoted_refs = len(refs["quoted"])
    scores.supported_refs = len(refs["supported"])
    scores.named_missing_refs = len(refs["named_missing"])
    scores.unsupported = refs["unsupported"]
    scores.latency_ms = float(outputs.get("latency_ms") or 0.0)
    scores.llm_calls = int(outputs.get("llm_calls") or 0)
    scores.cited_units = list(outputs.get("cited_units") or [])
    scores.cited_units_source = str(outputs.get("cited_units_source") or "")
    return scores
