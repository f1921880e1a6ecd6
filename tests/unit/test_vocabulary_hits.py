"""A question that names a user's document only by what the document speaks of (the
thing it is about, an institution of its kind, an abbreviation of its kind) reaches it;
a question of the law, or one whose words no held document uses, does not. Documents and
questions invented here."""

from __future__ import annotations

import pytest

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question
from finagent.routing.distinctive import vocabulary_hits
from finagent.routing.named_documents import named_documents
from finagent.routing.router import cards_decision
from finagent.routing.rules import rule_decision

MANDATE = """Договор поручения № ПР-11/2026

г. Самара, 2 марта 2026 г.

ООО «Волжский Двор» (Доверитель) и Сидоров П. А. (Поверенный) заключили договор.
1.1. Поверенный участвует от имени Доверителя в торгах по продаже экскаватора (лот № 4).
2.1. Доверитель вносит задаток 5 % начальной цены лота до 20 марта 2026 г.
3.1. Вознаграждение Поверенного — 1,5 % цены, по которой лот будет выигран.
"""
COLLECTIVE = """Коллективный договор ООО «Волжский Двор» на 2026-2028 годы

г. Самара, 15 января 2026 г.

5.2. Работникам, занятым на работах с вредными условиями труда, предоставляется
ежегодный дополнительный оплачиваемый отпуск 10 календарных дней.
"""
SUPPLY = """Договор поставки № 77/П

г. Самара, 10 февраля 2026 г.

ООО «Камень» (Поставщик) поставляет ООО «Волжский Двор» (Покупатель) щебень.
Оплата в течение 10 банковских дней с даты поставки.
"""
CREDIT = """Кредитный договор № 5-КЛ/2026

г. Самара, 1 апреля 2026 г.

ПАО «Банк Рассвет» (Кредитор) предоставляет ООО «Волжский Двор» (Заемщик) кредит
10 000 000 рублей под 17 % годовых.
"""


@pytest.fixture(scope="module")
def cards() -> list[DocumentCard]:
    texts = {"mandate": MANDATE, "collective": COLLECTIVE, "supply": SUPPLY}
    return [build_card(name, name, text) for name, text in texts.items()]


@pytest.mark.parametrize(
    ("question", "ids"),
    [
        # the thing a contract is about and an institution of its kind
        ("до какого числа вносить задаток за экскаватор?", ["mandate"]),
        ("сколько получит поверенный, если выиграем торги?", ["mandate"]),
        # an abbreviation of a kind the user holds
        ("сколько дней отпуска за вредные условия по КД?", ["collective"]),
    ],
)
def test_what_a_document_speaks_of_names_it(
    cards: list[DocumentCard], question: str, ids: list[str]
) -> None:
    named = named_documents(build_question(question, cards=cards), cards)
    assert named.vocabulary_ids == ids, named


@pytest.mark.parametrize(
    "question",
    [
        "какой срок уплаты НДС за квартал?",  # no word of the documents
        "что такое задаток по ГК?",  # the law asked in its own words
        "облагается ли НДФЛ вознаграждение по договору?",  # words the law uses everywhere
    ],
)
def test_law_questions_name_no_document(cards: list[DocumentCard], question: str) -> None:
    named = named_documents(build_question(question, cards=cards), cards)
    decision = cards_decision(question, named, None, None)
    assert decision is None or decision.rule != "cards_distinctive", decision


def test_an_abbreviation_resolves_against_the_kinds_held() -> None:
    credit = [build_card("credit", "credit", CREDIT), build_card("supply", "supply", SUPPLY)]
    hits = vocabulary_hits("какая ставка по КД?", credit)
    assert hits.best() == ["credit"]  # no collective agreement held: the credit one


def test_one_users_vocabulary_never_reaches_another(cards: list[DocumentCard]) -> None:
    other = [build_card("credit", "credit", CREDIT)]
    assert not vocabulary_hits("до какого числа вносить задаток за экскаватор?", other).best()
    assert vocabulary_hits("до какого числа вносить задаток за экскаватор?", cards).best()


def test_a_live_source_chosen_by_a_rule_stands() -> None:
    """Words of a held document do not take a question a rule sends to a live source."""
    weekly = "\n3.2. Цена действует две недели с даты заявки и составляет 1 450 рублей за тонну.\n"
    cards = [
        build_card("supply", "supply", SUPPLY + weekly),
        build_card("credit", "credit", CREDIT),
    ]
    question = "какая ключевая ставка будет действовать на следующей неделе?"
    named = named_documents(build_question(question, cards=cards), cards)
    assert named.vocabulary  # «неделя»: a word of the supply contract's value sentence
    ruled = rule_decision(question, None)
    decision = cards_decision(question, named, ruled, None)
    assert decision is None or decision.rule != "cards_distinctive"
