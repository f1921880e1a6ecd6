"""A form's signed figure is an amount of its own label; a party role of several words
(«Новый должник») is held and asked as one role."""

from __future__ import annotations

from finagent.cards.build import build_card
from tests.unit.card_reading import card_values

# a tax office's statement: the balance is negative
STATEMENT = (
    "СПРАВКА № 77-1\n"
    "о состоянии расчётов по единому налоговому счёту\n\n"
    "1. ИТОГ\n"
    "   Сумма остатка по счёту, руб.:   -12 345,60\n\n"
    "2. ОБЯЗАННОСТИ\n"
    "+---+--------------------------------------+-------------+\n"
    "| № | Наименование                         | Сумма, руб. |\n"
    "+---+--------------------------------------+-------------+\n"
    "| 1 | Пени по налогу на имущество          |    1 200,00 |\n"
    "| 2 | Налог на имущество организаций       |   11 145,60 |\n"
    "+---+--------------------------------------+-------------+\n"
)
# three parties, two of them named by an adjective and a noun
TRANSFER = (
    "# Соглашение № ЗД-3/2027 о замене должника\n\n"
    "Общество с ограниченной ответственностью «Альфа-Трейд» (ООО «Альфа-Трейд»), ИНН "
    "7701000011, именуемое в дальнейшем «Кредитор», Общество с ограниченной "
    "ответственностью «Бета» (ООО «Бета»), ИНН 7702000022, именуемое в дальнейшем «Прежний "
    "должник», и Общество с ограниченной ответственностью «Гамма-Сервис» (ООО "
    "«Гамма-Сервис»), ИНН 7703000033, именуемое в дальнейшем «Новый должник», заключили "
    "соглашение.\n\n"
    "1. Новый должник принимает долг в сумме 500 000 рублей.\n"
)


def test_a_figure_with_a_minus_is_an_amount_of_its_label() -> None:
    card = build_card("d1", "statement.txt", STATEMENT)
    balances = [f for f in card.facts if f.field == "balance"]
    assert [(f.text.strip(), f.label) for f in balances] == [
        ("-12 345,60", "Сумма остатка по счёту, руб.")
    ]
    answer = card_values([STATEMENT], "Какой остаток по счёту в справке 77-1?")
    assert answer == [("остаток", ["-12 345,60 руб."])]


def test_a_role_of_an_adjective_and_a_noun_is_a_party() -> None:
    card = build_card("d1", "transfer.md", TRANSFER)
    roles = {p.role: p.name for p in card.parties}
    assert roles["новый должник"] == "ООО «Гамма-Сервис»"
    assert roles["прежний должник"] == "ООО «Бета»"
    assert roles["кредитор"] == "ООО «Альфа-Трейд»"
    asked = card_values([TRANSFER], "Кто является новым должником по соглашению ЗД-3/2027?")
    assert asked == [("новый должник", ["ООО «Гамма-Сервис» (ИНН 7703000033)"])]
    asked = card_values([TRANSFER], "Кто прежний должник по соглашению ЗД-3/2027?")
    assert asked == [("прежний должник", ["ООО «Бета» (ИНН 7702000022)"])]
