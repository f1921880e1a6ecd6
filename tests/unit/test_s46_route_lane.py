"""Stop 46, routing lane: a held document's heading stands under the order that approved it
and under its issuing body's name; a code its text writes names it; a user's initials of
its heading name it; a held document the question names beats the calculators asking
for their inputs. Documents and questions invented here."""

from __future__ import annotations

import asyncio
from typing import Any

from finagent.cards.build import build_card
from finagent.cards.model import DocumentCard
from finagent.cards.vocabulary import code_like, written_codes
from finagent.language.short_forms import initials_of
from finagent.question.build import build_question
from finagent.routing.decide import calc_lacks, held_term_decision
from finagent.routing.named_documents import named_documents
from finagent.state import Scenario

PLAN = """\
ООО «Северный Ветер»
ИНН 7701000011, КПП 770101001, г. Москва
УТВЕРЖДЁН приказом генерального директора № 12-П от 20.12.2026
БЮДЖЕТ ДОХОДОВ И РАСХОДОВ
на 2027 год, руб.
Статья Сумма
1. Выручка 48 000 000
2. Аренда офиса 3 600 000
"""
AUDIT = """\
УПРАВЛЕНИЕ ФЕДЕРАЛЬНОЙ НАЛОГОВОЙ СЛУЖБЫ № 4 ПО ТВЕРСКОЙ ОБЛАСТИ
170100, г. Тверь, ул. Советская, д. 1

            АКТ НАЛОГОВОЙ ПРОВЕРКИ № 8-31/205
          (камеральная налоговая проверка, ст. 88 НК РФ)

1. Проверяемое лицо: ООО «Северный Ветер».
2. Предлагается взыскать штраф 14 000 руб.
3. Возражения представляются в течение одного месяца со дня получения акта, то есть не
позднее 15.04.2027.
"""
PURCHASE = """\
# Договор поставки № СВ-3/2027

ООО «Станкомаш» (Поставщик) и ООО «Северный Ветер» (Покупатель) заключили договор.
1.1. Поставщик передаёт фрезерный станок модели FX-310 в количестве 2 штук.
2.1. Цена станка — 2 400 000 руб., предоплата 40 %.
3.1. Гарантия — 18 месяцев. Отчёт формы 6-НДФЛ сдаётся 23-го числа.
"""
BALANCE = """\
# Справка № 77-1 о сальдо единого налогового счёта

Налоговый орган: Межрайонная инспекция ФНС России № 9 по Тверской области.
1. Сальдо ЕНС: отрицательное, -120 000,00 руб.
2. Пени, начисленные на отрицательное сальдо: 4 310,55 руб.
"""


def _cards(**texts: str) -> list[DocumentCard]:
    return [build_card(name, f"{name}.txt", text) for name, text in texts.items()]


def test_a_heading_under_the_order_that_approved_it_is_the_documents() -> None:
    card = build_card("plan", "plan.pdf", PLAN)
    assert card.title.startswith("Бюджет доходов и расходов на 2027 год")


def test_a_heading_under_its_issuing_bodys_name_is_the_documents() -> None:
    card = build_card("audit", "audit.txt", AUDIT)
    # its name, without the note of the articles it is drawn up under
    assert card.title == "Акт налоговой проверки № 8-31/205"
    assert card.number == "8-31/205"
    assert card.doc_type == "act"


def test_the_codes_a_text_writes() -> None:
    assert written_codes(PURCHASE) == ["FX-310"]  # not the number after «№», a form's code
    assert code_like("12-40/7") and code_like("R640")
    for word in ("23-го", "1-3", "2026-2027", "1/3", "15.04.2027", "6-НДФЛ", "ОС-1"):
        assert not code_like(word), word


def test_a_code_the_text_writes_names_its_document_precisely() -> None:
    cards = _cards(purchase=PURCHASE, audit=AUDIT)
    question = build_question("Сколько стоит станок FX-310?", cards=cards)
    assert named_documents(question, cards).precise_ids == ["purchase"]
    other = build_question("Сколько стоит станок FX-320?", cards=cards)
    assert named_documents(other, cards).precise_ids == []
    # weaker than a party the question names: read only when nothing else names one
    party = build_question("Сколько стоит станок FX-310 от Станкомаша?", cards=cards)
    assert [m.reasons for m in party.documents] == [["контрагент"]]


def test_initials_of_a_heading() -> None:
    assert initials_of("БДР", "Бюджет доходов и расходов на 2027 год")
    assert initials_of("ОСВ", "Оборотно-сальдовая ведомость по счёту 60")
    assert not initials_of("БДР", "Бюджет движения денежных средств")
    assert not initials_of("бдр", "Бюджет доходов и расходов")  # written in capitals only


def test_a_users_initials_of_a_heading_name_the_document() -> None:
    cards = _cards(plan=PLAN, purchase=PURCHASE)
    question = build_question("Сколько по БДР заложено на аренду офиса?", cards=cards)
    assert [(m.document_id, "заголовок" in m.reasons) for m in question.documents] == [
        ("plan", True)
    ]
    # an abbreviation the law writes is its term, not a heading's initials
    taxed = _cards(balance=BALANCE)
    assert not build_question("Как пополнить ЕНС?", cards=taxed).documents


def test_a_held_document_beats_the_calculators_asking_for_their_inputs() -> None:
    cards = _cards(balance=BALANCE, purchase=PURCHASE)
    text = "Сколько пеней начислили на отрицательное сальдо?"
    lacks = calc_lacks(text)
    assert lacks and "event_date" not in lacks
    question = build_question(text, cards=cards)
    deps: Any = None  # not read: the question names the held document
    decision = asyncio.run(held_term_decision(deps, text, question, None, (), {}, lacks))
    assert decision is not None and decision.scenario == Scenario.ALL_DOCUMENTS
    assert decision.document_ids == ["balance"]
    # nothing the calculators lack: they answer
    assert asyncio.run(held_term_decision(deps, text, question, None, (), {}, frozenset())) is None
