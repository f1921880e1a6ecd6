"""The calc intent: which questions it claims and what the rule path extracts."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from finagent.legal.calc_query import find_dates, parse_deadline, parse_penalty
from finagent.routing.calc_rules import calc_decision
from finagent.routing.llm_router import OrchestratorOutput
from finagent.state import Scenario

TODAY = date(2026, 11, 23)


@pytest.mark.parametrize(
    "question",
    [
        "до какого дня нужно представить пояснения по требованию, полученному 3 февраля?",
        "когда заканчивается выездная проверка, начатая 15 мая?",
        "сколько пеней набежит на 250 000 руб. налога, уплаченного на 70 дней позже срока?",
        "Акт получен 10.03.2025, когда истекает срок на возражения?",
        "Рассчитайте пени: 10 000 руб., срок 28.04.2025, уплачено 05.05.2025",
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
    found = find_dates("с 3 февраля 2025 года по 10.03.2025 и 2025-04-01", TODAY)
    assert [f.day for f in found] == [date(2025, 2, 3), date(2025, 3, 10), date(2025, 4, 1)]


def test_deadline_norm_and_explicit_period() -> None:
    q = parse_deadline("до какого числа подать возражения на акт, полученный 31.01.2025?", TODAY)
    assert q is not None and q.norm is not None
    assert (q.event_date, q.period, q.unit, q.norm.unit_id) == (
        date(2025, 1, 31),
        1,
        "months",
        "nk1.ch14.art100.p6",
    )
    q = parse_deadline("когда истекает срок 30 календарных дней с 1 декабря 2025 г.?", TODAY)
    assert q is not None and (q.period, q.unit, q.norm) == (30, "days", None)
    q = parse_deadline("когда истекает срок 10 дней с 1 декабря 2025 г.?", TODAY)
    assert q is not None and q.unit == "working_days" and "п. 6 ст. 6.1" in q.assumptions[0]


def test_deadline_without_a_year_takes_this_year() -> None:
    q = parse_deadline("когда заканчивается выездная проверка, начатая 15 мая?", TODAY)
    assert q is not None and q.event_date == date(2026, 5, 15) and q.assumptions


def test_penalty_dates_amount_and_payer() -> None:
    q = parse_penalty(
        "ИП не уплатил в срок 28.04.2025 налог 100 000 руб., уплатил 15.05.2025", TODAY
    )
    assert q is not None
    assert (q.amount, q.due_date, q.paid_date, q.payer) == (
        Decimal(100000),
        date(2025, 4, 28),
        date(2025, 5, 15),
        "individual",
    )
    q = parse_penalty("ООО заплатило 1,5 млн руб. на 10 дней позже срока 28.07.2025", TODAY)
    assert q is not None and q.amount == Decimal("1500000")
    assert (q.due_date, q.paid_date, q.payer) == (
        date(2025, 7, 28),
        date(2025, 8, 7),
        "organization",
    )


def test_penalty_without_dates_assumes_payment_today() -> None:
    q = parse_penalty("сколько пеней на 250 000 руб., уплаченных на 70 дней позже срока?", TODAY)
    assert q is not None and q.paid_date == TODAY and (TODAY - q.due_date).days == 70
    assert len(q.assumptions) == 1  # the dates were assumed, and said so
    assert not q.payer_given  # the answer shows both payer types when they differ


def test_penalty_without_an_amount_is_not_parsed() -> None:
    assert parse_penalty("сколько пеней за просрочку с 01.02.2025 по 10.02.2025?", TODAY) is None


def test_a_year_is_not_a_period() -> None:
    q = parse_deadline(
        "Декларацию по УСН за 2024 год подали 25.04.2025. Когда конец камеральной?", TODAY
    )
    assert q is not None and (q.period, q.unit) == (3, "months")
    q = parse_deadline(
        "Декларацию по НДС за I квартал 2025 года подали 24.04.2025. Когда конец камеральной?",
        TODAY,
    )
    assert q is not None and q.norm is not None and q.norm.id == "desk_audit_vat_88"
    assert (q.period, q.unit) == (2, "months")
