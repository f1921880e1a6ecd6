"""A count header counts a unit in the genitive plural («Число месяцев», not the date
«Число месяца»); one reader of «is a total asked»; a total row is «Итого»/«Всего», not an
attribute named «Общая …»; a sentence may end with initials or «и т.д.» (stop 44, mend16).
Invented wording."""

from __future__ import annotations

import pytest

from finagent.cards.header_units import header_unit, unit_cells


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
