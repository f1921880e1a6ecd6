"""A surname that opens the question names a person as any other capitalised word does
(a sentence's capital is no evidence either way); an opening word that is no surname is no
name."""

from __future__ import annotations

import pytest

from finagent.question.build import build_question


@pytest.mark.parametrize(
    ("question", "name"),
    [
        ("Смирновой сколько начислили отпускных в марте?", "Смирновой"),
        ("Орлову какая премия положена за квартал?", "Орлову"),
        ("Кузнецов в командировке с какого числа?", "Кузнецов"),
    ],
)
def test_a_surname_opening_the_question_is_a_name(question: str, name: str) -> None:
    assert name in build_question(question).names


@pytest.mark.parametrize(
    "question",
    ["Какая ставка НДС по книге продаж?", "Аренда сколько стоит в месяц?", "Кто подписал акт?"],
)
def test_an_opening_word_that_is_no_surname_is_no_name(question: str) -> None:
    assert build_question(question).names == []
