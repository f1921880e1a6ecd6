"""A reporting period named in a question is not a length for the calculators."""

from __future__ import annotations

import pytest

from finagent.routing.calc_rules import calc_decision, is_calc_question


@pytest.mark.parametrize(
    "question",
    [
        "Какого числа нужно представить 6-НДФЛ за 9 месяцев?",
        "До какого числа подаётся расчёт по страховым взносам за 6 месяцев по общему правилу?",
        "До какого числа сдают декларацию по НДС за 3 месяца?",
    ],
)
def test_named_reporting_period_without_a_date_stays_with_the_code(question: str) -> None:
    assert not is_calc_question(question)
    assert calc_decision(question) is None


@pytest.mark.parametrize(
    "question",
    [
        # a length before an event
        "Уведомить работников нужно за 2 месяца до сокращения. До какого числа, если "
        "сокращение 1 марта 2026 года?",
        # a dated submission of a period's return: the camera check is counted from it
        "Декларацию по налогу на прибыль за 9 месяцев подали 27 октября 2025 года. "
        "Когда закончится камеральная проверка?",
        # пени for a period's advance
        "Аванс по УСН за 9 месяцев 2024 года в 100 000 руб. уплатили 5 декабря 2024 года. "
        "Сколько пеней?",
    ],
)
def test_periods_with_something_to_count_from_stay_calc(question: str) -> None:
    assert is_calc_question(question)
