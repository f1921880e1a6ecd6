"""Kinds and roles a document names in its own words, for kinds no list names."""

from __future__ import annotations

from finagent.cards.build import build_card
from finagent.cards.kind_phrase import is_label_line, kind_phrase
from finagent.question.build import build_question

CASH_ORDER = """\
                                                          Унифицированная форма № КО-2
                                                          Код по ОКУД 0310002
ООО «Северный Ветер» · ИНН 7701000011 · 101000, г. Москва, ул. Лесная, д. 3
Основание:     договор займа № З-9/2026 от 01.02.2026
Выдать:        Петрову Ивану Сергеевичу

              РАСХОДНЫЙ КАССОВЫЙ ОРДЕР  № 77        Дата составления: 03.03.2026

Сумма: 15 000 руб. 00 коп.
"""

ESTIMATE = """\
*ООО «Прораб Плюс» · ИНН 5401000022 · г. Новосибирск*

# Локальная смета № 4-С к договору подряда

| Работы | Сумма, руб. |
|---|---|
| Демонтаж | 12 000,00 |
"""

POLICY = """\
ПОЛИС СТРАХОВАНИЯ ГРУЗОВ № ГР-15/2026
г. Омск, 10 марта 2026 г.
Акционерное общество «Щит» (АО «Щит»), ИНН 5501000033, именуемое в дальнейшем «Страховщик», и
Общество с ограниченной ответственностью «Тайга» (ООО «Тайга»), ИНН 5501000044,
именуемое в дальнейшем «Страхователь», заключили настоящий полис.
"""


def test_a_form_is_titled_by_its_own_heading_not_its_basis_or_form_code() -> None:
    card = build_card("d1", "ko2.txt", CASH_ORDER)
    assert card.title == "Расходный кассовый ордер № 77"
    assert (card.doc_type_name, card.number) == ("расходный кассовый ордер", "77")
    # the contract in «Основание: …» is only mentioned, not held
    assert card.doc_type != "loan"
    assert "З-9/2026" not in [card.number, *card.references]


def test_a_markdown_heading_names_a_kind_no_list_holds() -> None:
    card = build_card("d2", "smeta.md", ESTIMATE)
    assert card.title.startswith("Локальная смета № 4-С")
    assert card.kind_cues == ["локальная смета", "смета"]


def test_a_contract_kind_keeps_its_own_words_and_role_words() -> None:
    card = build_card("d3", "polis.txt", POLICY)
    assert card.doc_type_name == "полис страхования"
    roles = {party.role: party.name for party in card.parties}
    assert roles == {"страховщик": "АО «Щит»", "страхователь": "ООО «Тайга»"}


def test_a_question_names_a_document_by_its_own_kind_and_role_words() -> None:
    cards = [build_card("d1", "ko2.txt", CASH_ORDER), build_card("d3", "polis.txt", POLICY)]
    by_kind = build_question("Кому выдали деньги по кассовому ордеру?", cards=cards)
    assert [m.document_id for m in by_kind.documents] == ["d1"]
    assert "тип" in by_kind.documents[0].reasons
    by_role = build_question("Когда мы должны известить страховщика об убытке?", cards=cards)
    assert [(m.document_id, m.reasons) for m in by_role.documents] == [("d3", ["роль"])]


def test_label_lines_and_form_metadata_name_no_kind() -> None:
    assert is_label_line("Основание: договор поставки № 5")
    assert not is_label_line("Акт сверки № 3 за период: 2025 год")
    assert kind_phrase("Унифицированная форма № Т-3") is None
    assert kind_phrase("ШТАТНОЕ РАСПИСАНИЕ № 2") is not None
    assert kind_phrase("Штатное расписание № 2") is None  # no heading: plain text, no capitals
    assert kind_phrase("Штатное расписание № 2", marked=True) is not None


def test_a_kind_of_sheet_is_a_heading_a_sheet_of_a_form_is_not() -> None:
    """«ПУТЕВОЙ ЛИСТ № 51» names its kind (underlined, over a later section in capitals);
    «Лист 2» or «Лист № 2» alone is a page of a form."""
    waybill = (
        "ПУТЕВОЙ ЛИСТ АВТОБУСА № 51\n==========\n\nДата выдачи: 3 марта 2026 г.\n\n"
        "ЗАДАНИЕ ВОДИТЕЛЮ\n| № | Пункт погрузки |\n| 1 | г. Тверь |\n"
    )
    card = build_card("d5", "pl.txt", waybill)
    assert card.title == "Путевой лист автобуса № 51"
    assert card.doc_type_name == "путевой лист автобуса"
    assert kind_phrase("ЛИСТ № 2") is None


def test_a_prepositional_cue_yields_to_the_noun_it_follows() -> None:
    """«с испытанием на срок 3 месяца» is the probation, «заключён на срок» the term."""
    order = build_card("d6", "t1.md", "**с испытанием на срок** 3 (три) месяца")
    assert [(f.field, f.value) for f in order.facts] == [("probation", "3 мес.")]
    lease = build_card("d7", "a.md", "Договор заключён на срок 11 месяцев.")
    assert [(f.field, f.value) for f in lease.facts] == [("valid_until", "11 мес.")]
