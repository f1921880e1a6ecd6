"""A table cell looked up by its row and column (finagent.answering.table_lookup)."""

from __future__ import annotations

from datetime import date

from finagent.answering.evidence import FULL, Candidate
from finagent.answering.table_lookup import table_cell, tables_of
from finagent.question.build import build_question
from finagent.state import Chunk

TODAY = date(2026, 11, 27)

# a register a PDF flattened: the header wrapped over lines, a row's label over two
PDF_REGISTER = """Реестр оборудования на 31.12.2026
№ Наименование
Цена
покупки, руб.
Износ за
год, руб.
Балансовая
стоимость, руб.
1 Фрезерный станок Haas
VF-2
900 000,00 90 000,00 810 000,00
2 Компрессор Atlas 300 000,00 30 000,00 270 000,00
3 Ноутбук Lenovo 120 000,00 40 000,00 80 000,00
ВСЕГО 1 320 000,00 160 000,00 1 160 000,00
Примечания:
1. Износ начислен линейно."""

WORD_TABLE = """Нормы возмещения
Статья | Лимит, руб. в день
Суточные | 700
Проживание в гостинице | 3 500"""


def _docs(text: str) -> list[Candidate]:
    chunk = Chunk(id="d:full", text=text, source="user_docs", title="Реестр", metadata={FULL: True})
    chunk.document_id = "d"
    return [Candidate(chunk, 1, text.split("\n")[0], 0, 0)]


def test_a_flattened_row_is_read_from_the_right_under_its_wrapped_header() -> None:
    table = tables_of(PDF_REGISTER)[0]
    assert table.columns == (
        "Цена покупки, руб.",
        "Износ за год, руб.",
        "Балансовая стоимость, руб.",
    )
    question = build_question("какая балансовая стоимость компрессора?", TODAY)
    cell = table_cell(question, _docs(PDF_REGISTER))
    assert cell is not None and cell.value == "270 000,00"
    head, quote = cell.lines()
    assert head.startswith("Балансовая стоимость, руб. — 270 000,00")
    assert "2 Компрессор Atlas 300 000,00" in quote


def test_a_total_asked_reads_the_total_row_checked_by_the_column_sum() -> None:
    question = build_question("сколько износа за год всего по реестру?", TODAY)
    cell = table_cell(question, _docs(PDF_REGISTER))
    assert cell is not None and cell.value == "160 000,00" and cell.row.label == "ВСЕГО"
    # a total row with its first column empty is read from the right, the sum confirming it
    short = PDF_REGISTER.replace("ВСЕГО 1 320 000,00 ", "ВСЕГО ")
    cell = table_cell(question, _docs(short))
    assert cell is not None and cell.value == "160 000,00"
    wrong = short.replace("ВСЕГО 160 000,00", "ВСЕГО 170 000,00")
    assert table_cell(question, _docs(wrong)) is None  # the sum disagrees: nothing read


def test_a_word_tables_row_and_its_only_value_column() -> None:
    question = build_question("какой лимит на проживание в день?", TODAY)
    cell = table_cell(question, _docs(WORD_TABLE))
    assert cell is not None and cell.value == "3 500"


def test_no_cell_when_the_row_or_the_column_is_unclear() -> None:
    no_row = build_question("какая балансовая стоимость принтера?", TODAY)
    assert table_cell(no_row, _docs(PDF_REGISTER)) is None
    no_column = build_question("сколько стоит компрессор по реестру?", TODAY)
    assert table_cell(no_column, _docs(PDF_REGISTER)) is None
