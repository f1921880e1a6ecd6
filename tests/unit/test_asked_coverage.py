"""The near candidate naming more of the question's words (or their synonyms) comes first."""

from __future__ import annotations

from finagent.answering.asked_coverage import prefer_covering
from finagent.answering.evidence import Candidate
from finagent.question.build import build_question
from finagent.state import Chunk
from tests.unit.ranked import kb_passage, ranked

KB = kb_passage(3, "Образцовый сбор")
LAW = Chunk(id="nk.z#0", text="", source="law", title="ст. 997 НК РФ")
SCOPE = "В ходе ревизии склада может быть проверен период, не превышающий пяти лет."
LENGTH = "Ревизия склада не может продолжаться более трех недель."
REFUND = "Возврат образцового платежа производится в течение десяти лет."
CLAIM = "Льгота по образцовому сбору может быть заявлена в пределах двух лет."


def _ranked(*sentences: str, gap: float = 0.4, chunk: Chunk = KB) -> list[Candidate]:
    return ranked(chunk, *sentences, top=3.0, gap=gap)


def test_a_synonym_of_the_asked_predicate_decides() -> None:
    question = build_question("Сколько может длиться ревизия склада?")
    assert prefer_covering(question, _ranked(SCOPE, LENGTH))[0].sentence == LENGTH


def test_the_asked_subject_decides_between_code_sentences_only() -> None:
    question = build_question("Сколько лет можно переносить льготу по сбору?")
    assert prefer_covering(question, _ranked(REFUND, CLAIM, chunk=LAW))[0].sentence == CLAIM
    # a plain extra word of a knowledge-base sentence is no evidence
    assert prefer_covering(question, _ranked(REFUND, CLAIM))[0].sentence == REFUND


def test_a_far_weaker_sentence_or_a_document_is_left_alone() -> None:
    question = build_question("Сколько может длиться ревизия склада?")
    assert prefer_covering(question, _ranked(SCOPE, LENGTH, gap=3.0))[0].sentence == SCOPE
    doc = Chunk(id="d1", text="", source="user_docs", title="Договор")
    assert prefer_covering(question, _ranked(SCOPE, LENGTH, chunk=doc))[0].sentence == SCOPE
