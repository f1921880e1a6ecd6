"""Evaluation suites of finagent (answer quality on the Tax Code; datasets in ``datasets/``)."""

from __future__ import annotations

from pathlib import Path

DATASETS_DIR = Path(__file__).resolve().parent / "datasets"
