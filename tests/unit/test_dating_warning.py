"""Dated knowledge: the first-line warning when every source predates the question's year."""

from __future__ import annotations

from datetime import date
from pathlib import Path

from finagent.answering.edition import (
    dating_warning,
    edition_notes,
    with_dating_warning,
    without_dating_warning,
)
from finagent.retrieval.kb_articles import article_from_markdown, front_matter, read_kb_csv
from finagent.state import Chunk

NK_2025 = Chunk(id="l", text="t", source="law", metadata={"code": "nk", "edition": "2025-10-27"})
KB_2025 = Chunk(
    id="k", text="t", source="kb", title="Ставки НДС", metadata={"applies_from": "2025-01-01"}
)
LATE_2026 = date(2026, 11, 27)


def test_sources_of_an_earlier_year_are_named_with_their_date() -> None:
    warning = dating_warning(LATE_2026, [NK_2025, KB_2025])
    assert warning is not None and warning.startswith("Внимание:")
    # the latest source decides, and the year the rules may have changed in is named
    assert "27.10.2025 (редакция НК РФ)" in warning and "с 1 января 2026 года" in warning
    kb_only = dating_warning(LATE_2026, [KB_2025])
    assert kb_only is not None and "01.01.2025 (статья базы знаний «Ставки НДС»)" in kb_only


def test_no_warning_within_the_sources_year_or_with_a_newer_source() -> None:
    assert dating_warning(date(2025, 11, 27), [NK_2025, KB_2025]) is None
    assert dating_warning(date(2025, 1, 1), [KB_2025]) is None
    reviewed = Chunk(
        id="r",
        text="t",
        source="kb",
        title="НДС",
        metadata={"applies_from": "2025-01-01", "reviewed_at": "2026-01-15"},
    )
    assert dating_warning(LATE_2026, [NK_2025, reviewed]) is None


def test_undated_and_user_sources_give_no_warning() -> None:
    undated = Chunk(id="u", text="t", source="kb", title="x", metadata={})
    lease = Chunk(id="d", text="t", source="user_docs", title="Договор", metadata={})
    assert dating_warning(LATE_2026, [undated, lease]) is None
    # an undated article among dated ones does not hide the warning
    assert dating_warning(LATE_2026, [undated, NK_2025]) is not None


def test_the_warning_is_the_first_line_of_the_summary() -> None:
    body = "## Краткий вывод\nСтавка — 20 % [1].\n\n## Подробный анализ\n…"
    placed = with_dating_warning(body, "Внимание: X.")
    assert placed.splitlines()[:2] == ["## Краткий вывод", "Внимание: X."]
    assert with_dating_warning(placed, "Внимание: X.") == placed  # once
    assert with_dating_warning("Ставка — 20 %.", "Внимание: X.").startswith("Внимание: X.\n")
    assert with_dating_warning(body, None) == body
    # the direct-answer scores read the summary without it (its dates are not the value)
    warning = dating_warning(LATE_2026, [NK_2025])
    assert warning is not None
    assert without_dating_warning(with_dating_warning(body, warning)) == body
    assert without_dating_warning(f"{warning}\n\nСтавка — 20 %.") == "Ставка — 20 %."


def test_an_unreviewed_article_names_the_date_its_rules_apply_from() -> None:
    (note,) = edition_notes([KB_2025])
    assert "«Ставки НДС»" in note and "действующие с 01.01.2025" in note


def test_applicability_dates_of_csv_and_markdown_articles(tmp_path: Path) -> None:
    csv_path = tmp_path / "kb.csv"
    csv_path.write_text(
        "id,annotation,tags,text,applies_from\n"
        "1,НДС,ндс,Ставка 20 % с 1 января 2025 года.,2025-01-01\n"
        "2,НДФЛ,ндфл,Ставка 13 %.,не дата\n",
        encoding="utf-8",
    )
    first, second = read_kb_csv(csv_path)
    assert first.applies_from == "2025-01-01" and second.applies_from is None  # never a guess
    assert "applies_from: 2025-01-01" in front_matter(first)
    written = front_matter(first) + first.text
    again = article_from_markdown(written, tmp_path / "x.md", tmp_path)
    assert again.applies_from == "2025-01-01" and again.text == first.text
    text = "# УСН\nДействует с: 2026-01-01\n\nЛимит."
    line = article_from_markdown(text, tmp_path / "u.md", None)
    assert line.applies_from == "2026-01-01" and "Действует с" not in line.text
