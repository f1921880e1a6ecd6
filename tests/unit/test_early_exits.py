"""The latency work of stop 46 changes no result: a sentence that cannot hold what a
reader looks for (a cue of an exception, a count, a date or a year in digits) is answered
at once, without tokenising it, and the answer is the one the full reading gives."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.answer_kinds import counted_nouns
from finagent.answering.date_bounds import dates_with_roles
from finagent.answering.dated_items import item_date, item_year
from finagent.answering.document_sentences import excepted_only
from finagent.language import text as text_module


def _tokenised(call: object, *args: object) -> tuple[object, int]:
    """The call's result and how many lines it tokenised anew."""
    before = text_module._line_sentences.cache_info().misses
    result = call(*args)  # type: ignore[operator]
    return result, text_module._line_sentences.cache_info().misses - before


@pytest.mark.parametrize(
    "sentence",
    [
        "Гарантийный срок на поставленное оборудование составляет двенадцать месяцев.",
        "Арендатор вносит плату ежемесячно не позднее пятого числа.",
    ],
)
def test_a_sentence_without_a_cue_digit_or_date_is_not_tokenised(sentence: str) -> None:
    for reader in (excepted_only, counted_nouns, item_date, item_year, dates_with_roles):
        result, tokenised = _tokenised(reader, sentence)
        assert not result
        assert tokenised == 0


def test_an_exception_is_still_read_where_its_cue_stands() -> None:
    words = excepted_only("Срок гарантии составляет 3 года, за исключением расходных деталей.")
    assert {"расходный", "деталь"} <= words
    assert "срок" not in words
    assert "деталь" in excepted_only("Покупатель оплачивает всё, кроме деталей; срок 5 дней.")
    assert excepted_only("Кроме того, покупатель оплачивает доставку.") == frozenset()


def test_counts_and_dates_in_digits_are_still_read() -> None:
    assert "выезд" in counted_nouns("Входит не более 4 аварийных выездов в месяц.")
    assert item_date("15.04.2025 — аванс 30 %") == date(2025, 4, 15)
    assert item_year("В 2026 году — ставка 7 %") == 2026
    assert any(role == "end" for _, role in dates_with_roles("Оплата до 10 числа месяца."))
