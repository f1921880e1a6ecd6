"""Smoke run of the retrieval benchmark on 5 questions over chapter 16 of the real Tax Code."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from finagent.config import Settings
from finagent.eval_retrieval import METHODS, expand_query, format_table, load_dataset, run_eval

REPO = Path(__file__).resolve().parents[2]
DATASET = REPO / "evals" / "datasets" / "retrieval_taxcode.jsonl"


def _taxcode_dir() -> Path:
    env = os.environ.get("FINAGENT_TAXCODE_DIR")
    return Path(env) if env else REPO.parent / "shared" / "data" / "tax-code"


def test_expansion_maps_colloquial_words_to_code_terms() -> None:
    queries = expand_query("сколько процентов платить на упрощенке")
    assert queries[0] == "сколько процентов платить на упрощенке"
    assert "упрощенная система налогообложения" in queries[1]
    assert expand_query("xyz") == ["xyz"]


@pytest.mark.taxcode
async def test_eval_smoke_on_penalty_chapter(tmp_path: Path) -> None:
    folder = _taxcode_dir()
    if not (folder / "nk-part1-2025.txt").exists():
        pytest.skip(f"Tax Code text not found at {folder} (set FINAGENT_TAXCODE_DIR)")
    questions = [
        q for q in load_dataset(DATASET) if q.expected_articles[0].startswith("nk1.ch16.")
    ][:5]
    assert len(questions) == 5
    settings = Settings(data_dir=tmp_path, law_dense_max_chars=200, embeddings_batch_size=16)
    result = await run_eval(questions, folder, settings, parts=[1], chapters={"16"})
    assert set(result["methods"]) == set(METHODS)
    assert result["dataset_size"] == 5
    assert result["ingest"][0]["chunks"] > 20
    hybrid = result["methods"]["hybrid"]["article"]
    assert hybrid["recall@10"] >= hybrid["recall@5"] >= hybrid["recall@1"]
    # within one chapter of penalties the right article must come up for most questions
    assert hybrid["recall@5"] >= 0.6
    assert "hybrid_expansion" in format_table(result)
