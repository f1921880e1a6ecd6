"""Per-item scores of a direct answer and their aggregation over a dataset.

* **Value.** An answerable item is a *hit* when every ``must_contain`` group occurs in
  the Краткий вывод (:mod:`~evals.direct.matching`).
* **Declined.** The answer abstains (the project's marker «нет оснований для ответа», or
  «не найдено сведений»), the run ended in the S5 clarification, or its first line says
  a live source (Bank of Russia, news) is unavailable: offline, that is a refusal too,
  and it is counted apart (``live_unavailable``).
* **Lead.** A hit whose values are stated by the lead itself: the Краткий вывод's first
  line, without the «...» quotations copied from a cited source
  (:func:`~evals.direct.matching.lead_line`). A value only in the quote below, or only in
  a quote-only first line, is a hit but not a lead hit. Reported beside the hit rate; the
  targets read the hit rate.
* **Wrong.** Answerable, not declined, and a miss: a confidently wrong first line.
* **Unsupported.** Figures (:mod:`~evals.direct.figures`) in no cited source nor the
  question, and legal references the answer evaluation's check marks unsupported.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from evals.answers.aggregate import percentile
from evals.direct.dataset import DirectItem

DOC_CATEGORIES = ("doc_sample", "doc_new")
KNOWLEDGE_CATEGORIES = ("taxcode", "kb")
# value groups: name -> categories of answerable items it pools
VALUE_GROUPS: dict[str, tuple[str, ...]] = {
    "doc_sample": ("doc_sample",),
    "doc_new": ("doc_new",),
    "doc": DOC_CATEGORIES,
    "taxcode": ("taxcode",),
    "kb": ("kb",),
    "taxcode_kb": KNOWLEDGE_CATEGORIES,
}
# lead figures: value group -> its "lead" metric key (no targets: the hit rate has them)
LEAD_GROUPS: dict[str, str] = {
    "doc": "lead_doc",
    "taxcode_kb": "lead_taxcode_kb",
    "value_all": "lead_all",
}
# (metric, comparison, threshold): the targets
TARGETS: tuple[tuple[str, str, float], ...] = (
    ("doc_sample", ">=", 0.90),
    ("doc_new", ">=", 0.90),
    ("doc", ">=", 0.90),
    ("taxcode_kb", ">=", 0.75),
    ("declined", ">=", 0.90),
    ("key_fact", ">=", 0.70),
    ("unsupported_figures", "==", 0),
    ("unsupported_refs", "==", 0),
    ("latency_p95_ms", "<=", 300.0),
)


@dataclass
class ItemResult:
    """What one answer did, as the metrics read it."""

    id: str
    category: str
    answer_type: str
    expected: str
    hit: bool | None = None  # answerable items only
    lead_hit: bool | None = None  # answerable items only: the values in the lead itself
    declined: bool = False
    clarified: bool = False
    live_unavailable: bool = False
    expected_groups: list[list[str]] = field(default_factory=list)
    missing: list[list[str]] = field(default_factory=list)
    value_in_body: bool | None = None  # the value elsewhere in the answer
    value_in_sources: bool | None = None  # the value in some retrieved passage
    summary: str = ""
    lead: str = ""  # the lead line as scored (quotations of sources left out)
    scenario: int | None = None
    source_kinds: list[str] = field(default_factory=list)
    cited: list[str] = field(default_factory=list)
    unsupported_figures: list[str] = field(default_factory=list)
    unsupported_refs: list[str] = field(default_factory=list)
    latency_ms: float = 0.0
    error: str | None = None

    @classmethod
    def of(cls, item: DirectItem) -> ItemResult:
        return cls(
            item.id,
            item.category,
            item.answer_type,
            item.expected,
            expected_groups=[list(g) for g in item.must_contain],
        )

    @property
    def answerable(self) -> bool:
        return self.expected == "answer"

    @property
    def abstained(self) -> bool:
        return self.declined or self.clarified or self.live_unavailable

    @property
    def wrong(self) -> bool:
        return self.answerable and not self.abstained and self.hit is False


def _rate(hit: int, total: int) -> dict[str, Any]:
    return {"rate": round(hit / total, 3) if total else None, "hit": hit, "n": total}


def aggregate(results: Sequence[ItemResult]) -> dict[str, Any]:
    """Counts and rates of one dataset under one composer."""
    answerable = [r for r in results if r.answerable]
    out: dict[str, Any] = {"items": len(results), "errors": sum(bool(r.error) for r in results)}
    for name, categories in VALUE_GROUPS.items():
        part = [r for r in answerable if r.category in categories]
        out[name] = _rate(sum(bool(r.hit) for r in part), len(part))
    out["value_all"] = _rate(sum(bool(r.hit) for r in answerable), len(answerable))
    for name, key in LEAD_GROUPS.items():
        pooled = VALUE_GROUPS.get(name)
        part = [r for r in answerable if pooled is None or r.category in pooled]
        out[key] = _rate(sum(bool(r.lead_hit) for r in part), len(part))
    out["hit_not_lead"] = sum(bool(r.hit) and not r.lead_hit for r in answerable)
    refusals = [r for r in results if not r.answerable]
    out["declined"] = _rate(sum(r.abstained for r in refusals), len(refusals))
    out["wrong"] = sum(r.wrong for r in answerable)
    out["false_abstentions"] = sum(r.abstained for r in answerable)
    out["answered_instead_of_declining"] = sum(not r.abstained for r in refusals)
    out["live_unavailable"] = sum(r.live_unavailable for r in results)
    out["value_elsewhere"] = sum(
        bool(r.value_in_body) and not r.hit for r in answerable if not r.abstained
    )
    out["unsupported_figures"] = sum(len(r.unsupported_figures) for r in results)
    out["answers_with_unsupported_figures"] = sum(bool(r.unsupported_figures) for r in results)
    out["unsupported_refs"] = sum(len(r.unsupported_refs) for r in results)
    latencies = [r.latency_ms for r in results if not r.error]
    out["latency_p50_ms"] = round(percentile(latencies, 50), 1)
    out["latency_p95_ms"] = round(percentile(latencies, 95), 1)
    return out


def metric_value(metrics: dict[str, Any], key: str) -> float | None:
    value = metrics.get(key)
    if isinstance(value, dict):
        rate = value.get("rate")
        return None if rate is None else float(rate)
    return None if value is None else float(value)


def check_targets(metrics: dict[str, Any]) -> dict[str, bool | None]:
    """Each target met, not met, or None when no item applies (or it was not measured)."""
    checked: dict[str, bool | None] = {}
    for key, op, threshold in TARGETS:
        value = metric_value(metrics, key)
        if value is None:
            checked[key] = None
        elif op == ">=":
            checked[key] = value >= threshold - 1e-9
        elif op == "<=":
            checked[key] = value <= threshold + 1e-9
        else:
            checked[key] = value == threshold
    return checked
