"""Vocabulary routing (``distinctive.vocabulary_hits``) never takes another code's sanction:
it is the law's, whatever a document says of its subject. Documents and questions
invented here."""

from __future__ import annotations

import pytest

from finagent.answering.abstention import other_code_asked
from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question
from finagent.routing.named_documents import NamedDocuments, named_documents
from finagent.routing.router import cards_decision
from finagent.routing.rules import rule_decision
from finagent.state import Decision

WRIT = """Постановление об обращении взыскания на заработную плату и иные доходы должника

г. Тверь, 14 сентября 2026 г.

Судебный пристав-исполнитель Орлова Е. В., рассмотрев материалы исполнительного производства,
установила: должник Петров С. А. работает грузчиком в ООО «Волжский Двор»;
о каждом удержании бухгалтерия сообщает приставу.
Постановила:
1. Удерживать ежемесячно 25 % дохода должника до погашения долга 180 000 рублей.
2. Удержанные суммы перечислять на депозитный счёт в течение 3 дней со дня выплаты.
"""
CREW_LEASE = """Договор аренды транспортного средства с экипажем № 12-Т

г. Самара, 3 марта 2026 г.

ООО «Камень» (Арендодатель) предоставляет ООО «Волжский Двор» (Арендатор) грузовик с водителем.
3.1. Арендная плата — 9 000 рублей за смену, включая услуги водителя грузовика.
"""
MANDATE = """Договор поручения № ПР-11/2026

г. Самара, 2 марта 2026 г.

ООО «Волжский Двор» (Доверитель) и Сидоров П. А. (Поверенный) заключили договор.
1.1. Поверенный участвует от имени Доверителя в торгах по продаже экскаватора (лот № 4).
3.1. Вознаграждение Поверенного — 1,5 % цены, по которой лот будет выигран.
"""
SUPPLY = """Договор поставки № 77/П

г. Самара, 10 февраля 2026 г.

ООО «Камень» (Поставщик) поставляет ООО «Волжский Двор» (Покупатель) щебень.
Оплата в течение 10 банковских дней с даты поставки.
"""


@pytest.fixture(scope="module")
def cards() -> list[DocumentCard]:
    texts = {"writ": WRIT, "lease": CREW_LEASE, "mandate": MANDATE, "supply": SUPPLY}
    return [build_card(name, name, text) for name, text in texts.items()]


def _decided(question: str, cards: list[DocumentCard]) -> tuple[NamedDocuments, Decision | None]:
    named = named_documents(build_question(question, cards=cards), cards)
    return named, cards_decision(question, named, rule_decision(question, None), None)


@pytest.mark.parametrize(
    "question",
    [
        "какая административная ответственность у водителя грузовика за перегруз?",
        "какая уголовная ответственность грозит водителю грузовика за аварию?",
    ],
)
def test_another_codes_sanction_is_the_laws(cards: list[DocumentCard], question: str) -> None:
    named, decision = _decided(question, cards)
    assert named.vocabulary_ids == []
    assert decision is None or decision.rule != "cards_distinctive", decision


def test_the_document_s_own_words_still_route(cards: list[DocumentCard]) -> None:
    named, _ = _decided("сколько платим водителю грузовика за смену?", cards)
    assert named.vocabulary_ids == ["lease"]


def test_another_codes_term_the_user_holds_is_theirs() -> None:
    question = "какой административный штраф назначен?"
    assert other_code_asked(question) == "koap"
    held = frozenset({"административный", "штраф", "назначить"})
    assert other_code_asked(question, held) is None
