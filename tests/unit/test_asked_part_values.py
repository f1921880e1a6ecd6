"""Document values on document kinds nobody tuned on (stop 37, the `docs` lane): each
asked part's own value, a threshold asked by «сверх какой суммы», an area asked by «какая
площадь», a total asked met by a total payable row.

The documents and questions are the lane's own wording (a debt settlement, a lease of a
land plot, a loan schedule), not items of any evaluation set."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.card_evidence import QUALIFIED, CardAnswer, CardValue, card_answers
from finagent.answering.card_parts import card_further_parts, card_part_values
from finagent.answering.context import build_context
from finagent.answering.date_bounds import lemmas_bound
from finagent.answering.direct import stated_values
from finagent.answering.document_sentences import value_level
from finagent.answering.evidence import Candidate
from finagent.answering.sentence_profile import profile
from finagent.cards.build import build_card
from finagent.question.build import build_question
from finagent.state import Chunk

TODAY = date(2026, 11, 27)

SETTLEMENT = """# Соглашение о порядке погашения задолженности № ПЗ-4/2026
г. Самара — 3 ноября 2026 г.
1.1. Задолженность Должника по договору поставки составляет 84 000 рублей.
2.1. Должник уплачивает Кредитору задолженность в полном объёме не позднее 15 декабря 2026 г.
2.2. За просрочку платежа начисляется пеня 0,2 % за каждый день просрочки.
"""


def _settlement(question: str) -> tuple[list[str], list[str]]:
    card = build_card("d1", "settlement", SETTLEMENT)
    chunk = Chunk(id="c", text=SETTLEMENT, source="user_docs", title=card.title, document_id="d1")
    lines = SETTLEMENT.splitlines()
    # the amount read by the question's qualifiers («сколько»): no field names it
    answer = CardAnswer(
        QUALIFIED, "сумма", "d1", card.title, 1, [CardValue("84 000 рублей", lines[2])]
    )
    # the signing line ranks high: it shares the document's words
    ranked = [Candidate(chunk, 1, lines[i], 0, i, score=1.0 - i / 10) for i in (1, 2, 3, 4)]
    asked = build_question(question, today=TODAY, cards=[card])
    more = card_further_parts(asked, [answer], ranked)
    return [c.sentence for c in more], card_part_values(asked, [answer], more, stated_values)


@pytest.mark.parametrize(
    "question",
    [
        "Сколько должник должен нам заплатить по соглашению ПЗ-4/2026 и до какой даты?",
        "Сколько нам перечислит должник и до какого числа?",
        "На какую сумму погашается долг по соглашению и не позднее какой даты?",
    ],
)
def test_a_further_part_of_another_type_than_the_card_field(question: str) -> None:
    more, values = _settlement(question)
    assert more == [SETTLEMENT.splitlines()[3]]
    # named by the part's asked noun («дата», «число»)
    assert len(values) == 1 and values[0].endswith(" — 15 декабря 2026 г. [1]")


def test_a_part_of_the_fields_own_type_gets_no_sentence() -> None:
    more, values = _settlement("Сколько должник должен по соглашению и сколько пени?")
    assert more == [] and values == []


@pytest.mark.parametrize(
    ("lemmas", "bound"),
    [
        (["и", "до", "какой", "дата", "?"], "end"),
        (["не", "позднее", "какой", "число"], "end"),
        (["и", "с", "какой", "число"], "start"),
        (["и", "когда", "?"], None),
    ],
)
def test_the_end_of_a_term_a_part_asks(lemmas: list[str], bound: str | None) -> None:
    assert lemmas_bound(lemmas) == bound


@pytest.mark.parametrize(
    "question",
    [
        "Сверх какой суммы закупки поставщик должен согласовывать с нами?",
        "Свыше какой суммы сделки директор подписывает только с согласия участников?",
    ],
)
def test_a_threshold_asked_by_a_preposition_of_excess(question: str) -> None:
    assert build_question(question, today=TODAY).answer_type == "limit"


@pytest.mark.parametrize(
    "question",
    [
        "Какая площадь земельного участка по договору аренды с администрацией?",
        "Какова общая площадь склада, который мы снимаем у ООО «Вега»?",
    ],
)
def test_an_area_is_a_count_in_square_metres(question: str) -> None:
    asked = build_question(question, today=TODAY)
    assert asked.unit == "метр" and asked.answer_type == "amount"
    area = "1.2. Площадь участка — 2 350 кв. м, кадастровый номер 63:01:0101001:15."
    rent = "3.1. Арендная плата составляет 48 000 рублей в месяц."
    assert value_level(asked, profile(area), area) == 1.0
    assert value_level(asked, profile(rent), rent) == 0.0


@pytest.mark.parametrize(
    "question",
    [
        "Какая сумма аренды склада в месяц?",
        # an area asked second: the first line answers the sum first
        "Сколько стоит аренда участка в месяц и какой площади участок?",
    ],
)
def test_a_sum_asked_first_asks_no_unit(question: str) -> None:
    asked = build_question(question, today=TODAY)
    assert asked.unit is None and asked.answer_type == "amount"


# an invoice: the items' cells «Стоимость с НДС» and the «Всего к оплате» row
INVOICE = (
    "# Счёт-фактура № 15 от 2 июня 2026 г.\n\n"
    "| № | Товар | Стоимость без НДС, руб. | Сумма НДС, руб. | Стоимость с НДС, руб. |\n"
    "|---|---|---:|---:|---:|\n"
    "| 1 | Кресло офисное | 50 000,00 | 11 000,00 | 61 000,00 |\n"
    "| 2 | Стол рабочий | 30 000,00 | 6 600,00 | 36 600,00 |\n"
    "| | **Всего к оплате** | **80 000,00** | **17 600,00** | **97 600,00** |\n"
)
# an act whose payable sum is what is left after an advance
ACT = (
    "# Акт № 9 сдачи-приёмки выполненных работ\n\n"
    "**г. Тверь** — **30 апреля 2026 г.**\n\n"
    "| № | Наименование работ | Сумма без НДС, руб. | Сумма НДС, руб. | Всего с НДС, руб. |\n"
    "|---|---|---:|---:|---:|\n"
    "| 1 | Окраска фасада | 100 000,00 | 22 000,00 | 122 000,00 |\n"
    "| 2 | Замена водостоков | 40 000,00 | 8 800,00 | 48 800,00 |\n"
    "| | **Итого** | **140 000,00** | **30 800,00** | **170 800,00** |\n"
    "| | **Итого к оплате за вычетом аванса** | | | **120 800,00** |\n"
)


def _card_values(text: str, question: str) -> list[list[str]]:
    card = build_card("d1", "doc.md", text)
    chunk = Chunk(id="c", text=text, source="user_docs", title=card.title, document_id="d1")
    asked = build_question(question, today=TODAY, cards=[card])
    found = card_answers(asked, [card], build_context([chunk], [], 10_000))
    return [[v.value for v in a.values] for a in found]


def test_a_total_asked_is_the_total_payable_row_not_the_items_cells() -> None:
    found = _card_values(INVOICE, "Счёт-фактура № 15: итого с НДС?")
    assert found[0] == ["97 600,00 руб."]


def test_a_total_of_its_own_leads_a_payable_sum_after_an_advance() -> None:
    assert _card_values(ACT, "Сколько итого по акту № 9 с НДС?")[0] == ["170 800,00 руб."]


@pytest.mark.parametrize(
    "question",
    [
        "Сколько нам должен вернуть арендодатель по соглашению и до какого числа?",
        "Сколько мы должны доплатить подрядчику по акту и до какой даты?",
    ],
)
def test_a_sum_asked_first_leads_the_date_asked_after_it(question: str) -> None:
    asked = build_question(question, today=TODAY)
    assert [p.answer_type for p in asked.parts] == ["amount", "date"]
    assert asked.answer_types[:2] == ["amount", "date"]


@pytest.mark.parametrize(
    "question",
    [
        "Когда и сколько мы заплатили поставщику аванса?",
        "До какого числа и сколько нужно доплатить подрядчику?",
    ],
)
def test_a_date_asked_first_still_leads(question: str) -> None:
    asked = build_question(question, today=TODAY)
    assert asked.answer_types[:2] == ["date", "amount"]
