"""Values as forms write them and questions that ask two values, one of them by its field."""

from __future__ import annotations

from decimal import Decimal

from finagent.answering.evidence import sentences_of
from finagent.language.money import money_in
from finagent.language.text import analyse
from finagent.question.build import build_question


def test_a_payment_forms_amount_with_kopecks_after_a_hyphen() -> None:
    text = "Сумма 184500-00, в т. ч. НДС 20 % 30750-00.\nСумма | 99000-50"
    found = [(m.text, m.amount) for m in money_in(analyse(text))]
    assert found == [
        ("184500-00", Decimal("184500.00")),
        ("30750-00", Decimal("30750.00")),
        ("99000-50", Decimal("99000.50")),
    ]


def test_a_hyphenated_figure_without_a_money_label_is_no_amount() -> None:
    assert money_in(analyse("Отчёт за 2023-24 годы, приказ 1045-17 от 3 марта.")) == []


def test_a_part_asking_by_its_field_alone_asks_that_fields_value() -> None:
    question = build_question("Какой залог по договору хранения и до какого числа его вернуть?")
    assert question.answer_types[:2] == ["amount", "date"]
    assert [p.answer_type for p in question.parts] == ["amount", "date"]
    # a part with its own cue keeps it
    both = build_question("Сколько стоит хранение и какой срок хранения?")
    assert both.answer_type == "amount"


def test_a_legal_reference_in_brackets_does_not_end_the_sentence() -> None:
    text = (
        "Штраф составит 2 000 руб. (п. 3 ст. 120 НК РФ), повторно — 6 000 рублей. "
        "Пени начисляются за каждый день."
    )
    assert sentences_of(text) == [
        "Штраф составит 2 000 руб. (п. 3 ст. 120 НК РФ), повторно — 6 000 рублей.",
        "Пени начисляются за каждый день.",
    ]
