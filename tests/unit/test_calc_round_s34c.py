"""Stop 34, round 3: a cited point the table has no row for, the receipt told by the
receipt of acceptance or by «в тот же день», and the speaker who paid (wording ours)."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.calc import clarification
from finagent.legal.calc_extract import extract_calc_request
from finagent.legal.periods import period_by_id, period_points
from tests.unit.calc_reading import TODAY, deadline, penalty


def test_a_cited_point_without_a_row_is_asked_back_naming_the_article() -> None:
    """п. 4.5 ст. 105.30 states five days the table has no row for: not computed from
    п. 5 or п. 8 of that article, asked back naming them."""
    req = extract_calc_request(
        "Налоговый мониторинг. Запрос о мотивированном мнении налоговая получила "
        "12 мая 2025 г. (п. 4.5 ст. 105.30 НК РФ). В какой срок его могут оставить без "
        "рассмотрения?",
        TODAY,
    )
    assert req.row_id is None and req.variants == [] and "procedure" in req.missing
    asked = clarification(req)
    assert asked is not None
    table = period_by_id()
    assert req.cited_rows and all(table[r].norm in asked for r in req.cited_rows)
    assert {table[r].norm.split(" НК")[0][-6:] for r in req.cited_rows} == {"105.30"}


def test_a_cited_point_that_states_no_period_keeps_the_row_of_the_article() -> None:
    """п. 1 ст. 93 names the demand, its period is in п. 3: computed."""
    got = deadline(
        "Получили 3 марта 2025 г. требование по п. 1 ст. 93 НК РФ. До какого числа сдать документы?"
    )
    assert got is not None and (got.period, got.unit) == (10, "working_days")
    assert "1" not in period_points()["93"]


def test_contradictions_found_in_monitoring_have_their_own_five_days() -> None:
    got = deadline(
        "Организация на налоговом мониторинге. Требование дать пояснения по противоречиям "
        "в сведениях получено 2 октября 2025 г. До какого дня ответить?"
    )
    assert got is not None and got.row_id == "monitoring_contradictions_105_29"
    assert (got.event_date, got.period, got.unit) == (date(2025, 10, 2), 5, "working_days")


@pytest.mark.parametrize(
    ("question", "event"),
    [
        (
            "Требование о документах по ст. 93 датировано 10.06.2025, квитанцию о приеме "
            "по ТКС наш бухгалтер отправил 16 июня 2025 г. Когда последний день сдать "
            "документы?",
            date(2025, 6, 16),
        ),
        (
            "Пришло требование пояснений к декларации по НДС (п. 3 ст. 88). Квитанцию о "
            "приеме направили 7 июля 2025 г. Какой крайний срок для пояснений?",
            date(2025, 7, 7),
        ),
    ],
)
def test_the_receipt_of_acceptance_dates_the_receipt(question: str, event: date) -> None:
    got = deadline(question)
    assert got is not None and got.event_date == event


def test_a_receipt_on_the_same_day_as_the_sending_dates_the_receipt() -> None:
    got = deadline(
        "Сообщение о создании обособленного подразделения отправили по ТКС 4 августа "
        "2025 г., инспекция его получила в этот же день. В какой срок налоговый орган "
        "поставит организацию на учет по месту подразделения?"
    )
    assert got is not None and got.row_id == "registration_division_84"
    assert got.event_date == date(2025, 8, 4)


def test_a_sending_alone_is_still_asked_back() -> None:
    req = extract_calc_request(
        "Сообщение о создании обособленного подразделения отправили по ТКС 4 августа "
        "2025 г. В какой срок налоговый орган поставит организацию на учет?",
        TODAY,
    )
    assert req.event_date is None or req.missing or req.decline


@pytest.mark.parametrize(
    ("question", "payer"),
    [
        (
            "Налог на имущество 4 800 руб., срок уплаты 1 декабря 2025 г. Заплатила 9 "
            "января 2026 г. Сколько пени?",
            "individual",
        ),
        (
            "Налог на прибыль 90 000 руб., срок 28 июля 2025 г. Заплатили 11 августа 2025 "
            "г. Сколько пени?",
            None,
        ),
        (
            "ООО должно было уплатить 90 000 руб. до 28 июля 2025 г. Заплатил директор 11 "
            "августа 2025 г. Сколько пени?",
            "organization",
        ),
    ],
)
def test_a_payment_told_in_the_singular_is_the_speakers(question: str, payer: str | None) -> None:
    got = penalty(question)
    assert got is not None and got.payer == payer


def test_a_receipt_of_payment_does_not_date_the_receipt_of_the_demand() -> None:
    got = deadline(
        "Требование о представлении документов по ст. 93 получили 3 марта 2025 г., "
        "квитанцию об уплате налога отправили 5 марта 2025 г. До какого числа представить "
        "документы?"
    )
    assert got is not None and got.event_date == date(2025, 3, 3)
