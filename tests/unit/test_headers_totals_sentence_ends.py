"""A count header counts a unit in the genitive plural («Число месяцев», not the date
«Число месяца»); one reader of «is a total asked»; a total row is «Итого»/«Всего», not an
attribute named «Общая …»; a sentence may end with initials or «и т.д.» (stop 44, mend16).
Invented wording."""

from __future__ import annotations

import pytest

from finagent.answering.row_totals import asks_total, total_label
from finagent.cards.header_units import header_unit, unit_cells
from finagent.question.build import build_question


@pytest.mark.parametrize(
    "header",
    ["Число месяца", "Число дней месяца", "Число дня", "Количество часа работы"],
)
def test_a_count_head_before_a_singular_unit_names_no_unit(header: str) -> None:
    assert header_unit(header) is None


@pytest.mark.parametrize(
    ("header", "unit"),
    [
        ("Число месяцев", "месяц"),
        ("Количество суток", "сутки"),
        ("Кол-во кал. дней", "день"),
        ("Кол-во отработанных часов", "час"),
        ("Количество тонн", "тонна"),
    ],
)
def test_a_count_head_before_a_plural_unit_names_it(header: str, unit: str) -> None:
    found = header_unit(header)
    assert found is not None and found[0] == unit


def test_a_day_of_month_column_is_no_count_of_months() -> None:
    row = "Дата: 12.03.2026; Число месяца: 12; Сотрудник: Гущин А. В."
    assert unit_cells(row) == []


@pytest.mark.parametrize(
    ("text", "asked"),
    [
        ("сколько всего перечислили ООО «Вектор» за апрель?", True),
        ("какое итоговое сальдо по контрагенту «Вектор»?", True),
        ("какую общую сумму нужно заплатить по договору?", True),
        ("итого сколько вышло по счёту?", True),
        ("какая арендная плата за весь срок аренды?", False),
        ("сколько дней длится отпуск Кудриной?", False),
    ],
)
def test_one_reader_tells_whether_a_total_is_asked(text: str, asked: bool) -> None:
    assert asks_total(build_question(text)) is asked


@pytest.mark.parametrize(
    "row",
    [
        "Показатель: Общая площадь помещения; Значение, кв. м: 148,6",
        "Параметр: Общий срок поставки; Значение, дней: 45",
        "Показатель: Итоговая оценка; Баллы: 87",
    ],
)
def test_an_attribute_named_general_is_no_total_row(row: str) -> None:
    assert total_label(row) is None


@pytest.mark.parametrize(
    ("row", "label"),
    [
        ("Статья: Итого по разделу 2; Сумма, руб.: 12 400,00", "Итого по разделу 2"),
        ("Наименование: ВСЕГО; Сумма, руб.: 98 000,00", "ВСЕГО"),
        (
            "Показатель: Кредиторская задолженность, всего; Сумма: 5 000",
            "Кредиторская задолженность, всего",
        ),
    ],
)
def test_a_total_row_opens_with_itogo_or_vsego(row: str, label: str) -> None:
    assert total_label(row) == label
