"""The sentence stating the value a question gives («ставка 12 %») answers what it asks."""

from __future__ import annotations

from finagent.answering.evidence import Candidate
from finagent.answering.given_value import prefer_given_value
from finagent.question.build import build_question
from tests.unit.ranked import kb_passage, ranked

KB = kb_passage(3, "Образцовый сбор")
OTHER = "Годовой доход садовода не должен превышать 3,1 млн руб."
BRACKET = "- свыше 70 млн руб. — 12 % с превышения."


def _ranked(*sentences: str, gap: float = 0.0) -> list[Candidate]:
    return ranked(KB, *sentences, top=2.0, gap=gap)


def test_the_row_of_the_given_rate_answers_the_asked_threshold() -> None:
    question = build_question("С какого годового дохода действует ставка сбора 12 %?")
    assert prefer_given_value(question, _ranked(OTHER, BRACKET))[0].sentence == BRACKET


def test_without_a_given_value_or_far_behind_the_order_stays() -> None:
    plain = build_question("Какой предельный годовой доход по сбору?")
    assert prefer_given_value(plain, _ranked(OTHER, BRACKET))[0].sentence == OTHER
    given = build_question("С какого годового дохода действует ставка сбора 12 %?")
    assert prefer_given_value(given, _ranked(OTHER, BRACKET, gap=3.0))[0].sentence == OTHER
