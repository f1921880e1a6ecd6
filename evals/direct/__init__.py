"""Direct-answer evaluation: ``finagent eval direct`` (see :mod:`evals.direct.runner`).

Does the Краткий вывод state what was asked? Modules: :mod:`~evals.direct.dataset`
(items and the hold-out rule), :mod:`~evals.direct.matching` (the normaliser and the
must-contain check), :mod:`~evals.direct.figures` (unsupported figures),
:mod:`~evals.direct.scoring` (per-item results, aggregation, targets),
:mod:`~evals.direct.setup` (the cached data dir), :mod:`~evals.direct.runner` and
:mod:`~evals.direct.report` (tables and the miss list).
"""

from __future__ import annotations

from evals.direct.dataset import DEV_DATASET, HOLDOUT_DATASET, LoadedDataset, load_direct_dataset
from evals.direct.report import format_report, lead_misses, misses
from evals.direct.runner import DirectEvalConfig, composer_modes, run_direct_eval

__all__ = [
    "DEV_DATASET",
    "HOLDOUT_DATASET",
    "DirectEvalConfig",
    "LoadedDataset",
    "composer_modes",
    "format_report",
    "lead_misses",
    "load_direct_dataset",
    "misses",
    "run_direct_eval",
]
