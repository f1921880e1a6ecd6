"""The first line of Tax Code and knowledge-base answers: the sentence of the condition a
question asks, the extreme it asks, and every asked part's value.

Probe questions written for these mechanisms, about no evaluation item: other articles,
other wording, made-up figures where the Code's own are not needed.
"""

from __future__ import annotations

import pytest

from finagent.answering.asked_extreme import of_asked_extreme, prefer_asked_condition
from finagent.answering.direct import sentence_lead, stated_values
from finagent.answering.evidence import Candidate
from finagent.answering.further_parts import further_parts
from finagent.answering.part_values import NOT_FOUND, part_values
from finagent.question.build import build_question
from finagent.state import Chunk
from tests.unit.ranked import scored


def _law(citation: str = "п. 2 ст. 140 НК РФ") -> Chunk:
    return Chunk(id=f"law#{citation}", text="", source="law", metadata={"citation": citation})


def _ranked(texts: list[str], scores: list[float], example: int = -1) -> list[Candidate]:
    chunk = _law()
    return [
        Candidate(chunk, 1, t, 0, i, score=s, learned=True, example=i == example)
        for i, (t, s) in enumerate(zip(texts, scores, strict=True))
    ]


RULE = "Решение по жалобе принимается в течение 15 рабочих дней со дня ее получения."
EXTENDED = (
    "Указанный срок может быть продлен не более чем на 15 рабочих дней, "
    "а в исключительных случаях - до 45 рабочих дней."
)


@pytest.mark.parametrize(
    "text",
    [
        "Насколько могут продлить рассмотрение жалобы в вышестоящем налоговом органе?",
        "Если срок рассмотрения жалобы продлевают, сколько он длится?",
        "Срок рассмотрения жалобы с учётом продления?",
        "Какой срок решения по жалобе в исключительных случаях?",
    ],
)
def test_the_sentence_of_the_asked_condition_leads(text: str) -> None:
    ranked = prefer_asked_condition(build_question(text), _ranked([RULE, EXTENDED], [2.2, 0.8]))
    assert ranked[0].sentence == EXTENDED


def test_the_general_rule_keeps_the_lead_when_no_condition_is_asked() -> None:
    question = build_question("Сколько рассматривают жалобу в вышестоящем налоговом органе?")
    ranked = prefer_asked_condition(question, _ranked([RULE, EXTENDED], [2.2, 0.8]))
    assert ranked[0].sentence == RULE


def test_a_condition_sentence_far_below_or_an_example_does_not_lead() -> None:
    question = build_question("Насколько могут продлить рассмотрение жалобы?")
    far = prefer_asked_condition(question, _ranked([RULE, EXTENDED], [4.0, 0.8]))
    assert far[0].sentence == RULE
    example = prefer_asked_condition(question, _ranked([RULE, EXTENDED], [2.2, 2.0], example=1))
    assert example[0].sentence == RULE


def test_a_repeat_offence_question_is_led_by_the_repeat_sentence() -> None:
    base = "Непредставление сведений влечет взыскание штрафа в размере 5 000 рублей."
    again = (
        "Те же деяния, совершенные повторно в течение календарного года, "
        "влекут взыскание штрафа в размере 20 000 рублей."
    )
    question = build_question("Какой штраф за непредставление сведений, если нарушили повторно?")
    ranked = prefer_asked_condition(question, _ranked([base, again], [1.5, 0.4]))
    assert ranked[0].sentence == again


@pytest.mark.parametrize(
    ("text", "values", "expected"),
    [
        # the maximum with every extension: the greatest of one kind of value
        (
            "Какой максимальный срок рассмотрения жалобы с учётом продления?",
            ("15 рабочих дней", "45 рабочих дней"),
            ("45 рабочих дней",),
        ),
        (
            "Какой максимальный срок приостановления проверки в исключительных случаях?",
            ("трех месяцев", "шести месяцев", "девяти месяцев"),
            ("девяти месяцев",),
        ),
        (
            "Какой минимальный штраф при повторном нарушении?",
            ("40 000 рублей", "20 000 рублей"),
            ("20 000 рублей",),
        ),
        # shares are read as percentages, a grouped figure whole («1 000 %»)
        (
            "Какой максимальный процент в исключительных случаях?",
            ("13 процентов", "1 000 процентов"),
            ("1 000 процентов",),
        ),
        (
            "Какая минимальная ставка в исключительных случаях?",
            ("0,5 %", "13,5 процентах"),
            ("0,5 %",),
        ),
        # no condition asked: «минимальный срок», «максимальный процент» name a term
        ("Какой минимальный срок владения дачей?", ("3 года", "90 дней", "5 лет"), None),
        ("Какой максимальный процент по займу в день?", ("0,8 %", "292 %"), None),
        # values of several kinds are not compared
        (
            "Какой максимальный штраф с учётом продления?",
            ("30 дней", "20 000 рублей"),
            None,
        ),
        # a question of two parts asks each part's value
        (
            "Какой максимальный срок с продлением и какой штраф при повторном нарушении?",
            ("45 рабочих дней", "20 000 рублей"),
            None,
        ),
    ],
)
def test_the_asked_extreme_of_one_kind_of_value(
    text: str, values: tuple[str, ...], expected: tuple[str, ...] | None
) -> None:
    assert of_asked_extreme(build_question(text), values) == (expected or values)


def test_the_lead_names_the_greatest_term_with_extensions() -> None:
    question = build_question("Какой максимальный срок рассмотрения жалобы с учётом продления?")
    top = _ranked([EXTENDED], [1.0])[0]
    lead = sentence_lead(question, top)
    assert lead[0].startswith("Срок — 45 рабочих дней (п. 2 ст. 140 НК РФ) [1]")


LIMIT = "Доходы плательщика за календарный год не должны превышать 3,6 млн рублей."
BONUS = "При регистрации плательщику предоставляется разовый вычет в размере 12 000 рублей."
RATE = "Сбор уплачивается по ставке 3 процента от стоимости услуг."


def test_the_first_part_is_looked_for_when_the_best_answers_a_later_one() -> None:
    question = build_question(
        "Какой годовой лимит доходов у плательщика и какой вычет дают при регистрации?"
    )
    ranked = _ranked([BONUS, RATE, LIMIT], [2.0, 1.0, 0.5])
    assert [c.sentence for c in further_parts(question, ranked)] == [LIMIT]
    # the best answering the first part: the second is looked for, as before
    ranked = _ranked([LIMIT, RATE, BONUS], [2.0, 1.0, 0.5])
    assert [c.sentence for c in further_parts(question, ranked)] == [BONUS]


def test_the_lead_of_a_code_answer_names_each_part_with_its_source() -> None:
    question = build_question("Какая ставка туристического сбора и когда его платить?")
    rate = scored(_law("п. 1 ст. 418.7 НК РФ"), RATE, 2.0)
    due = Candidate(
        _law("п. 2 ст. 418.8 НК РФ"),
        2,
        "Сбор уплачивается не позднее 28-го числа месяца, следующего за кварталом.",
        0,
        0,
        score=1.0,
        learned=True,
    )
    lead = sentence_lead(question, rate)
    assert lead[0].startswith("Ставка — 3 %")
    parts = part_values(question, rate, [due], ["3 процента"], stated_values)
    assert parts == ["дата — 28-го числа месяца, следующего за кварталом [2]"]


def test_an_example_figure_never_answers_a_part_and_a_missing_part_is_named() -> None:
    question = build_question("Какая ставка туристического сбора и когда его платить?")
    rate = scored(_law(), RATE, 2.0)
    example = Candidate(
        _law(), 1, "Пример: сбор за март уплачен 28 апреля.", 0, 1, score=1.0, example=True
    )
    assert part_values(question, rate, [example], ["3 процента"], stated_values) == []
    assert part_values(question, rate, [], ["3 процента"], stated_values) == [f"дата — {NOT_FOUND}"]
