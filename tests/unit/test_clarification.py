"""Clarifying questions say what is missing, in Russian, at most three."""

from __future__ import annotations

from finagent.prompts import routing_messages as texts
from finagent.routing.clarification import clarifying_questions


def test_a_find_request_without_a_document_asks_which_one() -> None:
    questions = clarifying_questions("найди")
    assert questions[0] == texts.ASK_SUBJECT
    assert texts.ASK_WHICH_DOCUMENT in questions


def test_an_amount_without_a_period_asks_for_it() -> None:
    assert texts.ASK_PERIOD in clarifying_questions("сколько платить?")


def test_the_classifiers_hesitation_becomes_the_question() -> None:
    questions = clarifying_questions("курс и ставка что там сегодня", ("rates", "news"), 5)
    assert texts.ASK_VALUE_OR_NEWS in questions
    assert texts.ASK_SUBJECT not in questions  # the subject is named
    assert texts.ASK_DOCUMENTS_OR_RULES in clarifying_questions("договор поставки", ("S1", "kb"))


def test_always_one_to_three_questions() -> None:
    for text in ["", "сделай", "проверь всё срочно сколько когда", "а?"]:
        questions = clarifying_questions(text)
        assert 1 <= len(questions) <= 3 and len(set(questions)) == len(questions)
