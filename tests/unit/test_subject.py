"""A question with the subject words of a held document's title asks about that document;
a document word or a party shared with the law is no subject. Invented documents."""

from __future__ import annotations

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question
from finagent.routing.named_documents import named_documents
from finagent.routing.subject import subject_words

FACTORING = """Договор факторинга № Ф-88/2026

г. Самара, 4 марта 2026 г.

ООО «Озёрный край» (Клиент) и ООО «Финфактор» (Фактор) заключили настоящий договор.
1.1. Фактор финансирует Клиента под уступку денежных требований к покупателям.
3.1. Комиссия за финансирование составляет 0,07 % от суммы финансирования в день.
"""
ACT = """Акт № 17 сдачи-приёмки работ по покраске фасада

ООО «Озёрный край» (Заказчик) и ИП Лаврова Н. Н. (Подрядчик) составили настоящий акт.
Стоимость работ — 84 000 руб.
"""


def _cards() -> list[DocumentCard]:
    return [build_card("f", "Договор факторинга № Ф-88/2026", FACTORING), build_card("a", "", ACT)]


def test_title_subject_is_matched() -> None:
    assert "факторинг" in subject_words("Какая комиссия по факторингу в день?", _cards())


def test_document_word_and_party_are_no_subject() -> None:
    cards = _cards()
    assert subject_words("Сколько дней на возражения на акт налоговой проверки?", cards) == []
    assert subject_words("Какой вычет положен покупателю?", cards) == []


def test_value_question_gets_the_subject_a_rule_question_does_not() -> None:
    cards = _cards()
    asked = named_documents(
        build_question("Сколько берёт фактор за факторинг?", cards=cards), cards
    )
    assert asked.subject == ["факторинг"]
    by_law = build_question("Сколько НДС с факторинга по Налоговому кодексу?", cards=cards)
    assert named_documents(by_law, cards).subject == []
