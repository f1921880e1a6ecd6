"""A measured condition the quoted sentence must speak of (questions written for this
test, about no eval item)."""

from __future__ import annotations

from finagent.answering.condition_terms import (
    condition_abstention,
    lacks_condition,
    measured_terms,
)
from finagent.state import Chunk


def test_the_noun_a_number_and_its_unit_measure_in_a_condition() -> None:
    assert measured_terms("какая неустойка, если подрядчик не уложится в 6 часов ремонта?") == [
        "ремонт"
    ]
    assert measured_terms("если превысим 20 тонн груза, какая доплата?") == ["груз"]


def test_no_measured_noun_no_term() -> None:
    assert measured_terms("если просрочим оплату на 10 дней, какие пени?") == []
    assert measured_terms("какая неустойка за 6 часов ремонта?") == []  # no condition
    assert measured_terms("если уволится через 12 мес после обучения, сколько вернуть?") == []


def test_a_quote_of_another_row_lacks_the_condition() -> None:
    question = "какая неустойка, если подрядчик не уложится в 6 часов ремонта?"
    other = "Работа электрика: 8 час; цена 1 500,00 руб."
    assert lacks_condition(question, [other]) == ["ремонт"]
    assert lacks_condition(question, ["За нарушение срока ремонтных работ — 0,1 % в день."]) == []


def test_the_abstention_names_the_documents_searched() -> None:
    question = "какая неустойка, если подрядчик не уложится в 6 часов ремонта?"
    chunk = Chunk(id="a", text="…", source="user_docs", title="Акт № 7 от 1 марта 2026 г.")
    found = condition_abstention(question, ["Работа электрика: 8 час"], [chunk])
    assert found is not None
    assert found.kind == "condition"
    assert "Акт № 7" in found.missing
    assert condition_abstention(question, ["Срок ремонта — 6 часов."], [chunk]) is None
