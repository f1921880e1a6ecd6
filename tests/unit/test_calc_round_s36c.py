"""Stop 36, round 3: hold-out v16's classes (issue #26) — the payer is who pays, not the
payer type a rule is compared with; a told rule granting a discount or borrowing another
law's rule is declined; a supply contract's interest is civil law; «Какой это день?» asks
a day; a speaker who works at a bank speaks for it. Wording ours, not an eval item's."""

from __future__ import annotations

from evals.answers.calc import answer_value
from finagent.legal.calc_extract import looks_like_calc
from finagent.legal.calc_text import read_question
from finagent.legal.penalty_reading import payer_of
from tests.unit.calc_reading import ask

# --- the payer is who pays, not the standard of a comparison ----------------------------


def test_a_payer_type_a_rule_is_compared_with_is_not_the_payer() -> None:
    for question, payer in (
        ("Я предприниматель, НДФЛ заплатил позже. Пени считаются как у юрлиц?", "individual"),
        ("Мы ИП, налог просрочили на месяц. Или ставка как для организаций?", "individual"),
        ("Организация опоздала с НДС. Ставка такая же, как у ИП, или выше?", "organization"),
    ):
        assert payer_of(read_question(question)) == payer, question


def test_a_payer_type_as_a_role_is_the_payer() -> None:
    question = "Мы как организация уплатили налог позже срока. Сколько пени?"
    assert payer_of(read_question(question)) == "organization"


# --- a told rule with a discount or another law's rule ---------------------------------


async def test_a_told_discount_for_paying_in_time_is_declined() -> None:
    question = (
        "Говорят, если налоговый штраф погасить за 15 дней, будет скидка половина суммы. "
        "Решение получили 10.04.2025 — до какого дня успеть?"
    )
    outcome = await ask(question)
    assert outcome.mode == "decline"
    assert answer_value("deadline", outcome.markdown) is None


async def test_a_told_rule_borrowed_from_traffic_fines_is_declined() -> None:
    question = (
        "Слышал, что если требование исполнить в течение недели, то как с штрафами "
        "ГИБДД, пени не начисляют. Требование получили 02.06.2025. До какого числа?"
    )
    outcome = await ask(question)
    assert outcome.mode == "decline"


# --- a supply contract's interest is civil law ------------------------------------------


async def test_interest_on_an_unpaid_supply_is_declined_as_civil_law() -> None:
    question = (
        "Поставщик не получил оплату 800 000 руб. с 10.02.2025 по 20.05.2025. Рассчитайте "
        "пени по ставке ЦБ, как в налоговой."
    )
    outcome = await ask(question)
    assert outcome.mode == "decline" and "395" in outcome.markdown


# --- asking a day with a demonstrative; a speaker working at a bank ---------------------


def test_a_demonstrative_inside_the_asking_phrase_still_asks_a_day() -> None:
    question = (
        "Акт камеральной проверки получили 12 марта 2025 г. Возражения подадим в последний "
        "день. Какой это будет день?"
    )
    assert looks_like_calc(question.replace("Какой это будет день", "Какое это число"))


async def test_a_bank_employee_asks_for_the_bank() -> None:
    question = (
        "Я работаю в банке. Организация закрыла у нас счет 14 июля 2025 г. До какой даты "
        "мы должны сообщить об этом в налоговую?"
    )
    outcome = await ask(question)
    assert answer_value("deadline", outcome.markdown) == "2025-07-17"


async def test_without_a_workplace_the_pronoun_names_no_bank() -> None:
    question = (
        "Мы закрыли счет в банке 14 июля 2025 г. До какой даты мы должны сообщить об "
        "этом в налоговую?"
    )
    outcome = await ask(question)
    assert answer_value("deadline", outcome.markdown) != "2025-07-17"
