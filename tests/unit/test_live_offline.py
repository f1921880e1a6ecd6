"""Where the notice of an unavailable Bank of Russia source stands: first for today's or a
future value, after the lead for a question about the past."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering import messages
from finagent.answering.live_offline import asks_past, asks_standing, notice_follows
from finagent.question.build import build_question

TODAY = date(2026, 11, 27)
CBR = messages.SOURCE_NOT_CONFIGURED.format(name="Банк России")
NEWS = messages.SOURCE_NOT_CONFIGURED.format(name="финансовые новости")


@pytest.mark.parametrize(
    "question",
    [
        "Какая ключевая ставка действовала в марте 2024 года?",
        "До скольких процентов ЦБ поднял ставку в конце октября 2024 года?",
        "Курс, установленный ЦБ в среду, с какого дня действует?",
        "Какой была ставка после решения, вступившего в силу 15 июня 2024 года?",
    ],
)
def test_a_past_date_or_an_act_done_asks_the_past(question: str) -> None:
    assert asks_past(build_question(question, TODAY))


@pytest.mark.parametrize(
    "question",
    [
        "Какая сейчас ключевая ставка?",
        "Какой курс фунта ЦБ поставил на завтра?",
        "Какой будет ключевая ставка в следующем году?",
        "Какая ключевая ставка на сегодняшний день?",
        "Какой курс доллара ЦБ установит в январе 2027 года?",
        "Какую инфляцию ЦБ считает целевой?",
    ],
)
def test_today_the_future_or_no_time_is_not_the_past(question: str) -> None:
    assert not asks_past(build_question(question, TODAY))


def test_only_a_bank_of_russia_notice_follows_the_lead() -> None:
    past = build_question("Какая ключевая ставка действовала в марте 2024 года?", TODAY)
    assert notice_follows(past, [CBR])
    assert not notice_follows(past, [NEWS])
    assert not notice_follows(past, [CBR, NEWS])
    assert not notice_follows(past, [])


@pytest.mark.parametrize(
    "question",
    [
        "Какая доля ставки рефинансирования берётся для пеней ИП в первый месяц просрочки?",
        "Сколько раз в квартал регулятор публикует обзор финансовой стабильности?",
        "Каков потолок полной стоимости потребительского кредита?",
        "Какой целевой уровень инфляции у регулятора?",
    ],
)
def test_a_standing_setting_is_answered_before_any_notice(question: str) -> None:
    asked = build_question(question, TODAY)
    assert asks_standing(asked)
    # the knowledge base states a setting whichever live source failed
    assert notice_follows(asked, [CBR])
    assert notice_follows(asked, [NEWS])


@pytest.mark.parametrize(
    "question",
    [
        "Какая доля ставки сейчас применяется для пеней?",
        "Какой потолок по вкладам ЦБ установит в следующем месяце?",
        "Какой будет предельный курс юаня в январе 2027 года?",
        "Какой курс евро?",
        "Какая ключевая ставка Банка России?",
    ],
)
def test_a_reading_of_today_or_later_is_no_standing_setting(question: str) -> None:
    asked = build_question(question, TODAY)
    assert not asks_standing(asked)
    assert not notice_follows(asked, [NEWS])
