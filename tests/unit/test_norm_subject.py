"""A Code point of the asked subject found by the Code's own search comes first."""

from __future__ import annotations

from finagent.answering.norm_subject import prefer_norm_subject
from finagent.question.build import build_question
from finagent.state import Chunk
from tests.unit.ranked import scored

LAW = Chunk(id="nk.x#1", text="", source="law", title="ст. 999 НК РФ")
NORM = Chunk(id="nk.y#2", text="", source="law", title="ст. 998 НК РФ")
OTHER = "взносы работодателя на образцовый счёт, но не более 9 000 рублей в год на работника;"
SUBJECT = "стоимость сувениров, полученных работником от работодателя, не превышающая 3 000 рублей;"


def test_the_code_point_naming_the_unmatched_subject_comes_first() -> None:
    question = build_question("Какая сумма сувениров работнику в год не облагается НДФЛ?")
    ranked, norms = prefer_norm_subject(
        question, [scored(LAW, OTHER, 3.0)], [scored(NORM, SUBJECT, 0.1)]
    )
    assert ranked[0].sentence == SUBJECT and not norms


def test_a_subject_the_retrieved_values_name_keeps_them() -> None:
    question = build_question("Какая сумма взносов работодателя в год не облагается НДФЛ?")
    ranked, norms = prefer_norm_subject(
        question, [scored(LAW, OTHER, 3.0)], [scored(NORM, SUBJECT, 0.1)]
    )
    assert ranked[0].sentence == OTHER and len(norms) == 1
