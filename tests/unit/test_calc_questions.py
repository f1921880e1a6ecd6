"""The calc intent: which questions it claims and what the rule extractor reads."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from finagent.language.dates import days_in
from finagent.language.text import analyse
from finagent.routing.calc_rules import calc_decision
from finagent.routing.llm_router import OrchestratorOutput
from finagent.state import Scenario
from tests.unit.calc_reading import TODAY, deadline, penalty


@pytest.mark.parametrize(
    "question",
    [
        "до какого дня нужно представить пояснения по требованию, полученному 3 февраля?",
        "когда заканчивается выездная проверка, начатая 15 мая?",
        "сколько пеней набежит на 250 000 руб. налога, уплаченного на 70 дней позже срока?",
        "Акт получен 10.03.2025, когда истекает срок на возражения?",
        "Рассчитайте пени: 10 000 руб., срок 28.04.2025, уплачено 05.05.2025",
        "Акт вручили 31.01.2025. Месяц на возражения — это до 28 февраля или до 3 марта?",
        "Акт вручили 31.01.2025, хочу подать возражения. Подскажите точную дату.",
    ],
)
def test_calc_questions_are_claimed(question: str) -> None:
    decision = calc_decision(question)
    assert decision is not None
    assert decision.scenario == Scenario.ROUTED and decision.intents == ["calc"]


@pytest.mark.parametrize(
    "question",
    [
        "какой срок камеральной проверки?",  # a rule, nothing to compute
        "что такое пени и как они считаются",
        "курс доллара на 01.04.2025",
        "какая ключевая ставка сейчас",
        # a date and «до какого числа», but no period the rule path knows: a kb question
        "Хочу перейти на УСН с 1 января. До какого числа подать уведомление?",
    ],
)
def test_other_questions_are_left_to_the_router(question: str) -> None:
    assert calc_decision(question) is None


def test_llm_orchestrator_schema_accepts_calc() -> None:
    out = OrchestratorOutput.model_validate({"scenario": 2, "intents": ["calc"], "confidence": 1})
    assert out.intents == ["calc"]


def test_dates_in_three_forms() -> None:
    found = days_in(analyse("с 3 февраля 2025 года по 10.03.2025 и 2025-04-01"))
    assert [(f.year, f.month, f.day) for f in found] == [(2025, 2, 3), (2025, 3, 10), (2025, 4, 1)]


def test_deadline_norm_and_explicit_period() -> None:
    q = deadline("до какого числа подать возражения на акт, полученный 31.01.2025?")
    assert q is not None
    assert (q.event_date, q.period, q.unit, q.row_id) == (
        date(2025, 1, 31),
        1,
        "months",
        "objections_100",
    )
    q = deadline("когда истекает срок 30 календарных дней с 1 декабря 2025 г.?")
    assert q is not None and (q.period, q.unit, q.row_id) == (30, "days", None)
    q = deadline("когда истекает срок 10 дней с 1 декабря 2025 г.?")
    assert q is not None and q.unit == "working_days" and "п. 6 ст. 6.1" in q.assumptions[0]


def test_deadline_without_a_year_takes_this_year() -> None:
    q = deadline("когда заканчивается выездная проверка, начатая 15 мая?")
    assert q is not None and q.event_date == date(2026, 5, 15) and q.assumptions


def test_a_missing_year_is_taken_from_the_other_dates_of_the_question() -> None:
    """Not today's year: the year that puts the day nearest the question's dated days."""
    q = deadline(
        "Декларацию по налогу на прибыль подали 20 декабря 2024 г., требование о пояснениях "
        "получили 14 января. До какого числа ответить?"
    )
    assert q is not None and q.event_date == date(2025, 1, 14)
    assert "принят 2025 год (по другим датам вопроса)" in q.assumptions[0]


def test_penalty_dates_amount_and_payer() -> None:
    q = penalty("ИП не уплатил в срок 28.04.2025 налог 100 000 руб., уплатил 15.05.2025. Пени?")
    assert q is not None
    assert (q.amount, q.due_date, q.paid_date, q.payer) == (
        Decimal(100000),
        date(2025, 4, 28),
        date(2025, 5, 15),
        "individual",
    )
    q = penalty("ООО заплатило 1,5 млн руб. на 10 дней позже срока 28.07.2025. Пени?")
    assert q is not None and q.amount == Decimal("1500000")
    assert (q.due_date, q.paid_date, q.payer) == (
        date(2025, 7, 28),
        date(2025, 8, 7),
        "organization",
    )


def test_penalty_without_dates_assumes_payment_today() -> None:
    q = penalty("сколько пеней на 250 000 руб., уплаченных на 70 дней позже срока?")
    assert q is not None and q.paid_date == TODAY and (TODAY - q.due_date).days == 70
    assert len(q.assumptions) == 1  # the dates were assumed, and said so
    assert not q.payer_given  # the answer shows both payer types when they differ


def test_penalty_without_an_amount_is_not_parsed() -> None:
    assert penalty("сколько пеней за просрочку с 01.02.2025 по 10.02.2025?") is None


def test_a_year_is_not_a_period() -> None:
    q = deadline("Декларацию по УСН за 2024 год подали 25.04.2025. Когда конец камеральной?")
    assert q is not None and (q.period, q.unit) == (3, "months")
    q = deadline(
        "Декларацию по НДС за I квартал 2025 года подали 24.04.2025. Когда конец камеральной?"
    )
    assert q is not None and q.row_id == "desk_audit_vat_88"
    assert (q.period, q.unit) == (2, "months")


@pytest.mark.parametrize(
    ("question", "amount", "due", "paid", "payer"),
    [
        (  # a scale word without «руб.», «вместо» marks the due date
            "Недоимка 1,2 млн, ООО, оплатили 10.06.2025 вместо 28.04.2025. Сколько пени?",
            Decimal("1200000"),
            date(2025, 4, 28),
            date(2025, 6, 10),
            "organization",
        ),
        (  # «с ... по ...» is the overdue range itself: the due date is the day before
            "Сколько пеней по недоимке 250000 руб. у ООО за период с 29 июля по 15 октября "
            "2024 года?",
            Decimal("250000"),
            date(2024, 7, 28),
            date(2024, 10, 15),
            "organization",
        ),
        (  # three dates: only the ones the words mark as due and paid
            "Декларация подана 25.03.2025, срок уплаты 28.03.2025, уплачено 10.06.2025, налог "
            "100 000 руб., ООО. Сколько пеней?",
            Decimal("100000"),
            date(2025, 3, 28),
            date(2025, 6, 10),
            "organization",
        ),
        (  # «срок уплаты» is a due cue even though it contains «уплат»
            "Срок уплаты 28.07.2025, просрочка 40 дней, налог 45 600 руб., организация. "
            "Сколько пеней?",
            Decimal("45600"),
            date(2025, 7, 28),
            date(2025, 9, 6),
            "organization",
        ),
        (  # «3-го февраля», a year shared by both dates, «физлица»
            "Пени на 85 тыс. рублей: срок уплаты 28 декабря, а уплатили 15 января 2025 года. "
            "ИП. Сколько?",
            Decimal("85000"),
            date(2024, 12, 28),
            date(2025, 1, 15),
            "individual",
        ),
        (  # a stated due date on a day off moves to the next working day (п. 7 ст. 6.1)
            "ИП, налог 50 000 руб., срок уплаты 28.06.2025, заплатил 10.07.2025. Пени?",
            Decimal("50000"),
            date(2025, 6, 30),
            date(2025, 7, 10),
            "individual",
        ),
        (  # the nominal due date and the moved one are one due date
            "Налог 300 000 руб., ООО: срок уплаты 28.09.2025 выпал на воскресенье, поэтому "
            "срок — 29.09.2025; уплатили 20.10.2025. Сколько пени?",
            Decimal("300000"),
            date(2025, 9, 29),
            date(2025, 10, 20),
            "organization",
        ),
        (
            "Пенсионер заплатил земельный налог 640 ₽ не 1 декабря 2023 года, а 25 декабря "
            "2023 года. Пени?",
            Decimal("640"),
            date(2023, 12, 1),
            date(2023, 12, 25),
            "individual",
        ),
    ],
)
def test_penalty_phrasings(
    question: str, amount: Decimal, due: date, paid: date, payer: str
) -> None:
    assert calc_decision(question) is not None
    q = penalty(question)
    assert q is not None and q.payer_given
    assert (q.amount, q.due_date, q.paid_date, q.payer) == (amount, due, paid, payer)


def test_date_forms_of_a_deadline_question() -> None:
    for text in ("3 февраля 2025 г.", "03.02.2025", "3-го февраля 2025 года", "2025-02-03"):
        q = deadline(f"Требование о пояснениях получено {text}. До какого дня ответить?")
        assert q is not None and q.event_date == date(2025, 2, 3), text


def test_a_story_that_mentions_penalties_does_not_make_a_date_question_a_penalty_one() -> None:
    from finagent.legal.calc_extract import asks_penalty
    from finagent.legal.calc_text import read_question

    question = (
        "Пени 1 200 руб. закрыли 05.06.2025. 10.06.2025 получили требование дать "
        "пояснения. Какой последний день для ответа?"
    )
    assert not asks_penalty(read_question(question))
    query = deadline(question)
    assert query is not None and query.row_id == "explanations_88"
    assert asks_penalty(
        read_question("Недоимка 10 000 руб., срок 28.04.2025, уплачено 05.05.2025. Пени?")
    )
