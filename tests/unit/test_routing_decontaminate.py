"""Training examples are kept apart from evaluation sets without printing their items."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from finagent.routing import decontaminate as module
from finagent.routing.decontaminate import decontaminate, is_contaminated


def _write(path: Path, rows: list[dict[str, object]]) -> Path:
    path.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), "utf-8")
    return path


def test_exact_and_near_copies_are_removed_and_recorded(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    train = _write(
        tmp_path / "train.jsonl",
        [
            {"text": "Найди счёт от Ромашки за март!", "label": "S1"},  # same words
            {"text": "найди счет от ромашки за март 2025", "label": "S1"},  # Jaccard 6/7
            {"text": "найди счет от ромашки", "label": "S1"},  # 4/6: kept
            {"text": "какая ставка НДС", "label": "kb"},
        ],
    )
    held = _write(
        tmp_path / "held.jsonl",
        [
            {"id": "h1", "query": "найди счёт от Ромашки за март", "scenario": 1},
            {"id": "h2", "query": "новости рынка", "scenario": 2},
        ],
    )
    record = tmp_path / "record.json"
    record.write_text(json.dumps({"held.jsonl": ["h0"], "other.jsonl": ["x"]}), "utf-8")
    monkeypatch.setattr(
        "sys.argv",
        ["decontaminate", "--train", str(train), "--against", str(held), "--record", str(record)],
    )
    module.main()
    out = capsys.readouterr().out
    assert "removed 2 example(s)" in out and "ромашк" not in out.lower()
    kept = [json.loads(line)["text"] for line in train.read_text("utf-8").splitlines()]
    assert kept == ["найди счет от ромашки", "какая ставка НДС"]
    # earlier ids are kept: the evaluation can still report the figure without them
    assert json.loads(record.read_text("utf-8")) == {
        "held.jsonl": ["h0", "h1"],
        "other.jsonl": ["x"],
    }
    assert decontaminate(train, [held]) == 0


def test_empty_texts_match_only_empty_texts() -> None:
    assert not is_contaminated("?!", ["какая ставка"])
    assert is_contaminated("?!", ["..."])
