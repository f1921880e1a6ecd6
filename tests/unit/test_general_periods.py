"""A period asked in general is the law's; «на сколько продлить» asks a duration; a
further part is not answered by values of other years than the question names."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.calc import asks_the_law
from finagent.answering.cut_sentences import names_other_years
from finagent.legal.calc_extract import extract_calc_request
from finagent.question.build import build_question

TODAY = date(2026, 11, 27)


@pytest.mark.parametrize(
    ("question", "law"),
    [
        ("Сколько может идти выездная налоговая проверка?", True),
        ("В какой срок надо представить документы по требованию в ходе проверки?", True),
        # the date itself is asked: the day of the event is needed
        (
            "До какого числа представить пояснения по требованию в рамках камеральной проверки?",
            False,
        ),
        # a dated event: a calculation
        ("Требование о документах получили 3 марта 2025 г. В какой срок его исполнить?", False),
    ],
)
def test_a_period_asked_in_general_is_answered_from_the_law(question: str, law: bool) -> None:
    req = extract_calc_request(question, TODAY)
    assert asks_the_law(req, question) is law


def test_how_long_it_may_be_extended_asks_a_period() -> None:
    q = build_question(
        "Сколько длится камеральная проверка декларации по НДС и на сколько её могут продлить?"
    )
    assert [p.answer_type for p in q.parts] == ["period", "period"]


def test_values_of_other_years_than_asked() -> None:
    sentence = "Его максимальный размер: за 2024 год — 277 571 руб., за 2025 год — 300 888 руб."
    assert names_other_years(sentence, {2026})
    assert not names_other_years(sentence, {2025})
    assert not names_other_years(sentence, set())
    assert not names_other_years("Не более 321 818 руб.", {2026})
