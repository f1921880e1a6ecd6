"""A market quantity's future is declined, live source or not: the Bank of Russia sets a
day's official rate the day before and the key rate at a meeting, so no source states a
value to come. A rule, a past or today's reading, tomorrow's official rate and a sum of a
currency are not forecasts. Invented wording."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.forecast import forecast_abstention
from finagent.question.build import build_question

TODAY = date(2026, 4, 8)


def _reason(text: str) -> str | None:
    found = forecast_abstention(build_question(text, TODAY))
    return found.reason if found else None


@pytest.mark.parametrize(
    "text",
    [
        "Банк России поднимет ключевую в июне?",
        "какая ключевая будет после ближайшего заседания совета директоров",
        "Какой будет ставка рефинансирования через полгода?",
        "прогноз ключевой ставки на осень",
    ],
)
def test_the_key_rate_to_come_is_declined_as_a_board_decision(text: str) -> None:
    reason = _reason(text)
    assert reason is not None and "совет директоров" in reason


@pytest.mark.parametrize(
    "text",
    [
        "какой официальный курс юаня установят на 20 мая 2026 года?",
        "Сколько будет стоить доллар в сентябре?",
        "курс фунта на 1 января 2027",
    ],
)
def test_an_official_rate_of_a_day_to_come_is_not_set_yet(text: str) -> None:
    reason = _reason(text)
    assert reason is not None and "накануне" in reason


def test_the_day_asked_is_named() -> None:
    reason = _reason("курс фунта на 1 января 2027")
    assert reason is not None and "на 1 января 2027" in reason


@pytest.mark.parametrize(
    "text", ["каким будет прогноз инфляции на следующий год?", "подорожает ли золото к лету?"]
)
def test_another_market_quantity_to_come_is_a_forecast(text: str) -> None:
    reason = _reason(text)
    assert reason is not None and "прогноз" in reason


@pytest.mark.parametrize(
    "text",
    [
        # a past or today's reading: the live source or the knowledge base states it
        "какой курс юаня ЦБ установил на 3 марта 2026?",
        "какая сейчас ключевая ставка?",
        # tomorrow's official rate is set today
        "какой курс фунта ЦБ установит на завтра?",
        # a rule that a market quantity enters, or what a law or a contract sets
        "сколько будет пени по ключевой ставке за 40 дней просрочки?",
        "изменится ли цена по договору поставки с 1 июля?",
        "какая ставка НДС будет в 2027 году?",
        # a sum of a currency converted, a key word that is no rate
        "сколько рублей будет за 700 евро по курсу ЦБ?",
        "какой ключевой показатель будет в отчёте за следующий год?",
    ],
)
def test_a_rule_a_reading_or_a_sum_is_no_forecast(text: str) -> None:
    assert _reason(text) is None
