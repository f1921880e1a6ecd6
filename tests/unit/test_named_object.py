"""The sentence of the object the question names by its «о …» complement comes first."""

from __future__ import annotations

from finagent.answering.evidence import Candidate
from finagent.answering.named_object import complements, prefer_named_object
from finagent.question.build import build_question
from tests.unit.ranked import kb_passage, ranked

KB = kb_passage(5, "Образцовые отчёты и сообщение о закупке бланков")
OTHER = "Непредставление сообщения об участии в образцовом союзе влечет штраф 7 000 рублей."
OWN = "За непредставление сообщения может быть наложен штраф 300 руб."


def _ranked(*sentences: str, gap: float = 0.5) -> list[Candidate]:
    return ranked(KB, *sentences, top=3.0, gap=gap)


def test_complements_are_read_after_the_noun() -> None:
    assert complements(("сообщение", "о", "закупка", "бланк")) == {
        "сообщение": frozenset({"закупка", "бланк"})
    }


def test_the_namesake_gives_way_to_the_named_object() -> None:
    question = build_question("Какой штраф за непредставление сообщения о закупке бланков?")
    assert prefer_named_object(question, _ranked(OTHER, OWN))[0].sentence == OWN


def test_the_same_object_or_a_far_weaker_one_is_left_alone() -> None:
    same = build_question("Какой штраф за непредставление сообщения об участии в союзе?")
    assert prefer_named_object(same, _ranked(OTHER, OWN))[0].sentence == OTHER
    question = build_question("Какой штраф за непредставление сообщения о закупке бланков?")
    assert prefer_named_object(question, _ranked(OTHER, OWN, gap=4.0))[0].sentence == OTHER
