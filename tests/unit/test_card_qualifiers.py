"""Card values that fit the question: qualifiers, table labels, wrapped lines, two values."""

from __future__ import annotations

from langgraph.store.memory import InMemoryStore

from finagent.answering.card_evidence import card_answers
from finagent.answering.context import build_context
from finagent.cards.build import build_card
from finagent.cards.model import CARD_VERSION
from finagent.cards.tables import table_cells
from finagent.cards.unwrap import joined
from finagent.question.build import build_question
from finagent.state import Chunk
from finagent.storage.card_refresh import current_cards
from finagent.storage.documents import DocumentStore
from tests.unit.card_reading import card_answer

INVOICE = (
    "# Счёт № 41 от 2 февраля 2026 г.\n\n"
    "Поставщик: ООО «Кварц», ИНН 7701234567\n\n"
    "| № | Товар | Кол-во | Сумма без НДС, руб. | НДС, руб. | Сумма с НДС, руб. |\n"
    "|---|---|---|---|---|---|\n"
    "| 1 | Лампа настольная | 10 | 20 000,00 | 4 000,00 | 24 000,00 |\n"
    "| 2 | Кресло офисное | 5 | 50 000,00 | 10 000,00 | 60 000,00 |\n"
    "| | Итого | | 70 000,00 | 14 000,00 | 84 000,00 |\n"
)
LEASE = (
    "# Договор аренды № Л-9\n\n"
    "3.1. Арендная плата составляет 36 000 рублей в месяц, в том числе НДС 20 % — 6 000 "
    "рублей.\n"
    "Сумма без НДС — 30 000 рублей в месяц.\n\n"
    "3.2. Общая сумма арендной платы за весь срок аренды составляет 432 000 рублей.\n"
)
SUPPLY = (
    "# Договор поставки № П-3\n\n"
    "Общая стоимость Товара по Спецификации № 1 — 120 000,00 руб., в том числе НДС — "
    "20 000,00 руб.\n\n"
    "Общая стоимость Товара по Спецификации № 2 — 240 000,00 руб., в том числе НДС — "
    "40 000,00 руб.\n"
)
WRAPPED = (
    "ДОПОЛНИТЕЛЬНОЕ СОГЛАШЕНИЕ № 2\n\n"
    "1. Обеспечительный платёж составляет 90 000 (девяносто тысяч)\n"
    "   рублей 00 копеек.\n"
    "   Доплату Арендатор вносит не позднее 15 мая 2026 г.\n"
)


def test_table_cells_carry_their_row_label_and_column_header() -> None:
    cells = {INVOICE[c.start : c.end]: c for c in table_cells(INVOICE)}
    assert cells["84 000,00"].row == "Итого"
    assert cells["84 000,00"].column == "Сумма с НДС, руб."
    assert cells["20 000,00"].row == "Лампа настольная"


def test_a_grid_table_header_spanning_two_columns_labels_both() -> None:
    grid = (
        "+---+--------------+-------------------+\n"
        "|   |              |  По данным Альфы  |\n"
        "| № | Документ     +---------+---------+\n"
        "|   |              |  Дебет  | Кредит  |\n"
        "+---+--------------+---------+---------+\n"
        "|   | Обороты      | 500,00  | 700,00  |\n"
        "+---+--------------+---------+---------+\n"
    )
    cells = {grid[c.start : c.end]: c for c in table_cells(grid)}
    assert cells["700,00"].label == "Обороты · По данным Альфы Кредит"


def test_a_word_row_with_an_empty_first_cell_keeps_its_columns() -> None:
    text = "№ | Товар | Сумма, руб.\n1 | Стол | 100,00\n | Всего | 100,00\n"
    labels = [c.label for c in table_cells(text) if text[c.start : c.end] == "100,00"]
    assert labels == ["Стол · Сумма, руб.", "Всего · Сумма, руб."]


def test_figures_with_kopecks_in_cells_are_amounts_of_the_row_field() -> None:
    card = build_card("d1", "invoice.md", INVOICE)
    totals = [f for f in card.facts if f.label and f.label.startswith("Итого")]
    assert [(f.field, f.value) for f in totals] == [
        ("total", "70 000 руб."),
        ("vat", "14 000 руб."),
        ("total", "84 000 руб."),
    ]
    assert all(f.field == "other" for f in card.facts if f.label and "Лампа" in f.label)


def test_the_vat_qualifier_chooses_the_column() -> None:
    found = card_answer(INVOICE, "Счёт № 41: на какую сумму с НДС?")
    assert found == [("сумма договора", ["84 000,00 руб."])]
    assert card_answer(INVOICE, "Счёт № 41: итого без НДС?") == [
        ("итого к оплате", ["70 000,00 руб."])
    ]


def test_a_restated_figure_answers_when_the_field_states_another_vat_basis() -> None:
    found = card_answer(LEASE, "По договору аренды Л-9 сколько арендная плата в месяц без НДС?")
    assert found == [("арендная плата", ["30 000 руб. в месяц"])]
    found = card_answer(LEASE, "По договору аренды Л-9 какая арендная плата в месяц с НДС?")
    assert found == [("арендная плата", ["36 000 руб. в месяц"])]


def test_the_sub_object_the_question_names_chooses_the_value() -> None:
    found = card_answer(SUPPLY, "На какую сумму с НДС спецификация № 2 по договору П-3?")
    assert found == [("сумма договора", ["240 000,00 руб."])]


WORKS = (
    "ДОГОВОР ПОДРЯДА № ПД-7\n\n"
    "Подрядчик: ООО «Северный Мост Инжиниринг», ИНН 7701234500\n\n"
    "3.1. Аванс — 30 % стоимости этапов 1 и 2, что составляет 150 000 рублей, в том числе "
    "НДС.\n\n"
    "Этап | Стоимость без НДС, руб. | Стоимость с НДС, руб.\n"
    "Этап 1 «Проект» | 200 000,00 | 240 000,00\n"
    "Этап 2 «Монтаж» | 300 000,00 | 360 000,00\n"
    "Этап 3 «Наладка» | 100 000,00 | 120 000,00\n"
)


def test_an_ordinal_names_the_row_that_numbers_the_same_object() -> None:
    """«третий этап» is the row «Этап 3»; «этапов 1 и 2» of another clause is no stage 2."""
    asked = "Сколько стоит третий этап у «Северного Моста» с НДС?"
    assert card_answer(WORKS, asked) == [("сумма", ["120 000,00 руб."])]
    asked = "Сколько стоит второй этап у «Северного Моста» с НДС?"
    assert card_answer(WORKS, asked) == [("сумма", ["360 000,00 руб."])]


def test_wrapped_lines_are_joined_with_their_offsets_kept() -> None:
    assert len(joined(WRAPPED)) == len(WRAPPED)
    assert "(девяносто тысяч)    рублей 00 копеек." in joined(WRAPPED)
    assert joined("Итого:    100\nАдрес: г. Тверь\n") == "Итого:    100\nАдрес: г. Тверь\n"
    requisites = "ИНН 7701234567, КПП 770101001\nР/с 40702810000000000001 в банке\n"
    assert joined(requisites) == requisites
    card = build_card("d1", "amendment.txt", WRAPPED)
    assert [f.value for f in card.values("deposit")] == ["90 000 руб."]


def test_the_second_value_asked_is_read_beside_the_first() -> None:
    found = card_answer(
        WRAPPED, "По дополнительному соглашению № 2 какой обеспечительный платёж и до какого числа?"
    )
    assert found == [("обеспечительный платёж", ["90 000 руб."]), ("дата", ["15 мая 2026 г"])]


def test_what_a_figure_takes_into_account_is_not_the_field_asked() -> None:
    question = build_question(
        "Сколько перечислить в итоге с учётом зачёта обеспечительного платежа?"
    )
    assert question.fields == []
    assert build_question("Какой обеспечительный платёж?").fields == ["deposit"]


async def test_a_card_of_an_older_builder_is_rebuilt_when_read() -> None:
    documents = DocumentStore(InMemoryStore())
    doc = await documents.put("u1", "Счёт № 41", "invoice.md", INVOICE)
    old = build_card(doc.id, doc.title, INVOICE).model_copy(update={"version": 1, "facts": []})
    await documents.cards.put("u1", old)
    (card,) = await current_cards(documents, "u1")
    assert card.version == CARD_VERSION and card.facts
    stored = await documents.cards.get("u1", doc.id)
    assert stored is not None and stored.version == CARD_VERSION


def test_a_document_named_by_its_number_is_answered_by_its_own_card_alone() -> None:
    # both are contracts; only the one not asked about states a price
    other = "# Договор № Р-1/2026\n\n2.1. Стоимость работ составляет 50 000 рублей.\n"
    named = "# Договор № К-5/2026 возмездного оказания услуг\n\n1.1. Исполнитель консультирует.\n"
    cards = [build_card("d1", "a.md", other), build_card("d2", "b.md", named)]
    chunks = [
        Chunk(id=f"c{i}", text=t, source="user_docs", title=c.title, document_id=c.document_id)
        for i, (t, c) in enumerate(zip((other, named), cards, strict=True))
    ]
    asked = build_question("какая стоимость по договору К-5/2026?", cards=cards)
    found = card_answers(asked, cards, build_context(chunks, [], 10_000))
    assert found == [], found


def test_a_question_naming_no_document_is_answered_by_the_card_of_the_one_retrieved_first() -> None:
    """The policy retrieved first states its total in words no field names; the travel
    report retrieved after it has an «итого», which must not answer for the policy."""
    policy = (
        "ДОГОВОР СТРАХОВАНИЯ ИМУЩЕСТВА № С-3\n\n"
        "1.2. Совокупная страховая сумма составляет 9 200 000 рублей.\n"
    )
    report = "# Авансовый отчёт № 4\n\nИтого израсходовано: 41 300,00 руб.\n"
    cards = [build_card("p", "a.pdf", policy), build_card("r", "b.md", report)]
    chunks = [
        Chunk(id=f"c{i}", text=t, source="user_docs", title=c.title, document_id=c.document_id)
        for i, (t, c) in enumerate(zip((policy, report), cards, strict=True))
    ]
    asked = build_question("на какую сумму всего застрахован склад?", cards=cards)
    assert not asked.documents
    found = card_answers(asked, cards, build_context(chunks, [], 10_000))
    assert all(a.document_id == "p" for a in found), found


PENALTIES = (
    "# Договор поставки № П-7\n\n"
    "8.1. За просрочку оплаты Покупатель уплачивает неустойку в размере 0,05 % от "
    "неоплаченной суммы за каждый день просрочки, но не более 5 % от этой суммы.\n\n"
    "8.2. За нарушение сроков поставки Поставщик уплачивает неустойку в размере 0,1 % от "
    "стоимости непоставленного Товара за каждый день просрочки, но не более 10 % от "
    "стоимости Товара.\n"
)


def test_a_bound_asked_beside_a_value_is_named_with_the_clause_that_states_it() -> None:
    # of two bounded clauses, the one the question names («поставки»), each value its own
    found = card_answer(PENALTIES, "Какая неустойка за просрочку поставки и какой у неё потолок?")
    assert found == [("неустойка", ["0,1 %"]), ("предел", ["10 %"])]


def test_a_count_in_a_unit_of_measure_is_no_qualified_sum() -> None:
    acts = (
        "# Акт приёмки № 4\n\n"
        "Уложено плитки: 320 м2.\n\n"
        "Итого стоимость работ без НДС — 640 000,00 руб.\n"
    )
    assert card_answer(acts, "Акт № 4: сколько квадратных метров плитки в итоге уложено?") == []
    assert card_answer(acts, "Акт № 4: сколько в итоге без НДС?") == [
        ("сумма", ["640 000,00 руб."])
    ]
