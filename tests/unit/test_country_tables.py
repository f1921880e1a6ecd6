"""The shipped country tables (finagent/language/data/countries.json): current, and
ignored when stale or unreadable."""

from __future__ import annotations

import json
from pathlib import Path

from finagent.language import countries


def _items(tables: countries._Tables) -> dict[str, object]:
    """Every table with its order (the first match wins in the dicts)."""
    data = countries.tables_json(tables, "")
    return {
        key: list(value.items()) if isinstance(value, dict) else value
        for key, value in data.items()
    }


def test_shipped_tables_are_the_computed_ones() -> None:
    shipped = countries.shipped_tables()
    assert shipped is not None, "stale: run python scripts/country_tables.py"
    assert _items(shipped) == _items(countries.computed_tables())


def test_the_process_uses_the_shipped_tables() -> None:
    assert countries._tables() == countries.shipped_tables()
    assert countries.country_of_adjective("кипрская") == "CY"


def test_tables_of_other_inputs_are_not_used(tmp_path: Path) -> None:
    data = json.loads(countries.SHIPPED_PATH.read_text(encoding="utf-8"))
    data["inputs"] = "0" * 64
    data["nouns"]["кипр"] = "XX"
    stale = tmp_path / "countries.json"
    stale.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    assert countries.shipped_tables(stale) is None


def test_an_unreadable_file_is_not_used(tmp_path: Path) -> None:
    broken = tmp_path / "countries.json"
    broken.write_text('{"inputs": ', encoding="utf-8")
    assert countries.shipped_tables(broken) is None
    assert countries.shipped_tables(tmp_path / "missing.json") is None
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps({"inputs": countries.inputs_digest()}), encoding="utf-8")
    assert countries.shipped_tables(wrong) is None


def test_written_tables_read_back(tmp_path: Path) -> None:
    target = tmp_path / "data" / "countries.json"
    countries.write_shipped(target)
    read = countries.shipped_tables(target)
    assert read is not None
    assert _items(read) == _items(countries.computed_tables())
