"""The first line of a sanction question: the asked value read from the asking clause, not
from its condition, and «что грозит …» answered with the fine the law's sentence names.

Probe questions written for these mechanisms, about no evaluation item: other articles,
own wording, made-up figures where the Code's own are not needed.
"""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.direct import sentence_lead
from finagent.answering.evidence import Candidate
from finagent.question.build import build_question
from finagent.state import Chunk
from tests.unit.ranked import scored

TODAY = date(2026, 11, 27)


def _top(sentence: str, source: str = "law") -> Candidate:
    chunk = Chunk(
        id=f"{source}#1", text="", source=source, metadata={"citation": "п. 1 ст. 126 НК РФ"}
    )
    return scored(chunk, sentence, 2.0)


@pytest.mark.parametrize(
    ("question", "asked"),
    [
        ("Какой штраф, если опоздали со сроком подачи сведений о счёте?", "amount"),
        ("Сколько процентов пени, если срок уплаты пропущен на 40 дней?", "rate"),
        ("Какая сумма вычета, если срок владения квартирой меньше трёх лет?", "amount"),
        ("Какую неустойку платим, если нарушили срок поставки?", "rate"),
        # a question whose only cue lies in its condition keeps it
        ("А если срок пропущен?", "period"),
        # the asking clause's own period stays a period
        ("В какой срок вернут налог, если подать заявление сейчас?", "period"),
    ],
)
def test_the_condition_names_the_case_not_the_value(question: str, asked: str) -> None:
    assert build_question(question, today=TODAY).answer_type == asked


FINE = (
    "Непредставление в установленный срок сведений влечет взыскание штрафа в размере "
    "5 тысяч рублей за каждый непредставленный документ."
)
SHARE = (
    "Неуплата сбора в результате занижения базы влечет взыскание штрафа в размере "
    "25 процентов от неуплаченной суммы, но не менее 3 тысяч рублей."
)


@pytest.mark.parametrize(
    ("question", "sentence", "values"),
    [
        ("Что грозит за непредставление сведений по требованию?", FINE, ["5 тысяч рублей"]),
        ("Чем грозит занижение базы по сбору?", SHARE, ["25 %", "3 тысяч рублей"]),
        ("Какая ответственность за неуплату сбора?", SHARE, ["25 %", "3 тысяч рублей"]),
        (
            "Какой штраф, если не сдали сведения в срок?",
            FINE,
            ["5 тысяч рублей"],
        ),
    ],
)
def test_a_sanction_question_states_the_fine(
    question: str, sentence: str, values: list[str]
) -> None:
    lead = sentence_lead(build_question(question, today=TODAY), _top(sentence))
    assert lead[0].startswith("Штраф — ")
    for value in values:
        assert value.replace(" %", "") in lead[0]


def test_a_sanction_without_a_fine_is_quoted() -> None:
    sentence = "При неисполнении требования налоговый орган вправе приостановить операции по счету."
    lead = sentence_lead(build_question("Что грозит за неисполнение требования?"), _top(sentence))
    assert lead == [f"Согласно п. 1 ст. 126 НК РФ: «{sentence}» [1]"] or "Штраф" not in lead[0]


def test_a_document_sentence_is_not_read_as_the_law() -> None:
    sentence = "За просрочку оплаты начисляется штраф 2 000 рублей за каждый день."
    lead = sentence_lead(
        build_question("Что грозит за просрочку по договору?"), _top(sentence, "user_docs")
    )
    assert not lead[0].startswith("Штраф — ")
