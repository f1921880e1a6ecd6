"""A document the user holds is not declined as missing when the question names its kind
or its party in another case than the card holds it: «по договору мены» of a heading
«ДОГОВОР МЕНЫ» (pymorphy3 reads «мены» as «мена» in one place and «мены» in the other),
«ИП Соколовой» of «Соколова Ирина Павловна», «с ООО «Северным Ветром»». Documents of kinds
no card type lists, written here."""

from __future__ import annotations

import pytest

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question
from finagent.routing.named_documents import named_documents

RENT = """# ДОГОВОР РЕНТЫ № Р-5/2026

г. Самара, 12 марта 2026 г.

Индивидуальный предприниматель Соколова Ирина Павловна, именуемая «Получатель ренты», и
ООО «Белый Парус», именуемое «Плательщик ренты», заключили настоящий договор.

1.1. Получатель ренты передаёт в собственность Плательщика ренты нежилое помещение.
2.1. Рента выплачивается ежемесячно в размере 45 000 рублей не позднее 5-го числа месяца.
"""
BARTER = """ДОГОВОР МЕНЫ № 14

г. Тула, 2 апреля 2026 г.

ООО «Северный Ветер» и ООО «Тихая Гавань» заключили настоящий договор.

1.1. Каждая из Сторон передаёт в собственность другой Стороны оборудование.
2.1. Стоимость обмениваемого оборудования признаётся равной 300 000 рублей.
"""


@pytest.fixture(scope="module")
def cards() -> list[DocumentCard]:
    return [build_card(name, name, text) for name, text in (("rent", RENT), ("barter", BARTER))]


def _missing(question: str, cards: list[DocumentCard]) -> str | None:
    return named_documents(build_question(question, cards=cards), cards).missing


@pytest.mark.parametrize(
    "question",
    [
        "С какого момента оборудование по договору мены переходит в нашу собственность?",
        "Какой срок по договору мены с ООО «Тихой Гаванью»?",
        "Сколько платим по договору с ООО «Северным Ветром»?",
        "Какой размер ренты причитается ИП Соколовой по договору?",
        "Сколько ежемесячно платит плательщик по договору ренты?",
    ],
)
def test_held_document_named_in_another_case(question: str, cards: list[DocumentCard]) -> None:
    assert _missing(question, cards) is None


@pytest.mark.parametrize(
    ("question", "missing"),
    [
        ("Какой срок по договору лизинга?", "договор лизинга"),
        ("Сколько платим ИП Петровой по договору?", "договор с ИП «Петровой»"),
        ("Какой срок по договору с ООО «Южным Ветром»?", "договор с ООО «Южным Ветром»"),
    ],
)
def test_unheld_document_still_missing(
    question: str, missing: str, cards: list[DocumentCard]
) -> None:
    assert _missing(question, cards) == missing
