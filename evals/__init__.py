"""Evaluation suites of finagent: routing (:mod:`evals.routing`), retrieval
(:mod:`evals.retrieval`) and answers (:mod:`evals.answers`).

The datasets ship as package data in ``evals/datasets``; ``FINAGENT_EVAL_DATASETS_DIR``
points the suites at another folder with files of the same names.
"""

from __future__ import annotations

import os
from pathlib import Path

DATASETS_ENV = "FINAGENT_EVAL_DATASETS_DIR"
DATASETS_DIR = Path(os.environ.get(DATASETS_ENV) or Path(__file__).resolve().parent / "datasets")
