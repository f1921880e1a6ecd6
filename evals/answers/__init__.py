"""Answer-level evaluation: ``finagent eval answers`` (see :mod:`evals.answers.runner`).

Modules: :mod:`~evals.answers.dataset` (JSONL items), :mod:`~evals.answers.metrics`
(deterministic per-item scores, over :mod:`~evals.answers.text`, :mod:`~evals.answers.outputs`,
:mod:`~evals.answers.quotes` and :mod:`~evals.answers.code_units`),
:mod:`~evals.answers.aggregate` (their aggregation), :mod:`~evals.answers.evaluators`
(the same scores as LangSmith evaluators), :mod:`~evals.answers.runner` (the Tax Code
index, the agents and ``langsmith.aevaluate``) and :mod:`~evals.answers.report` (tables).
"""

from __future__ import annotations

from evals.answers.dataset import DEFAULT_DATASETS, AnswerItem, load_answer_dataset
from evals.answers.report import format_report
from evals.answers.runner import AnswerEvalConfig, run_answer_eval

__all__ = [
    "DEFAULT_DATASETS",
    "AnswerEvalConfig",
    "AnswerItem",
    "format_report",
    "load_answer_dataset",
    "run_answer_eval",
]
