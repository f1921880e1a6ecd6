"""A question about a year: a value dated to another year yields to the asked year's."""

from __future__ import annotations

from finagent.answering.dated_items import dated_to_asked_year, prefer_asked_year
from finagent.answering.evidence import Candidate
from finagent.question.build import build_question
from tests.unit.ranked import kb_passage, ranked

KB = kb_passage(1, "Образцовый сбор")


def _ranked(*sentences: str) -> list[Candidate]:
    return ranked(KB, *sentences, top=3.0, gap=1.0)


OLD = "Ставка образцового сбора в 2027 году — 9 %."
NEW = "С 1 января 2028 года ставка образцового сбора — 11 %."
RULE = "Ставка образцового сбора составляет 9 %."


def test_a_value_of_another_year_yields_to_the_asked_years() -> None:
    question = build_question("Какая ставка образцового сбора в 2028 году?")
    assert prefer_asked_year(question, _ranked(OLD, RULE, NEW))[0].sentence == NEW
    # no sentence of the asked year: the general rule
    assert prefer_asked_year(question, _ranked(OLD, RULE))[0].sentence == RULE


def test_a_question_without_a_year_or_a_top_of_the_asked_year_is_left_alone() -> None:
    plain = build_question("Какая ставка образцового сбора?")
    assert prefer_asked_year(plain, _ranked(OLD, NEW))[0].sentence == OLD
    asked = build_question("Какая ставка образцового сбора в 2027 году?")
    assert prefer_asked_year(asked, _ranked(OLD, NEW))[0].sentence == OLD


def test_a_value_applies_from_its_year_on() -> None:
    assert dated_to_asked_year("С 2025 года доходы облагаются налогом.", {2028}) is True
    assert dated_to_asked_year("До 31 декабря 2027 года лимит — 5 млн руб.", {2028}) is False
    assert dated_to_asked_year(RULE, {2028}) is None


def test_a_bracketed_former_value_does_not_date_the_rule() -> None:
    # the remark's year dates its own figure; the rule itself names no year
    rule = (
        "Льгота действует, пока выручка не превысит 900 000 руб."
        " (в 2027 году порог был 700 000 руб.)."
    )
    assert dated_to_asked_year(rule, {2028}) is None
    question = build_question("Какой порог выручки для образцовой льготы в 2028 году?")
    amounts = "С 2028 года суммы льготы выросли: 500 руб. в месяц."
    assert prefer_asked_year(question, _ranked(rule, amounts))[0].sentence == rule
    # a bracketed date alone dates the sentence's value
    dated = "Порог выручки — 900 000 руб. (с 1 января 2027 года)."
    assert dated_to_asked_year(dated, {2028}) is True
