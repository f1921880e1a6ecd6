"""The quoted абзац states the period that was computed."""

from __future__ import annotations

from finagent.legal.norm_excerpt import period_excerpt, period_pattern

POINT = (
    "Проверка проводится в течение трех месяцев со дня представления декларации.\n"
    "Если декларация не представлена, проверка проводится в течение трех месяцев со дня "
    "истечения срока.\n"
    "Проверка декларации по налогу на добавленную стоимость проводится в течение двух месяцев "
    "со дня представления такой декларации.\n"
    "Проверка заявления проводится в течение 30 календарных дней со дня его представления."
)


def test_the_named_paragraph_is_quoted_when_it_states_the_period() -> None:
    quote = period_excerpt(POINT, "п. 2 ст. 88 НК РФ (абз. 3)", 2, "months")
    assert quote.startswith("Проверка декларации по налогу на добавленную стоимость")


def test_without_a_paragraph_the_one_stating_the_period_is_quoted() -> None:
    assert "30 календарных дней" in period_excerpt(POINT, "п. 2 ст. 88 НК РФ", 30, "days")
    assert "двух месяцев" in period_excerpt(POINT, "п. 2 ст. 88 НК РФ", 2, "months")


def test_a_wrong_paragraph_number_yields_to_the_period_words() -> None:
    assert "двух месяцев" in period_excerpt(POINT, "п. 2 ст. 88 НК РФ (абз. 1)", 2, "months")


def test_nothing_stating_the_period_quotes_the_first_paragraph() -> None:
    assert period_excerpt(POINT, "п. 2 ст. 88", 7, "years").startswith("Проверка проводится")


def test_a_long_paragraph_is_cut_around_the_period() -> None:
    text = "Слово " * 300 + "в течение пяти дней представить пояснения. " + "Слово " * 300
    quote = period_excerpt(text, "п. 3 ст. 88", 5, "working_days", limit=200)
    assert "пяти дней" in quote and quote.startswith("…") and quote.endswith("…")
    assert len(quote) <= 202


def test_period_words() -> None:
    assert period_pattern(1, "months").search("в месячный срок со дня получения")
    assert period_pattern(2, "months").search("исполнены в двухмесячный срок со дня")
    assert period_pattern(10, "working_days").search("в течение 10 рабочих дней")
    assert period_pattern(10, "working_days").search("в течение десяти дней")
    assert not period_pattern(10, "working_days").search("в течение пяти дней")
