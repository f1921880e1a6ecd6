"""Two classes of document questions (stop 38, the `docs4` lane): the day of the month a
repeated act falls on («до какого числа оплачивать вывоз мусора» — «не позднее 15-го
числа»), and a count asked with its noun («сколько выездов входит …» — «не более 3
(трёх) выездов»). Wordings and documents are our own."""

from __future__ import annotations

import pytest

from finagent.answering.answer_kinds import (
    asked_count,
    asked_count_phrases,
    counted_nouns,
    states_asked_count,
)
from finagent.answering.date_bounds import asks_recurring_day
from finagent.answering.document_sentences import value_level
from finagent.answering.sentence_profile import profile
from finagent.language.lemmas import imperfective
from finagent.question.build import build_question

_PAY_DAY = "5.2. Оплата вывоза производится ежемесячно не позднее 15-го числа текущего месяца."
_SPAN = "Вывоз отходов осуществляется с 1 марта 2026 г. по 28 февраля 2027 г. включительно."


@pytest.mark.parametrize(
    ("word", "expected"),
    [("оплачивать", True), ("выплачивается", True), ("оплатить", False), ("вернуть", False)],
)
def test_imperfective(word: str, expected: bool) -> None:
    assert imperfective(word) is expected


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        ("До какого числа надо оплачивать вывоз мусора по договору ТКО-4?", True),
        ("Какого числа перечисляется вознаграждение хранителю?", True),
        ("В какие дни месяца нам платят проценты по депозиту?", True),
        ("Какие у нас теперь дни выдачи аванса?", True),
        ("До какого числа нужно оплатить счёт № 77?", False),  # one act
        ("До какого числа действует договор хранения?", False),  # a lasting state
        ("С какого числа начинает работать охрана склада?", False),  # where a span starts
        ("Какие документы нужны, если через 3 дня платить поставщику?", False),
    ],
)
def test_asks_recurring_day(question: str, expected: bool) -> None:
    assert asks_recurring_day(build_question(question)) is expected


def test_a_recurring_day_outranks_the_end_of_the_term() -> None:
    q = build_question("До какого числа надо оплачивать вывоз мусора?")
    assert value_level(q, profile(_PAY_DAY), _PAY_DAY) > value_level(q, profile(_SPAN), _SPAN)


def test_one_act_keeps_the_calendar_date() -> None:
    q = build_question("До какого числа нужно оплатить вывоз мусора?")
    assert value_level(q, profile(_SPAN), _SPAN) >= value_level(q, profile(_PAY_DAY), _PAY_DAY)


@pytest.mark.parametrize(
    ("sentence", "nouns"),
    [
        ("В тариф входят не более 3 (трёх) выездов специалиста в месяц.", {"выезд"}),
        ("Включено 4 бесплатных консультации юриста.", {"консультация"}),
        ("Подрядчик проводит 12 плановых осмотров в год.", {"осмотр"}),
        ("Стоимость выезда — 4 200 рублей.", set()),  # money
        ("Срок — 30 (тридцать) календарных дней.", set()),  # time
    ],
)
def test_counted_nouns(sentence: str, nouns: set[str]) -> None:
    assert counted_nouns(sentence) == nouns


@pytest.mark.parametrize(
    ("question", "noun"),
    [
        (
            "Сколько бесплатных консультаций входит в тариф и почём каждая следующая?",
            "консультация",
        ),
        ("Сколько выездов мастера включено в абонемент?", "выезд"),
        ("Сколько стоит абонемент на обслуживание лифтов?", None),
        ("Сколько дней длится испытание?", None),
    ],
)
def test_asked_count(question: str, noun: str | None) -> None:
    assert asked_count(build_question(question)) == noun


def test_the_counted_clause_outranks_the_unit_price() -> None:
    q = build_question("Сколько выездов мастера входит в абонемент и почём каждый следующий?")
    count = "В абонемент входят не более 3 (трёх) выездов мастера в месяц."
    price = "Каждый следующий выезд оплачивается по 4 200 руб. за один выезд."
    assert states_asked_count(q, count)
    assert not states_asked_count(q, price)
    assert value_level(q, profile(count), count) > value_level(q, profile(price), price)


def test_the_count_is_worded_as_the_sentence_words_it() -> None:
    q = build_question("Сколько плановых проверок входит в годовой тариф?")
    sentence = "Тариф включает не более 4 (четырёх) плановых проверок в год."
    assert asked_count_phrases(q, sentence) == ("не более 4 (четырёх) плановых проверок",)
    assert asked_count_phrases(build_question("Сколько стоит тариф?"), sentence) == ()
