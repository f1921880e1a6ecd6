"""A limit of the asked subject, not of the neighbouring one, comes first."""

from __future__ import annotations

from finagent.answering.asked_subject import prefer_asked_subject
from finagent.answering.evidence import Candidate
from finagent.question.build import build_question
from tests.unit.ranked import kb_passage, ranked

KB = kb_passage(2, "Образцовый вычет")
OWN = "за собственное обучение вождению — в рамках общего лимита образцовых вычетов 70 000 руб."
PET = "за обучение собаки — до 30 000 руб. на каждую собаку в год;"


def _ranked(*sentences: str, gap: float = 0.5) -> list[Candidate]:
    return ranked(KB, *sentences, top=3.0, gap=gap)


def test_the_limit_named_by_the_questions_phrase_comes_first() -> None:
    question = build_question("Какой лимит вычета за обучение собаки?")
    assert prefer_asked_subject(question, _ranked(OWN, PET))[0].sentence == PET


def test_a_far_weaker_sentence_or_another_answer_type_is_left_alone() -> None:
    question = build_question("Какой лимит вычета за обучение собаки?")
    assert prefer_asked_subject(question, _ranked(OWN, PET, gap=5.0))[0].sentence == OWN
    rate = build_question("Какая ставка образцового вычета за обучение собаки?")
    assert prefer_asked_subject(rate, _ranked(OWN, PET))[0].sentence == OWN
