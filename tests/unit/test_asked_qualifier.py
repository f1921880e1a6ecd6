"""The sentence of the question's own case comes first when the Code splits a rule."""

from __future__ import annotations

from finagent.answering.asked_qualifier import prefer_asked_qualifier
from finagent.answering.evidence import Candidate
from finagent.question.build import build_question
from tests.unit.ranked import kb_passage, ranked

KB = kb_passage(4, "Образцовые штрафы")
ONE = (
    "Порча образцовых бланков, если она совершена в течение одного налогового периода,"
    " влечет штраф 3 000 рублей."
)
MORE = (
    "Те же деяния, если они совершены в течение более одного налогового периода,"
    " влекут штраф 9 000 рублей."
)


def _ranked(*sentences: str, gap: float = 2.0) -> list[Candidate]:
    return ranked(KB, *sentences, top=4.0, gap=gap)


def test_the_asked_case_comes_first() -> None:
    question = build_question("Какой штраф за порчу образцовых бланков в нескольких периодах?")
    assert prefer_asked_qualifier(question, _ranked(ONE, MORE))[0].sentence == MORE


def test_the_case_the_best_names_or_no_case_is_left_alone() -> None:
    one = build_question("Какой штраф за порчу образцовых бланков за один налоговый период?")
    assert prefer_asked_qualifier(one, _ranked(ONE, MORE))[0].sentence == ONE
    plain = build_question("Какой штраф за порчу образцовых бланков?")
    assert prefer_asked_qualifier(plain, _ranked(ONE, MORE))[0].sentence == ONE
