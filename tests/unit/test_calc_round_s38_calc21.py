"""Stop 38, lane calc21: hold-out v20's classes (issue #26) — a day told as a kind of
calendar day («если 3 мая выходной») is no event; a reply asked about the inspection's
demand is a calc question; a clarify item's reason after a dash names nothing missing.
Wording ours, not an eval item's."""

from __future__ import annotations

from datetime import date

from evals.answers.calc import answer_value
from evals.answers.calc_missing import missing_codes
from finagent.legal.calc_extract import extract_calc_request, looks_like_calc
from tests.unit.calc_reading import TODAY, ask


def _event(question: str) -> date | None:
    req = extract_calc_request(question, TODAY)
    asked = [d.day for d in req.dates if d.role == "asked_event"]
    return asked[0] if len(asked) == 1 else None


def test_a_day_told_as_a_calendar_day_is_not_the_event() -> None:
    for told in ("если 12 июня праздник", "если 12 июня — выходной", "а 12 июня нерабочий день"):
        question = (
            "Обособленное подразделение сменило адрес 10.06.2025. До какого числа сообщить "
            f"в инспекцию, {told}?"
        )
        assert _event(question) == date(2025, 6, 10), told


def test_an_event_on_a_weekend_is_still_the_event() -> None:
    question = (
        "Требование о пояснениях по ст. 88 получили 5 апреля 2025 года в субботу. До какого "
        "числа ответить?"
    )
    assert _event(question) == date(2025, 4, 5)


async def test_a_working_saturday_told_counts_in_the_answer() -> None:
    question = (
        "Обособленное подразделение переехало 27.12.2024 (новый договор аренды с 01.12). До "
        "какого числа сообщить в налоговую, если 28 декабря рабочая суббота?"
    )
    outcome = await ask(question)
    # 28.12 (1, a working Saturday), 29.12-08.01 off (30.12 and 31.12 transferred), 09.01
    # (2), 10.01.2025 (3)
    assert answer_value("deadline", outcome.markdown) == "2025-01-10"


def test_a_reply_to_the_inspections_demand_is_routed() -> None:
    assert looks_like_calc(
        "Налоговая прислала требование, опись из 9 счетов-фактур. До какого числа нужно ответить?"
    )
    # a reply to a counterparty is not the Code's period
    assert not looks_like_calc("Поставщик прислал претензию 5 марта. До какого числа ответить?")
    assert not looks_like_calc("Как правильно ответить на требование инспекции?")


def test_a_reason_after_a_dash_names_nothing_missing() -> None:
    assert missing_codes("Не указан плательщик — от этого зависит доля после 30 дней") == {"payer"}
    assert missing_codes("Не указана дата получения — от неё идёт срок") == {"event_date"}
