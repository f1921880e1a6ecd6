"""Per-item scores aggregated over a dataset, and the targets they are checked against."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from typing import Any

from evals.answers.metrics import MEAN_METRICS, ItemScores


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def _mean(values: Iterable[float | None]) -> tuple[float | None, int]:
    present = [v for v in values if v is not None]
    return (round(sum(present) / len(present), 3) if present else None), len(present)


def aggregate(items: Sequence[ItemScores]) -> dict[str, Any]:
    """Dataset-level metrics: means over the items each applies to, with their counts."""
    out: dict[str, Any] = {"size": len(items), "errors": sum(1 for i in items if i.error)}
    counts: dict[str, int] = {}
    for key in MEAN_METRICS:
        out[key], counts[key] = _mean(getattr(i, key) for i in items)
    out["unsupported_refs"] = sum(i.unsupported_refs for i in items)
    out["quoted_refs"] = sum(i.quoted_refs for i in items)
    out["named_missing_refs"] = sum(i.named_missing_refs for i in items)
    out["supported_refs"] = sum(i.supported_refs for i in items)
    out["answers_with_unsupported"] = sum(1 for i in items if i.unsupported_refs)
    # abstentions may name the missing article and its nearest existing neighbours
    out["unsupported_in_abstentions"] = sum(i.unsupported_refs for i in items if i.abstained)
    latencies = [i.latency_ms for i in items]
    out["latency_p50_ms"] = round(percentile(latencies, 50), 1)
    out["latency_p95_ms"] = round(percentile(latencies, 95), 1)
    out["llm_calls_per_answer"] = round(sum(i.llm_calls for i in items) / max(len(items), 1), 2)
    out["counts"] = counts
    return out


# The targets: (metric, comparison, threshold)
TARGETS: tuple[tuple[str, str, float], ...] = (
    ("key_fact", ">=", 0.80),
    ("article_recall", ">=", 0.95),
    ("point_recall", ">=", 0.85),
    ("point_precision", ">=", 0.60),
    ("trap_abstention", ">=", 0.90),
    ("unsupported_refs", "==", 0),
)


def check_targets(metrics: dict[str, Any]) -> dict[str, bool | None]:
    """Each target met (True/False), or None when the metric had no items."""
    checked: dict[str, bool | None] = {}
    for key, op, threshold in TARGETS:
        value = metrics.get(key)
        if value is None:
            checked[key] = None
        elif op == ">=":
            checked[key] = value >= threshold - 1e-9
        else:
            checked[key] = value == threshold
    return checked
