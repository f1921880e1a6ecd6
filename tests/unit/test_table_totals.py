"""Totals of tables: rows a PDF flattened, the total leading item rows, justified figures."""

from __future__ import annotations

from decimal import Decimal

from finagent.answering.card_evidence import card_answers
from finagent.answering.context import build_context
from finagent.answering.figures import known_numbers
from finagent.answering.qualifiers import qualifiers_of
from finagent.cards.build import build_card
from finagent.cards.tables import table_cells
from finagent.language.money import money_in
from finagent.language.text import analyse
from finagent.question.build import build_question
from finagent.state import Chunk

# a work acceptance act as a PDF's text keeps it: each row a label and one figure
FLATTENED = (
    "АКТ № 4 о приёмке выполненных работ\n"
    "г. Тверь — 30 апреля 2026 г.\n"
    "Стоимость работ указана в рублях, оплата 50 000 руб. произведена авансом.\n"
    "№ Наименование работ Ед. изм. Кол-во Цена Стоимость, руб. (без НДС)\n"
    "1 Окраска фасада м2 400 250,00 100 000,00\n"
    "2 Замена водостоков м 80 500,00 40 000,00\n"
    "Итого стоимость выполненных работ без НДС 140 000,00\n"
    "НДС 22 % 30 800,00\n"
    "Всего стоимость выполненных работ с НДС 170 800,00\n"
    "Итого к оплате по акту 120 800,00\n"
)
# a services act dated in the month its item rows name
ACT = (
    "# Акт № 9 сдачи-приёмки оказанных услуг\n\n"
    "**г. Москва** — **31 марта 2026 г.**\n\n"
    "| № | Наименование услуги | Сумма без НДС, руб. | Сумма НДС, руб. | Всего с НДС, руб. |\n"
    "|---|---|---:|---:|---:|\n"
    "| 1 | Уборка офиса за март 2026 г. | 30 000,00 | 6 600,00 | 36 600,00 |\n"
    "| 2 | Мойка окон | 10 000,00 | 2 200,00 | 12 200,00 |\n"
    "| | **Итого** | **40 000,00** | **8 800,00** | **48 800,00** |\n"
)


def _values(text: str, question: str) -> list[list[str]]:
    card = build_card("d1", "doc.md", text)
    chunk = Chunk(id="c", text=text, source="user_docs", title=card.title, document_id="d1")
    asked = build_question(question, cards=[card])
    found = card_answers(asked, [card], build_context([chunk], [], 10_000))
    return [[v.value for v in a.values] for a in found]


def test_a_flattened_row_is_a_label_and_its_figure() -> None:
    cells = {FLATTENED[c.start : c.end]: c.row for c in table_cells(FLATTENED)}
    assert cells["140 000,00"] == "Итого стоимость выполненных работ без НДС"
    assert cells["30 800,00"] == "НДС 22 %"
    assert cells["100 000,00"] == "1 Окраска фасада м2 400 250,00"
    # a figure of a row opens with a group of one to three digits: «400 250,00» is no figure
    assert "400 250,00" not in cells
    # prose ending in a sum with its currency is no row
    assert not any("авансом" in row for row in cells.values())


def test_the_total_row_a_pdf_flattened_answers_the_amount_without_vat() -> None:
    assert _values(FLATTENED, "Сколько стоят работы по акту № 4 без НДС?") == [["140 000,00 руб."]]


def test_the_total_row_leads_item_rows_when_the_question_names_no_item() -> None:
    # «за март 2026» is the act's own month: it names the act, not the first row
    assert _values(ACT, "Сколько стоили услуги по акту № 9 за март 2026 без НДС?") == [
        ["40 000,00 руб."]
    ]


def test_an_item_row_the_question_names_keeps_its_value() -> None:
    assert _values(ACT, "Сколько стоит мойка окон по акту № 9 без НДС?") == [["10 000,00 руб."]]


def test_a_justified_line_joins_digit_groups_set_off_by_its_wide_gap() -> None:
    found = money_in(analyse("вместо предусмотренных  24  000  рублей  (снижение на 25 %)"))
    assert [m.amount for m in found] == [Decimal("24000")]
    # in a line spaced singly, two spaces part two numbers
    assert [m.amount for m in money_in(analyse("Таб. № 004  45 000 руб."))] == [Decimal("45000")]
    assert "24000" in known_numbers(["запиской  24  000  рублей"])


def test_a_total_row_of_another_thing_does_not_answer_the_amount_asked() -> None:
    certificate = (
        "СПРАВКА № 5 о выплатах работнику за 2025 год\n"
        "Выплаты указаны в рублях: аванс 10 000 руб. выплачен 15.01.2025.\n"
        "Общая сумма дохода 500 000,00\n"
        "Стандартный вычет на ребёнка 16 800,00\n"
    )
    found = _values(certificate, "На какую сумму дали вычет на ребёнка по справке № 5?")
    assert all("500 000,00 руб." not in values for values in found)


def test_a_turnover_is_the_total_a_question_asks_with_vsego() -> None:
    statement = (
        "# Выписка по расчётному счёту № 40702810000000000001 за апрель 2026 г.\n\n"
        "| № | Контрагент | Кредит, руб. | Дебет, руб. |\n"
        "|---|---|---:|---:|\n"
        "| 1 | ООО «Сигма» | 100 000,00 | |\n"
        "| 2 | ООО «Дельта» | 20 000,00 | |\n"
        "| 3 | ООО «Омега» | | 45 000,00 |\n\n"
        "Обороты по кредиту (поступило): 120 000,00 руб.\n"
        "Обороты по дебету (списано): 45 000,00 руб.\n"
    )
    found = _values(statement, "Сколько всего поступило по выписке за апрель и сколько списано?")
    # the operations' rows are no answer to «всего»: only the two turnovers are shown
    assert [sorted(v) for v in found] == [["120 000,00 руб.", "45 000,00 руб."]]


def test_what_is_payable_is_the_total_after_deductions() -> None:
    # «Итого к оплате» is both a total and what is payable: the question asks the latter
    assert _values(FLATTENED, "Сколько к оплате по акту № 4 с учётом аванса?") == [
        ["120 800,00 руб."]
    ]


def test_a_final_figure_named_two_ways_is_the_more_specific() -> None:
    def final(text: str) -> str | None:
        return qualifiers_of([t.lemma for s in analyse(text).sentences for t in s.tokens]).final

    assert final("Итого к оплате по акту") == "payable"
    assert final("Остаток к оплате") == "rest"
    assert final("Итого") == "total"


# a tax authority's table of discrepancies: one row per counterparty, the VAT in columns
# no cue labels («Сумма НДС у налогоплательщика», «… у контрагента»)
DISCREPANCIES = (
    "# Требование о представлении пояснений № 5\n\n"
    "Общая сумма НДС по счетам-фактурам с расхождениями — 224 000,00 руб.\n\n"
    "| № | Контрагент | Сумма НДС у налогоплательщика, руб. | Сумма НДС у контрагента, руб. |\n"
    "|---|---|---:|---:|\n"
    "| 1 | ООО «Альфа-Трейд» | 200 000,00 | 0,00 |\n"
    "| 2 | ООО «БетаСервис» | 24 000,00 | 14 400,00 |\n"
)


def test_a_row_holding_a_name_the_question_gives_answers_by_its_field_columns() -> None:
    found = _values(DISCREPANCIES, "По «БетаСервис» в требовании сколько НДС у нас и у них?")
    assert found == [["24 000,00 руб.", "14 400,00 руб."]]
    # the document named only by the name its row holds: the name names the document
    by_name = _values(DISCREPANCIES, "Сколько НДС у «БетаСервис»?")
    assert all("14 400,00 руб." not in values for values in by_name)
    # no name given: the document's own total, as before
    assert _values(DISCREPANCIES, "Сколько НДС в требовании?") == [["224 000,00 руб."]]
