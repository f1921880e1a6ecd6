"""Document values on document kinds nobody tuned on (stop 37, the `docs` lane): each
asked part's own value, a threshold asked by «сверх какой суммы», an area asked by «какая
площадь».

The documents and questions are the lane's own wording (a debt settlement, a lease of a
land plot, a loan schedule), not items of any evaluation set."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.card_evidence import QUALIFIED, CardAnswer, CardValue
from finagent.answering.card_parts import card_further_parts, card_part_values
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
