"""A question cut off after «до» asks a date; «сколько … сидеть» is no duration cue of its
own (stop 42: the staying verbs gained one dev item and were removed). Questions written
for these rules, about no evaluation item."""

from __future__ import annotations

import pytest

from finagent.question.build import build_question


@pytest.mark.parametrize(
    ("question", "kind"),
    [
        ("Перешли на патент — сколько лет придётся на нём сидеть?", "period"),
        ("Сколько дней можно пробыть за границей, чтобы остаться резидентом?", "period"),
        # «сидеть» of a counted noun: what a price contains, a sum
        ("Сколько акциза сидит в цене литра бензина?", "amount"),
        ("Сколько налога сидит в стоимости путёвки?", "amount"),
        # money remains or lies on an account: a sum
        ("Сколько должно остаться на счёте после уплаты налога?", "amount"),
        ("Сколько денег остаётся у ИП после уплаты взносов?", "amount"),
    ],
)
def test_a_counted_span_asks_a_duration_and_a_contained_sum_a_sum(question: str, kind: str) -> None:
    assert build_question(question).answer_type == kind


@pytest.mark.parametrize(
    "question",
    [
        "земельный налог физлицо платит до?",
        "Транспортный налог за 2025 год организация уплачивает до?",
    ],
)
def test_a_question_cut_off_after_do_asks_a_date(question: str) -> None:
    assert build_question(question).answer_type == "date"


def test_a_do_after_a_question_word_is_not_cut_off() -> None:
    assert build_question("Какой налог платит ИП до?").answer_type != "date"


@pytest.mark.parametrize(
    "question",
    ["Стандартный вычет на внука до 24?", "Лимит по кассе до 500 000?"],
)
def test_a_do_before_a_number_bounds_a_value_not_a_date(question: str) -> None:
    assert build_question(question).answer_type != "date"
