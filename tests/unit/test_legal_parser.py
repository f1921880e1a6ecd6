"""Parser of code texts into chapter / article / point units."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from finagent.retrieval.legal import parse_code, parse_stats
from finagent.retrieval.legal_chunks import chunk_units
from finagent.retrieval.legal_units import LegalUnit
from tests.conftest import skip_without_tax_code

REPO = Path(__file__).resolve().parents[2]
DATASETS = {
    "retrieval_taxcode.jsonl": 45,  # development set
    "retrieval_taxcode_holdout.jsonl": 40,  # blind hold-out set
}

SAMPLE = """Глава 14. НАЛОГОВЫЙ
КОНТРОЛЬ
(в ред. Федерального закона от 27.07.2006 N 137-ФЗ)

Статья 88. Камеральная налоговая проверка
(в ред. Федеральных законов от 27.07.2006 N 137-ФЗ, от 29.09.2019 N 325-ФЗ)

Общее положение статьи.
1. Проверка проводится по месту нахождения органа.
(в ред. Федерального закона от 08.06.2015 N 150-ФЗ)
1.1. Особый порядок при мониторинге.
(п. 1.1 введен Федеральным законом от 29.12.2020 N 470-ФЗ)
2. Срок проверки три месяца:
1) для деклараций по НДС;
2) утратил силу. - Федеральный закон от 01.01.2020 N 1-ФЗ;
2.1) для расчетов по взносам.
(пп. 2.1 введен Федеральным законом от 01.01.2021 N 2-ФЗ)
Абзац утратил силу. - Федеральный закон от 02.04.2014 N 52-ФЗ.
(п. 2 в ред. Федерального закона от 29.05.2024 N 100-ФЗ)
3. Утратил силу. - Федеральный закон от 18.07.2017 N 173-ФЗ.
4 - 5. Утратили силу. - Федеральный закон от 14.07.2022 N 263-ФЗ.
3.3-1. Пункт с дефисом.

Статья 88.1. Утратила силу. - Федеральный закон от 27.07.2010 N 229-ФЗ.

Статьи 88.2 - 88.3. Утратили силу. - Федеральный закон от 07.07.2003 N 104-ФЗ.

Глава 14.4-1. ПРЕДСТАВЛЕНИЕ ДОКУМЕНТАЦИИ
ПО ГРУППАМ

(введена Федеральным законом от 27.11.2017 N 340-ФЗ)

Статья 105.16-1. Основные понятия
(введена Федеральным законом от 27.11.2017 N 340-ФЗ)

Текст без пунктов, но со списком:
1) первое;
2) второе.

Статья 346.25.1. Особенности
2. Исключен. - Федеральный закон от 09.07.1999 N 154-ФЗ.
2. Новый пункт два.
"""


def _by_id(units: list[LegalUnit]) -> dict[str, LegalUnit]:
    """Units by unit id; an article id maps to its first unit when it has no preamble."""
    out: dict[str, LegalUnit] = {}
    for u in units:
        out.setdefault(u.article_id, u)
    out.update({u.unit_id: u for u in units})
    return out


def test_chapters_with_multiline_titles_and_dashed_numbers() -> None:
    units = _by_id(parse_code(SAMPLE, "nk", 1))
    assert units["nk1.ch14.art88"].chapter_title == "НАЛОГОВЫЙ КОНТРОЛЬ"
    art = units["nk1.ch14.4-1.art105.16-1"]
    assert art.chapter == "14.4-1"
    assert art.chapter_title == "ПРЕДСТАВЛЕНИЕ ДОКУМЕНТАЦИИ ПО ГРУППАМ"
    assert art.article == "105.16-1"
    assert art.article_title == "Основные понятия"


def test_points_dotted_and_dashed_with_citations() -> None:
    units = _by_id(parse_code(SAMPLE, "nk", 1))
    assert units["nk1.ch14.art88.p1"].text == "Проверка проводится по месту нахождения органа."
    assert units["nk1.ch14.art88.p1.1"].citation == "п. 1.1 ст. 88 НК РФ"
    assert units["nk1.ch14.art88.p3.3-1"].text == "Пункт с дефисом."
    assert not units["nk1.ch14.art88.p3.3-1"].repealed
    assert units["nk1.ch14.art88"].citation == "ст. 88 НК РФ"
    assert units["nk1.ch14.art88"].text == "Общее положение статьи."


def test_amendment_notes_are_stripped_and_counted() -> None:
    units = _by_id(parse_code(SAMPLE, "nk", 1))
    p2 = units["nk1.ch14.art88.p2"]
    assert "ред." not in p2.text and "введен" not in p2.text
    assert "утратил" not in p2.text and "Абзац" not in p2.text
    # (пп. 2.1 ...), "2) утратил силу", "Абзац утратил силу", (п. 2 в ред. ...)
    assert p2.amendments == 4
    assert units["nk1.ch14.art88"].amendments == 1
    assert units["nk1.ch14.art88.p1"].amendments == 1


def test_sub_points_stay_inside_their_point() -> None:
    units = _by_id(parse_code(SAMPLE, "nk", 1))
    p2 = units["nk1.ch14.art88.p2"]
    assert p2.text.splitlines() == [
        "Срок проверки три месяца:",
        "1) для деклараций по НДС;",
        "2.1) для расчетов по взносам.",
    ]
    no_points = units["nk1.ch14.4-1.art105.16-1"]
    assert no_points.point is None
    assert "2) второе." in no_points.text
    assert not any(u.startswith("nk1.ch14.4-1.art105.16-1.p") for u in units)


def test_repealed_articles_and_points() -> None:
    units = parse_code(SAMPLE, "nk", 1)
    by_id = _by_id(units)
    assert by_id["nk1.ch14.art88.1"].repealed
    assert by_id["nk1.ch14.art88.p3"].repealed
    assert by_id["nk1.ch14.art88.p4-5"].repealed
    assert not by_id["nk1.ch14.art88.p2"].repealed
    # "Статьи 88.2 - 88.3. Утратили силу." is not an article and does not leak text
    assert not any("88.2" in u.unit_id for u in units)
    assert "Утратили" not in by_id["nk1.ch14.art88.p3.3-1"].text
    # "2. Исключен." followed by a new point 2: the live one keeps the number
    assert by_id["nk1.ch14.4-1.art346.25.1.p2"].text == "Новый пункт два."
    assert parse_stats(units)["articles"] == 4
    chunk_ids = {c.unit.unit_id for c in chunk_units(units)}
    assert "nk1.ch14.art88.p3" not in chunk_ids
    assert "nk1.ch14.art88.1" not in chunk_ids


def test_long_points_are_split_into_chunks_sharing_the_unit() -> None:
    sentence = "Налогоплательщик вправе получить вычет в размере расходов на лечение. "
    text = f"Глава 23. НДФЛ\n\nСтатья 219. Социальные налоговые вычеты\n\n1. {sentence * 60}\n"
    chunks = chunk_units(parse_code(text, "nk", 2), max_chars=500, overlap=50)
    assert len(chunks) > 3
    assert {c.unit.unit_id for c in chunks} == {"nk2.ch23.art219.p1"}
    assert len({c.chunk_id for c in chunks}) == len(chunks)
    assert all(len(c.text) <= 500 for c in chunks)
    assert all(
        c.index_text.startswith("Статья 219. Социальные налоговые вычеты, п. 1\n") for c in chunks
    )
    bare = chunk_units(parse_code(text, "nk", 2), max_chars=500, title_prefix=False)
    assert bare[0].index_text == bare[0].text


def test_code_without_part_and_other_codes() -> None:
    text = "Глава 1. ОБЩИЕ\n\nСтатья 1. Предмет\n\n1. Текст.\n"
    unit = parse_code(text, "tk")[0]
    assert unit.unit_id == "tk.ch1.art1.p1"
    assert unit.citation == "п. 1 ст. 1 ТК РФ"


# --- the real Tax Code text ------------------------------------------------------------


def _taxcode_dir() -> Path:
    env = os.environ.get("FINAGENT_TAXCODE_DIR")
    return Path(env) if env else REPO.parent / "shared" / "data" / "tax-code"


def _load(part: int) -> list[LegalUnit]:
    path = _taxcode_dir() / f"nk-part{part}-2025.txt"
    if not path.exists():
        skip_without_tax_code(f"Tax Code text not found at {path} (set FINAGENT_TAXCODE_DIR)")
    return parse_code(path.read_text(encoding="utf-8"), "nk", part)


@pytest.mark.taxcode
def test_real_part_one() -> None:
    units = _load(1)
    stats = parse_stats(units)
    assert stats["articles"] == 150
    by_id = _by_id(units)
    assert "Камеральная" in by_id["nk1.ch14.art88.p2"].article_title
    assert by_id["nk1.ch14.art88.p2"].citation == "п. 2 ст. 88 НК РФ"
    assert "ред." not in by_id["nk1.ch14.art88.p2"].text
    assert by_id["nk1.ch8.art45.p1"].text  # art. 75 (penalties) is in the missing ch. 11
    assert by_id["nk1.ch16.art122.p1"].text
    assert by_id["nk1.ch3.art25"].repealed
    articles = {u.article for u in units}
    assert {"12", "105.16-1", "129.7-1", "129.16"} <= articles
    assert by_id["nk1.ch14.4-1.art105.16-1"].chapter_title.startswith(
        "ПРЕДСТАВЛЕНИЕ ДОКУМЕНТАЦИИ ПО МЕЖДУНАРОДНЫМ ГРУППАМ"
    )
    assert len({u.unit_id for u in units}) == len(units)


@pytest.mark.taxcode
def test_real_part_two() -> None:
    units = _load(2)
    assert parse_stats(units)["articles"] == 200
    by_id = _by_id(units)
    assert by_id["nk2.ch23.art219.p1"].article_title == "Социальные налоговые вычеты"
    assert by_id["nk2.ch26.2.art346.20.p1"].article_title.startswith("Налоговые ставки")
    assert by_id["nk2.ch26.1.art346.1"].chapter_title.endswith(
        "(ЕДИНЫЙ СЕЛЬСКОХОЗЯЙСТВЕННЫЙ НАЛОГ)"
    )
    assert by_id["nk2.ch21.art164.p3"].text
    assert len({u.unit_id for u in units}) == len(units)
    chunks = chunk_units(units)
    assert len({c.chunk_id for c in chunks}) == len(chunks)


@pytest.mark.taxcode
@pytest.mark.parametrize(("name", "minimum"), sorted(DATASETS.items()))
def test_dataset_units_exist(name: str, minimum: int) -> None:
    known: set[str] = set()
    for part in (1, 2):
        units = _load(part)
        known |= {u.unit_id for u in units} | {u.article_id for u in units}
    path = REPO / "evals" / "datasets" / name
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    assert len(rows) >= minimum
    assert len({r["id"] for r in rows}) == len(rows)
    missing = [
        (r["id"], uid)
        for r in rows
        for uid in [*r["expected_articles"], *r["expected_units"]]
        if uid not in known
    ]
    assert not missing
    for r in rows:
        assert all(u.split(".p")[0] in r["expected_articles"] for u in r["expected_units"])
