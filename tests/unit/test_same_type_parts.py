"""A further part asking a value of the lead's own type is named in the lead line.

Probe questions and sentences written for this mechanism (a made-up register, made-up
figures), about no evaluation item.
"""

from __future__ import annotations

from finagent.answering.direct import ValueLine, lead_of, stated_values
from finagent.answering.evidence import Candidate
from finagent.answering.further_parts import further_parts
from finagent.answering.part_values import part_values
from finagent.question.build import build_question
from finagent.state import Chunk

FIRST = (
    "Непредставление реестра в установленный срок влечет взыскание штрафа в размере 2 000 рублей."
)
AGAIN = (
    "Те же деяния, совершенные повторно в течение календарного года, влекут взыскание "
    "штрафа в размере 7 000 рублей."
)
RULE = "Жалоба рассматривается в течение 15 рабочих дней со дня ее получения."
LONGER = "Указанный срок может быть продлен, но не более чем до 45 рабочих дней."


def _ranked(texts: list[str], scores: list[float]) -> list[Candidate]:
    return [
        Candidate(
            Chunk(
                id=f"law#{i}", text="", source="law", metadata={"citation": f"ст. {90 + i} НК РФ"}
            ),
            i + 1,
            text,
            0,
            i,
            score=score,
            learned=True,
        )
        for i, (text, score) in enumerate(zip(texts, scores, strict=True))
    ]


def _line(text: str, texts: list[str]) -> str:
    question = build_question(text)
    ranked = _ranked(texts, [2.0, 1.5])
    first = lead_of(question, ranked[0])
    assert isinstance(first, ValueLine)
    more = further_parts(question, ranked)
    parts = part_values(question, ranked[0], more, first.values, stated_values, first.subject)
    return first.lines(parts)[0]


def test_the_repeated_case_of_a_fine_is_named_after_the_first() -> None:
    line = _line(
        "Какой штраф за непредставление реестра, а если повторно в течение года?", [FIRST, AGAIN]
    )
    assert line.startswith("Штраф — 2 000 рублей")
    assert "штраф — 7 000 рублей [2]" in line


def test_an_elliptical_second_part_is_answered_with_the_lead_type() -> None:
    line = _line(
        "Какой штраф за непредставление реестра, и какой — при повторном нарушении?", [FIRST, AGAIN]
    )
    assert "7 000 рублей [2]" in line


def test_the_extended_term_is_named_beside_the_term() -> None:
    line = _line(
        "Какой срок рассмотрения жалобы и до скольких дней его продлевают?", [RULE, LONGER]
    )
    assert line.startswith("Срок — 15 рабочих дней")
    assert "срок — 45 рабочих дней [2]" in line


def test_a_question_of_one_part_gets_no_further_value() -> None:
    line = _line("Какой штраф за непредставление реестра?", [FIRST, AGAIN])
    assert "7 000" not in line


def test_a_sum_the_lead_names_in_words_is_not_named_again() -> None:
    first = (
        "Нарушение порядка ведения реестра влечет взыскание штрафа в размере десяти тысяч рублей."
    )
    summary = (
        "За нарушение порядка ведения реестра: 10 000 руб. за один год, "
        "25 000 руб. за несколько лет."
    )
    line = _line(
        "Какой штраф за нарушение порядка ведения реестра, а если за несколько лет?",
        [first, summary],
    )
    assert line.count("10 000") == 1
    assert "25 000 руб" in line
