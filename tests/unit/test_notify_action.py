"""Notifying as an asked action: «в какой срок уведомить …», «до какого числа сообщить …».

Questions and sentences written for this mechanism (a made-up levy's payer who stops
trading, a lottery organiser's notice), about no evaluation item.
"""

from __future__ import annotations

import pytest

from finagent.answering.asked_action import of_asked_action, prefer_asked_action
from finagent.answering.evidence import Candidate
from finagent.question.acts import actions_named, actions_stated, asked_action
from finagent.question.build import build_question
from finagent.retrieval.tax_focus import ACT_WEIGHT, DEADLINE_WEIGHT, timed_focus
from finagent.state import Chunk

NOTICE_TERM = (
    "Плательщик сбора обязан уведомить налоговый орган о прекращении деятельности "
    "в течение десяти дней со дня ее прекращения."
)
NOTICE_DATE = (
    "Плательщик сбора уведомляет налоговый орган о прекращении деятельности не позднее "
    "10-го числа месяца, следующего за месяцем ее прекращения."
)
LEVY_PAID = "Сбор уплачивается плательщиком не позднее 15-го числа месяца, следующего за кварталом."
BOTH = (
    "Организатор лотереи представляет отчет не позднее 20 апреля, "
    "сообщает налоговому органу о выигрышах не позднее 1 марта."
)


def _candidate(text: str, number: int, score: float) -> Candidate:
    chunk = Chunk(id=f"kb#{number}", text="", source="kb", metadata={}, title="Сбор")
    return Candidate(chunk, number, text, 0, number, score=score, learned=True)


def _law(text: str) -> Chunk:
    return Chunk(id="art9#0", text=text, source="law", metadata={"chapter": "33"})


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("В какой срок уведомить инспекцию о закрытии точки?", {"notify"}),
        ("организатор сообщает налоговому органу", {"notify"}),
        ("извещает налогоплательщика", {"notify"}),
        # the notice as a paper is filed: its noun names no notifying
        ("подать уведомление о постановке на учёт", {"file"}),
    ],
)
def test_notifying_is_named_by_its_verbs(text: str, expected: set[str]) -> None:
    assert actions_named(text) == expected


def test_a_notice_question_asks_notifying() -> None:
    question = build_question("До какого числа организатору лотереи сообщить о выигрышах?")
    assert asked_action(question) == "notify"
    assert asked_action(build_question("Когда сообщить в инспекцию и уплатить сбор?")) is None


def test_the_notice_term_weighs_up_in_the_timed_search() -> None:
    focus = timed_focus(build_question("В какой срок плательщику сбора уведомить о прекращении?"))
    assert focus is not None and focus.act == "notify"
    assert focus.weight(_law(NOTICE_TERM)) == ACT_WEIGHT
    assert focus.weight(_law(LEVY_PAID)) == DEADLINE_WEIGHT


def test_the_notice_date_of_a_sentence_stating_two() -> None:
    question = build_question("До какого числа организатору лотереи сообщить о выигрышах?")
    assert of_asked_action(question, BOTH, ("20 апреля", "1 марта")) == ("1 марта",)


def test_a_near_notice_sentence_comes_before_a_payment_term() -> None:
    question = build_question("До какого числа плательщику сбора уведомить о прекращении?")
    ranked = [_candidate(LEVY_PAID, 1, 2.0), _candidate(NOTICE_DATE, 2, 1.5)]
    assert prefer_asked_action(question, ranked)[0].sentence == NOTICE_DATE


@pytest.mark.parametrize(
    ("question", "expected"),
    [
        # an act already done is context; the one still to do is asked
        ("Отправила расчёт по сбору, к какому числу перечислить сам сбор?", "pay"),
        ("Уплатили аванс по налогу на имущество, когда подать декларацию?", "file"),
        ("Сообщили в инспекцию о закрытии точки. До какого числа уплатить сбор?", "pay"),
        # two acts still to do: none asked, as before
        ("До какого числа сдать отчёт по сбору и заплатить сбор?", None),
        # every act done: none asked, as before
        ("Подали отчёт и уплатили сбор, когда придёт ответ?", None),
    ],
)
def test_an_act_already_done_is_not_the_asked_one(question: str, expected: str | None) -> None:
    assert asked_action(build_question(question)) == expected


def test_a_rule_filing_a_notice_states_the_term_of_notifying() -> None:
    filed = "Уведомление о доле подаётся в течение одного месяца со дня её покупки."
    assert actions_stated(filed) == {"file", "notify"}
    assert actions_named(filed) == {"file"}
    # a question filing a notice still asks filing
    assert asked_action(build_question("Когда подать уведомление о доле?")) == "file"
    question = build_question("Купил долю — в какой срок уведомить инспекцию?")
    ranked = [_candidate(filed, 1, 2.0), _candidate(NOTICE_TERM, 2, 1.8)]
    assert prefer_asked_action(question, ranked)[0].sentence == filed
