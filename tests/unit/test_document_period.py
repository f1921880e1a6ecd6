"""Documents of one person told apart by the period their heading names."""

from __future__ import annotations

from finagent.answering.document_choice import chosen_documents
from finagent.cards.build import build_card
from finagent.question.build import build_question

TIMESHEET = """\
# Табель учёта рабочего времени за март 2024 г.

Сотрудник: Корнилов Пётр Ильич, инженер-сметчик.
Отработано: 21 рабочий день, 168 часов.
"""

STATEMENT = """\
# Расчётная ведомость № 14 за 2023 год

Сотрудник: Корнилов Пётр Ильич, инженер-сметчик.
Начислено за 2023 год: 1 240 000 руб.
"""


def _cards() -> list:
    return [build_card("t", "tabel.txt", TIMESHEET), build_card("s", "spravka.txt", STATEMENT)]


def test_a_named_year_prefers_the_document_of_that_period() -> None:
    cards = _cards()
    question = build_question("Сколько начислено Корнилову за 2023 год?", cards=cards)
    assert question.documents[0].document_id == "s"
    assert "период" in question.documents[0].reasons
    assert chosen_documents(question, cards) == ["s"]
    march = build_question("Сколько часов отработал Корнилов в марте 2024 года?", cards=cards)
    assert chosen_documents(march, cards) == ["t"]


def test_a_period_alone_names_no_document() -> None:
    question = build_question("Какие ставки НДФЛ действовали за 2023 год?", cards=_cards())
    assert question.documents == []
