"""The asked predicate: the act the asking clause names by its verb decides between near
sentences of one topic («сколько длится» — «не может продолжаться», «сколько вернут» —
«возмещение», «когда разблокируют» — «блокировка снимается»).

Questions and sentences written for this mechanism (a made-up warehouse audit, a
made-up guarantee fund, a frozen till), about no evaluation item.
"""

from __future__ import annotations

import pytest

from finagent.answering.asked_action import asked_predicates, prefer_asked_predicate
from finagent.answering.evidence import Candidate
from finagent.question.build import build_question
from finagent.state import Chunk
from tests.unit.ranked import kb_passage, ranked

LAW = Chunk(id="nk.z#0", text="", source="law", title="ст. 997 НК РФ")
FUND = kb_passage(7, "Гарантийный фонд")
SCOPE = "В ходе ревизии склада может быть проверен период, не превышающий пяти лет."
LENGTH = "Ревизия склада не может продолжаться более трех недель."
FREE = "Доход по полису не облагается в пределах 90 000 руб. за год."
PAYOUT = "Возмещение по полису — до 700 000 руб. на одного держателя."
EXAMPLE = "Если владелец кассы погасит долг 14 мая 2025 года, пени начислят по 13 мая."
LIFTED = "Блокировка кассы снимается не позднее двух рабочих дней после погашения долга."


def _ranked(*sentences: str, gap: float, chunk: Chunk = LAW) -> list[Candidate]:
    return ranked(chunk, *sentences, top=3.0, gap=gap)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Сколько может длиться ревизия склада?", {"длиться"}),
        # a condition and the clause before the question word are not asked
        ("Сколько вернёт фонд по полису, если страховщик обанкротится?", {"вернуть"}),
        ("Кассу заблокировали за долг. Когда её разблокируют?", {"разблокировать"}),
        # verbs of value and modality, and the asked actions' own verbs, ask no predicate
        ("Сколько стоит патент на ремонт обуви?", set()),
        ("До какого числа нужно уплатить сбор?", set()),
        # a verb every rule of a value uses asks the value
        ("С какой суммы исчисляется сбор за склад?", set()),
    ],
)
def test_the_asked_predicate_is_the_asking_clauses_own_verb(text: str, expected: set[str]) -> None:
    assert asked_predicates(build_question(text)) == expected


def test_a_duration_by_its_predicate_beats_the_span_of_something_else() -> None:
    question = build_question("Сколько может длиться ревизия склада?")
    assert prefer_asked_predicate(question, _ranked(SCOPE, LENGTH, gap=1.5))[0].sentence == LENGTH
    # a far weaker sentence is not the rule asked about
    assert prefer_asked_predicate(question, _ranked(SCOPE, LENGTH, gap=3.0))[0].sentence == SCOPE


def test_a_sum_by_its_predicates_synonym_beats_a_sum_of_the_topic() -> None:
    question = build_question("Сколько вернёт гарантийный фонд по полису?")
    found = _ranked(FREE, PAYOUT, gap=0.5, chunk=FUND)
    assert prefer_asked_predicate(question, found)[0].sentence == PAYOUT
    # a best sentence naming the predicate stays
    assert (
        prefer_asked_predicate(question, _ranked(PAYOUT, FREE, gap=0.5, chunk=FUND))[0].sentence
        == PAYOUT
    )


def test_a_when_question_is_answered_by_a_term_counted_from_an_event() -> None:
    question = build_question("Кассу заблокировали за долг. Когда её разблокируют после оплаты?")
    found = _ranked(EXAMPLE, LIFTED, gap=1.0, chunk=FUND)
    assert prefer_asked_predicate(question, found)[0].sentence == LIFTED


def test_a_document_is_left_alone() -> None:
    question = build_question("Сколько может длиться ревизия склада?")
    doc = Chunk(id="d1", text="", source="user_docs", title="Договор")
    assert (
        prefer_asked_predicate(question, _ranked(SCOPE, LENGTH, gap=0.5, chunk=doc))[0].sentence
        == SCOPE
    )


def test_of_the_sentences_naming_the_predicate_the_one_of_the_asked_subject_leads() -> None:
    question = build_question("Сколько может длиться ревизия склада по сбору?")
    topic = "По сбору составляется акт ревизии склада в двух экземплярах в течение дня."
    special = "Ревизия склада по заявлению продолжается не более десяти дней."
    general = "Ревизия склада по сбору не может продолжаться более трех недель."
    # a special case first in the ranker's order, the asked subject's rule a little lower
    found = _ranked(topic, special, general, gap=0.5)
    assert prefer_asked_predicate(question, found)[0].sentence == general
