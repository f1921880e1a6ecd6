"""The document inventory: types, counterparties, dates from titles; what a question names."""

from __future__ import annotations

from finagent.routing.inventory import Inventory, InventoryItem, describe, inventory_from


def test_describe_reads_type_counterparty_and_date_from_a_title() -> None:
    item = describe("Договор поставки № 14 с ООО «Ромашка» от 12.03.2025")
    assert (item.doc_type, item.counterparty, item.date) == ("договор", "ромашка", "12.03.2025")
    assert describe("Счёт-фактура 154, ИП Соколов").doc_type == "счёт-фактура"
    assert describe("Выписка по счёту Т-Банк за март 2025").doc_type == "выписка"
    assert describe("Выписка по счёту Т-Банк за март 2025").date == "март 2025"
    assert describe("Акт сверки с Альфа-Логистикой").counterparty == "альфа-логистикой"
    assert describe("notes.txt") == InventoryItem(title="notes.txt")


def test_describe_falls_back_to_the_opening_of_the_text() -> None:
    item = describe("scan_0042.pdf", "Счёт на оплату № 7\nПоставщик: ООО «Вектор»")
    assert (item.doc_type, item.counterparty) == ("счёт", "вектор")


def test_a_question_naming_a_counterparty_type_or_title_matches() -> None:
    inventory = inventory_from(
        [
            {"title": "Договор аренды офиса с ООО «Меркурий»"},
            {"title": "Акт сверки за 2024 год", "counterparty": "Альфа"},
        ]
    )
    assert inventory.match("какая арендная плата у Меркурия").counterparties == ["меркурий"]
    assert inventory.match("что в акте за декабрь").doc_types == ["акт"]
    assert inventory.match("сколько должна Альфа").counterparties == ["Альфа"]
    assert inventory.match("что в договоре аренды офиса про ремонт").titles
    assert not inventory.match("какая ставка НДС на хлеб")
    assert not inventory.match("что написано в выписке")  # the user has no statement


def test_summary_is_bounded() -> None:
    items = [InventoryItem(title=f"Счёт № {n} от ООО «Поставщик {n}»") for n in range(200)]
    summary = Inventory(items).summary(max_items=20, max_chars=600)
    assert len(summary) <= 700
    assert summary.splitlines()[-1].startswith("- … и ещё")
    assert Inventory([]).summary() == "(документов нет)"
