"""A clause cut at a dotted abbreviation («в т.ч.»), the date of a second payment stated in
its own «;»-clause, and a yes/no question asked with an indefinite-personal or reflexive
future verb («зачтут?», «зачтётся?»). Invented documents and wording."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.companions import companion_facts
from finagent.answering.document_sentences import document_sentences
from finagent.answering.evidence import sentences_of
from finagent.cards.build import build_card
from finagent.cards.unwrap import joined
from finagent.language.abbreviations import dotted_letters, leaves_open
from finagent.language.lemmas import rule_effect_verb
from finagent.question.build import build_question

TODAY = date(2026, 11, 27)

# a PDF's lines as its loader gives them: a line ends right after «в т.ч.»
SCHEDULE = """ДОГОВОР ПОДРЯДА № ПД-31/2026
г. Томск                                                          2 февраля 2026 г.
4.2. Оплата производится в три этапа: аванс 30 % — 360 000 руб., в т.ч.
НДС 60 000 руб., — не позднее 10 апреля 2026 г.; второй платёж 50 % — 600 000 руб., в т.ч.
НДС 100 000 руб., — не позднее 25 июня 2026 г.; окончательный платёж 20 % — 240 000 руб. —
в течение 5 рабочих дней после подписания акта сдачи-приёмки.
4.3. Работы выполняются с 1 марта 2026 г.
"""


@pytest.mark.parametrize(
    ("word", "dotted"),
    [("т.ч.", True), ("т.е", True), ("И.С.", True), ("(т.к.", True)],
)
def test_letters_joined_by_dots_are_an_abbreviation(word: str, dotted: bool) -> None:
    assert dotted_letters(word) is dotted


@pytest.mark.parametrize("word", ["руб.", "ст.", "2.3.", "г.", "п."])
def test_a_word_or_a_number_is_no_dotted_abbreviation(word: str) -> None:
    assert not dotted_letters(word)


def test_a_line_ending_with_a_dotted_abbreviation_goes_on() -> None:
    assert leaves_open("второй платёж — 600 000 руб., в т.ч.")
    assert not leaves_open("второй платёж — 600 000 руб.")
    text = "аванс — 360 000 руб., в т.ч.\nНДС 60 000 руб., — не позднее 10 апреля 2026 г."
    assert "\n" not in joined(text)


def test_no_sentence_ends_after_in_t_ch() -> None:
    line = "Цена — 1 200 000 рублей, в т.ч. НДС 200 000 рублей. Оплата — до 5 мая 2026 г."
    assert sentences_of(line) == [
        "Цена — 1 200 000 рублей, в т.ч. НДС 200 000 рублей.",
        "Оплата — до 5 мая 2026 г.",
    ]


def test_the_payment_clause_is_one_sentence_with_every_date() -> None:
    schedule = next(s for s in document_sentences(SCHEDULE) if "три этапа" in s)
    assert "25 июня 2026 г." in schedule
    assert "5 рабочих дней" in schedule
    card = build_card("pd31", "Договор подряда", SCHEDULE)
    second = next(f for f in card.facts if f.value.startswith("600 000"))
    assert "25 июня" in second.sentence.text


@pytest.mark.parametrize(
    ("question", "paid", "due"),
    [
        ("второй платёж по ПД-31/2026 — сумма и срок?", "600 000", "2026-06-25"),
        ("второй платёж по ПД-31/2026 сколько и до какого числа?", "600 000", "2026-06-25"),
        ("аванс по ПД-31/2026 сколько и когда?", "360 000", "2026-04-10"),
        ("окончательный платёж по ПД-31/2026 сколько и в какой срок?", "240 000", "5 рабочих дн."),
    ],
)
def test_the_companion_of_a_payment_is_in_its_own_clause(
    question: str, paid: str, due: str
) -> None:
    card = build_card("pd31", "Договор подряда", SCHEDULE)
    q = build_question(question, TODAY, cards=[card])
    stated = [f for f in card.facts if f.kind == "amount" and f.value.startswith(paid)]
    companions = companion_facts(q, card, stated)
    assert companions, question
    assert [f.value for f in companions[0][1]] == [due]


@pytest.mark.parametrize(
    ("word", "effect"),
    [
        ("удержат", True),  # indefinite-personal: what the rule does
        ("возместят", True),
        ("вернётся", True),  # reflexive
        ("продлит", False),  # someone's decision
        ("подпишет", False),
        ("платим", False),  # not future
    ],
)
def test_a_rule_effect_verb(word: str, effect: bool) -> None:
    assert rule_effect_verb(word) is effect


@pytest.mark.parametrize(
    ("text", "polar"),
    [
        ("обеспечительный платёж зачтут в последний месяц аренды?", True),
        ("штраф за порчу инвентаря удержат из зарплаты?", True),
        ("гарантийное удержание вернётся подрядчику после акта?", True),
        ("продлит ли поставщик нам отсрочку?", False),
        ("подпишет ли банк допсоглашение?", False),
    ],
)
def test_a_rule_effect_asked_in_the_future_is_polar(text: str, polar: bool) -> None:
    assert build_question(text, TODAY).polar is polar


@pytest.mark.parametrize(
    ("text", "absent"),
    [
        ("за сколько дней можно отказаться от тура без неустойки?", "penalty"),
        ("до какого числа можно вернуть товар без штрафа?", "penalty"),
    ],
)
def test_a_value_noun_after_without_is_not_asked(text: str, absent: str) -> None:
    assert absent not in build_question(text, TODAY).fields


def test_a_value_noun_with_no_without_is_still_asked() -> None:
    assert "penalty" in build_question("какой штраф за отмену брони?", TODAY).fields


def test_how_many_hours_ahead_asks_a_period() -> None:
    assert build_question("за сколько часов до вылета можно сдать билет?", TODAY).answer_type == (
        "period"
    )
    # a count of hours worked stays a count
    assert build_question("сколько часов отработал Петров в мае?", TODAY).answer_type != "period"


def test_a_single_payment_keeps_the_term_stated_after_it() -> None:
    # no schedule: the clause's own date is when the deposit is paid, the term asked is
    # the return's, stated in the next point
    text = (
        "ДОГОВОР НАЙМА № Н-7/2026\n"
        "3.4. В срок до 15 мая 2026 г. Наниматель вносит обеспечительный платёж в размере "
        "40 000 рублей.\n"
        "3.5. Обеспечительный платёж возвращается в течение 7 рабочих дней после выезда.\n"
    )
    card = build_card("n7", "Договор найма", text)
    q = build_question(
        "Какой обеспечительный платёж по найму Н-7/2026 и в какой срок его вернут?",
        TODAY,
        cards=[card],
    )
    stated = [f for f in card.facts if f.value.startswith("40 000")]
    companions = companion_facts(q, card, stated)
    assert [f.value for f in companions[0][1]] == ["7 рабочих дн."]
