"""A period counted in words in an oblique case is stated in digits by the first line."""

from __future__ import annotations

import pytest

from finagent.answering.sentence_profile import shown


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        ("трех месяцев", "3 месяца"),
        ("пяти лет", "5 лет"),
        ("одного года", "1 год"),
        ("тридцати дней", "30 дней"),
        ("двух недель", "2 недели"),
        ("сорока восьми часов", "48 часов"),
    ],
)
def test_an_oblique_worded_period_is_shown_in_digits(value: str, expected: str) -> None:
    assert shown(value) == expected


@pytest.mark.parametrize("value", ["четыре года", "10 дней", "пяти рабочих дней", "двух сторон"])
def test_other_values_are_shown_as_stated(value: str) -> None:
    assert shown(value) == value
