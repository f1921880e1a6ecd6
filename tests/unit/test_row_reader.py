"""One reader of a table row rendered as «header: value; header: value»
(``cards.tables.row_cells``), read by the header units, the total row and the document
sentences' table row alike."""

from __future__ import annotations

from finagent.answering.document_sentences import table_row
from finagent.answering.evidence import sentences_of
from finagent.answering.row_totals import total_label
from finagent.cards.header_units import unit_cells
from finagent.cards.tables import rendered_row, row_cells


def test_a_rendered_row_reads_back_as_its_cells() -> None:
    row = rendered_row([("Склад", "Северный"), ("Остаток, шт.", "412")], ["Поз. 7"])
    assert row == "Поз. 7; Склад: Северный; Остаток, шт.: 412"
    assert row_cells(row) == [("Поз. 7", None), ("Склад", "Северный"), ("Остаток, шт.", "412")]


def test_a_table_s_rows_are_rendered_and_read_by_one_reader() -> None:
    table = (
        "| Смена | Оператор | Простой, ч |\n|---|---|---|\n| 1 | Лаптев | 3 |\n| Всего | | 3 |\n"
    )
    first, total = sentences_of(table)
    assert first == "Смена: 1; Оператор: Лаптев; Простой, ч: 3"
    assert table_row(first) and total_label(first) is None
    assert [(c.header, c.figure) for c in unit_cells(first)] == [("Простой, ч", "3")]
    assert total_label(total) == "Всего"


def test_a_part_without_a_header_is_no_cell_of_a_row() -> None:
    prose = "Оплата прошла двумя платежами; Остаток: 12 000; Пени: нет"
    assert row_cells(prose)[0] == ("Оплата прошла двумя платежами", None)
    assert not table_row(prose)
    assert total_label("Итого; Сумма: 12 000") is None
    assert [c.figure for c in unit_cells(prose)] == []
