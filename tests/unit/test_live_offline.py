"""Where the notice of an unavailable Bank of Russia source stands: first for today's or a
future value, after the lead for a question about the past."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering import messages
from finagent.answering.live_offline import asks_past, notice_follows
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
