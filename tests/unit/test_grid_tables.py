"""Grid tables of plain-text documents («+---+» rules around «| a | b |» lines): every row
is read with its column's header by position, a header or a row wrapped over lines is read
whole, and the rules inside the table neither reset the header nor join the lines."""

from __future__ import annotations

from pathlib import Path

from finagent.answering.document_sentences import document_sentences, rerank_document_sentences
from finagent.answering.evidence import Candidate, sentences_of
from finagent.cards.build import build_card
from finagent.cards.tables import grid_rows
from finagent.question.build import build_question
from finagent.retrieval.loaders import load_text
from finagent.state import Chunk

TIMESHEET = """ТАБЕЛЬ УЧЁТА РАБОЧЕГО ВРЕМЕНИ № 4 (форма № Т-13)
Организация: ООО «Северная Верфь»
Отчётный период: с 01.04.2026 по 30.04.2026

ИТОГИ ЗА МЕСЯЦ
+---+---------------------------+--------------------+------------+---------------+------------+
| № | Фамилия, имя, отчество    | Должность          | Явки, дней | Отработано, ч | Неявки     |
+===+===========================+====================+============+===============+============+
| 1 | Кузнецова Алла Петровна   | инженер-технолог   |         20 |           160 | Б: 2       |
| 2 | Тарасов Глеб Ильич        | сварщик            |         22 |           181 | —          |
| 3 | Орлова Вера Андреевна     | кладовщик          |         17 |           136 | ОТ: 5      |
+---+---------------------------+--------------------+------------+---------------+------------+
Всего по подразделению: явок 59 чел.-дней, отработано 477 чел.-часов.
"""

WRITE_OFF = """АКТ СПИСАНИЯ МАТЕРИАЛОВ № 12
+---+--------------------------------+------+---------+----------------+
| № | Наименование материала         | Ед.  | Израсх. | Сумма списа-   |
|   |                                | изм. |         | ния, руб.      |
+---+--------------------------------+------+---------+----------------+
| 1 | Краска фасадная акриловая,     | л    |      40 |      18 600,00 |
|   | белая, ведро 10 л              |      |         |                |
| 2 | Грунтовка глубокого            | л    |      25 |       6 250,00 |
|   | проникновения                  |      |         |                |
+---+--------------------------------+------+---------+----------------+
|   | ИТОГО                          |      |         |      24 850,00 |
+---+--------------------------------+------+---------+----------------+
"""

# two tables, the blank line between them gone (the sentence reader drops blank lines)
TWO_TABLES = [
    "+-----+--------------+",
    "| Год | Выручка, руб.|",
    "+-----+--------------+",
    "| 2025| 1 200 000,00 |",
    "+-----+--------------+",
    "+------------+--------------+-----------+",
    "| Показатель | Сумма, руб.  | Доля, %   |",
    "+------------+--------------+-----------+",
    "| Аренда     |   300 000,00 |        25 |",
    "+------------+--------------+-----------+",
]

# a form's box: one section, no header over a body: left to the other readers
FORM_BOX = ["+---------------+", "|    0301006    |", "+---------------+"]


def test_each_row_is_read_with_the_headers_of_its_columns() -> None:
    rows = [s for s in document_sentences(TIMESHEET) if s.startswith("№:")]
    assert rows[0] == (
        "№: 1; Фамилия, имя, отчество: Кузнецова Алла Петровна; Должность: инженер-технолог; "
        "Явки, дней: 20; Отработано, ч: 160; Неявки: Б: 2"
    )
    assert len(rows) == 3
    assert not any("+--" in s or "+==" in s for s in document_sentences(TIMESHEET))


def test_a_wrapped_header_and_a_wrapped_row_are_read_whole() -> None:
    sentences = sentences_of(WRITE_OFF)
    assert (
        "№: 1; Наименование материала: Краска фасадная акриловая, белая, ведро 10 л; "
        "Ед. изм.: л; Израсх.: 40; Сумма списа-ния, руб.: 18 600,00"
    ) in sentences
    assert "Наименование материала: ИТОГО; Сумма списа-ния, руб.: 24 850,00" in sentences
    assert not any(s.startswith("|") for s in sentences)


def test_a_rule_of_another_width_starts_another_table() -> None:
    rows = grid_rows(TWO_TABLES)
    assert rows[3] == "Год: 2025; Выручка, руб.: 1 200 000,00"
    assert rows[8] == "Показатель: Аренда; Сумма, руб.: 300 000,00; Доля, %: 25"
    assert rows[1] == rows[6] == ""  # headers are no sentences of their own


def test_a_box_without_a_header_over_a_body_is_no_grid_table() -> None:
    assert grid_rows(FORM_BOX) == {0: "", 2: ""}


AID = """РЕШЕНИЕ № 3-МП о выплате материальной помощи
г. Вологда, 14.05.2026
Выплатить материальную помощь следующим работникам:
+---+---------------------------+-------------------+--------------------------+-------------+
| № | ФИО работника             | Должность         | Основание                | Сумма, руб. |
+---+---------------------------+-------------------+--------------------------+-------------+
| 1 | Кузнецова Алла Петровна   | инженер-технолог  | рождение ребёнка (дочь,  |   40 000,00 |
|   |                           |                   | св-во от 02.05.2026)     |             |
| 2 | Тарасов Глеб Ильич        | сварщик           | пожар в жилом доме       |   25 000,00 |
+---+---------------------------+-------------------+--------------------------+-------------+
|   | ИТОГО                     |                   |                          |   65 000,00 |
+---+---------------------------+-------------------+--------------------------+-------------+
Выплату произвести не позднее 29.05.2026 вместе с заработной платой.
"""


def test_the_row_of_the_asked_person_answers_from_the_grid() -> None:
    card = build_card("a1", "reshenie.txt", AID)
    chunk = Chunk(id="c", text=AID, source="user_docs", title=card.title, document_id="a1")
    sentences = document_sentences(AID)
    ranked = rerank_document_sentences(
        build_question("какая сумма помощи положена Тарасову по решению 3-МП?", cards=[card]),
        [Candidate(chunk, 1, s, 0, i, score=1.0) for i, s in enumerate(sentences)],
        [card],
    )
    assert ranked[0].sentence == (
        "№: 2; ФИО работника: Тарасов Глеб Ильич; Должность: сварщик; "
        "Основание: пожар в жилом доме; Сумма, руб.: 25 000,00"
    )


def _docx_with_table(path: Path, rows: list[list[str]]) -> Path:
    import docx

    document = docx.Document()
    document.add_paragraph("Договор подряда № ПР-5/2026. 3.1. Стоимость работ — по графику:")
    table = document.add_table(rows=len(rows), cols=len(rows[0]))
    for r, row in enumerate(rows):
        for c, text in enumerate(row):
            table.cell(r, c).text = text
    document.add_paragraph("ПОДРЯДЧИК: ООО «Кровля-Сервис»")
    document.save(str(path))
    return path


def test_a_word_row_whose_first_cell_is_empty_keeps_its_columns(tmp_path: Path) -> None:
    path = _docx_with_table(
        tmp_path / "dogovor.docx",
        [
            ["№", "Этап работ", "Срок", "Стоимость, руб."],
            ["1", "Демонтаж покрытия", "до 15.06.2026", "310 000,00"],
            ["2", "Монтаж мембраны", "до 30.07.2026", "890 000,00"],
            ["", "Итого", "", "1 200 000,00"],
        ],
    )
    sentences = document_sentences(load_text(path, 10**7))
    assert "Этап работ: Итого; Стоимость, руб.: 1 200 000,00" in sentences
    assert (
        "№: 2; Этап работ: Монтаж мембраны; Срок: до 30.07.2026; Стоимость, руб.: 890 000,00"
        in (sentences)
    )
    # the line after the table is no part of its last row
    assert "ПОДРЯДЧИК: ООО «Кровля-Сервис»" in sentences


def test_a_markdown_row_still_drops_its_outer_pipes() -> None:
    text = (
        "| Показатель | Сумма, руб. | Срок |\n|---|---|---|\n| Аванс | 150 000,00 | 10.03.2026 |\n"
    )
    assert sentences_of(text) == ["Показатель: Аванс; Сумма, руб.: 150 000,00; Срок: 10.03.2026"]


# grouped rows and a total, no rules between the rows: each line with a figure is a row
GROUPED = [
    "+------------+-----------+-------------+",
    "| Участок    | Бригадир  | Выработка   |",
    "+============+===========+=============+",
    "| Монтаж     | Соколов   |         410 |",
    "|            | Жукова    |         385 |",
    "|            | Всего     |         795 |",
    "+------------+-----------+-------------+",
]


def test_grouped_rows_and_a_total_without_rules_stay_rows_of_their_own() -> None:
    rows = grid_rows(GROUPED)
    assert rows[3] == "Участок: Монтаж; Бригадир: Соколов; Выработка: 410"
    assert rows[4] == "Бригадир: Жукова; Выработка: 385"
    assert rows[5] == "Бригадир: Всего; Выработка: 795"


def test_a_markdown_table_without_closing_pipes_keeps_its_header() -> None:
    text = (
        "Ведомость доплат за июнь.\n"
        "| Работник | Ставка, руб. | Доплата, руб.\n"
        "|---|---|---\n"
        "| Гусева | 71 000 | 9 200\n"
        "| Лапин | 66 500 | 4 800\n"
        "Утверждено приказом.\n"
    )
    sentences = document_sentences(text)
    assert "Работник: Гусева; Ставка, руб.: 71 000; Доплата, руб.: 9 200" in sentences
    assert "Работник: Лапин; Ставка, руб.: 66 500; Доплата, руб.: 4 800" in sentences
    assert not any(s.startswith("|") for s in sentences)
