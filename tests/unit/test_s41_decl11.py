"""Stop 41 decl11: a named tax's dated payment term is the Code's, not a procedure to ask
back; a word cut short by a period («доп.») modifies the asked noun, it is not it."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.calc import asks_tax_payment
from finagent.legal.calc_extract import extract_calc_request
from finagent.question.build import build_question

TODAY = date(2026, 11, 27)


@pytest.mark.parametrize(
    ("question", "tax_term"),
    [
        ("Отпускные выдали 12 мая, когда перечислить НДФЛ?", True),
        ("Патент кончается 30 июня — до какого числа доплатить остаток?", True),
        # no tax named: which procedure is meant is still asked
        ("Пришло требование 14 октября, до какого числа отвечать?", False),
        # a demand named: its kind is asked back
        ("Требование по НДС пришло 3 марта, до какого числа ответить?", False),
        # a cited article the table knows: its periods are named back
        (
            "Решение по ст. 101 НК РФ вручили 8 сентября. Когда перечислить доначисленный "
            "налог на прибыль?",
            False,
        ),
        # not a payment asked
        ("НДФЛ с премии 27 декабря не перечислили вовремя — что будет?", False),
        # a procedure the table has: computed as before
        ("Акт проверки по НДС вручили 3 марта, до какого числа возражения?", False),
    ],
)
def test_a_named_taxs_payment_term_is_the_codes(question: str, tax_term: bool) -> None:
    req = extract_calc_request(question, TODAY)
    assert asks_tax_payment(req, question) is tax_term


@pytest.mark.parametrize(
    ("question", "head"),
    [
        ("какая доп. плата за хранение груза?", "плата"),
        ("какой ориент. срок поставки?", "срок"),
        ("какой ежемес. платёж по кредиту?", "платеж"),
        ("какая макс. неустойка по договору?", "неустойка"),
        # no period: read as before
        ("Какой штраф по ст. 119 НК РФ?", "штраф"),
    ],
)
def test_a_clipped_modifier_is_not_the_asked_noun(question: str, head: str) -> None:
    attributes = build_question(question).attributes
    assert attributes and attributes[0].head == head
