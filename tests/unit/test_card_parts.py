"""The parts of a question no document card field answers get a sentence and a value."""

from __future__ import annotations

from finagent.answering.card_evidence import CardAnswer, CardValue
from finagent.answering.card_parts import card_further_parts, card_part_values
from finagent.answering.direct import stated_values
from finagent.answering.evidence import Candidate
from finagent.cards.build import build_card
from finagent.question.build import build_question
from finagent.state import Chunk

STORE = """# Договор аренды склада № С-5/2026
г. Казань — 2 февраля 2026 г.
4.1. Арендная плата составляет 150 000 рублей в месяц.
4.2. Компенсация коммунальных платежей вносится ежемесячно в сумме 12 500 рублей.
4.3. Итого в месяц: аренда 150 000 рублей, коммунальные 12 500 рублей, всего 162 500 рублей.
4.4. Арендатор обязан содержать склад в чистоте.
"""


def _setup(question: str, lines: list[int]) -> tuple[list[str], list[str]]:
    card = build_card("d1", "store", STORE)
    chunk = Chunk(id="c", text=STORE, source="user_docs", title=card.title, document_id="d1")
    text = STORE.splitlines()
    answer = CardAnswer(
        "rent", "арендная плата", "d1", card.title, 1, [CardValue("150 000 рублей", text[2])]
    )
    ranked = [Candidate(chunk, 1, text[i], 0, i, score=1.0 - i / 10) for i in lines]
    asked = build_question(question, cards=[card])
    more = card_further_parts(asked, [answer], ranked)
    return [c.sentence for c in more], card_part_values(asked, [answer], more, stated_values)


def test_a_part_no_field_answers_gets_its_sentence_and_value() -> None:
    more, values = _setup(
        "Какая арендная плата и какая компенсация коммунальных платежей по договору С-5/2026?",
        [5, 2, 3],
    )
    assert more == [STORE.splitlines()[3]]
    assert values == ["компенсация — 12 500 рублей [1]"]


def test_a_row_of_several_figures_is_quoted_not_picked() -> None:
    more, values = _setup(
        "Какая арендная плата и сколько вместе с коммунальными по договору С-5/2026?", [4, 5]
    )
    assert more == [STORE.splitlines()[4]]
    assert values == []


def test_a_question_of_one_part_gets_nothing_more() -> None:
    more, values = _setup("Какая арендная плата по договору С-5/2026?", [3, 4])
    assert more == [] and values == []
