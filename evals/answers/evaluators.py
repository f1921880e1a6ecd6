"""The scores of :mod:`evals.answers.metrics` as LangSmith evaluators.

Row evaluators take ``(inputs, outputs, reference_outputs)`` of one example and return
``{"results": [{"key", "score"}, ...]}`` (a metric that does not apply to the item is left
out); the summary evaluator returns the dataset-level aggregates. When results upload to
LangSmith they become the experiment's feedback.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from evals.answers.aggregate import aggregate
from evals.answers.code_units import CodeUnits
from evals.answers.dataset import AnswerItem
from evals.answers.metrics import ItemScores, score_item

RowEvaluator = Callable[[dict[str, Any], dict[str, Any], dict[str, Any]], dict[str, Any]]
SummaryEvaluator = Callable[[Sequence[Any], Sequence[Any]], dict[str, Any]]

FAMILIES: dict[str, tuple[str, ...]] = {
    "citations": ("article_recall", "article_precision", "point_recall", "point_precision"),
    "key_fact": ("key_fact",),
    "abstention": ("trap_abstention", "false_abstention"),
    "references": ("unsupported_refs", "quoted_refs"),
    "performance": ("latency_ms", "llm_calls"),
}


def item_from_example(inputs: dict[str, Any], reference_outputs: dict[str, Any]) -> AnswerItem:
    fields = {k: v for k, v in reference_outputs.items() if k in AnswerItem.__dataclass_fields__}
    return AnswerItem(**{**fields, "question": str(inputs.get("question") or "")})


def _outputs(outputs: dict[str, Any] | None) -> dict[str, Any] | None:
    """None for a failed run (LangSmith passes an empty dict)."""
    return outputs if outputs and "answer" in outputs else None


def evaluate_example(
    inputs: dict[str, Any],
    outputs: dict[str, Any] | None,
    reference_outputs: dict[str, Any],
    code: CodeUnits,
) -> ItemScores:
    item = item_from_example(inputs, reference_outputs)
    return score_item(item, item.question, _outputs(outputs), code)


def _family_evaluator(name: str, keys: tuple[str, ...], code: CodeUnits) -> RowEvaluator:
    def evaluator(
        inputs: dict[str, Any], outputs: dict[str, Any], reference_outputs: dict[str, Any]
    ) -> dict[str, Any]:
        scores = evaluate_example(inputs, outputs, reference_outputs, code)
        values = scores.metric_values()
        return {
            "results": [
                {"key": key, "score": values[key]} for key in keys if values[key] is not None
            ]
        }

    evaluator.__name__ = name
    return evaluator


def make_evaluators(code: CodeUnits) -> list[RowEvaluator]:
    """One evaluator per metric family (citations, key fact, abstention, references, speed)."""
    return [_family_evaluator(name, keys, code) for name, keys in FAMILIES.items()]


def make_summary_evaluator(code: CodeUnits) -> SummaryEvaluator:
    """Dataset-level metrics (means, reference totals, latency percentiles)."""

    def answer_summary(runs: Sequence[Any], examples: Sequence[Any]) -> dict[str, Any]:
        items = [
            evaluate_example(e.inputs, r.outputs, e.outputs or {}, code)
            for r, e in zip(runs, examples, strict=True)
        ]
        metrics = aggregate(items)
        return {
            "results": [
                {"key": key, "score": value}
                for key, value in metrics.items()
                if isinstance(value, int | float) and not isinstance(value, bool)
            ]
        }

    return answer_summary
