"""Periods of Part One added after a scan of the Code: each read from an invented question."""

from __future__ import annotations

from datetime import date

from finagent.legal.calc_extract import extract_calc_request
from tests.unit.calc_reading import TODAY, deadline


def test_the_annual_accounts_run_three_months_from_the_year_end() -> None:
    q = deadline(
        "Отчетный 2024 год закончился 31.12.2024. Когда крайний срок сдать в инспекцию "
        "годовой бухгалтерский баланс, если в ГИР БО мы его не подаем?"
    )
    assert q is not None and q.row_id == "annual_accounts_23"
    assert (q.period, q.unit, q.event_date) == (3, "months", date(2024, 12, 31))


def test_the_order_on_a_persons_accounts_waits_seven_days_after_sending_the_decision() -> None:
    q = deadline(
        "Пенсионеру (не ИП) отправили решение о взыскании 14 октября 2025 года. Когда "
        "инспекция вправе разместить поручение на списание долга с его счета?"
    )
    assert q is not None and q.row_id == "order_placement_48"
    assert (q.period, q.unit, q.event_date) == (7, "working_days", date(2025, 10, 14))


def test_court_for_a_small_debt_chains_the_three_years_from_the_complaint_decision() -> None:
    req = extract_calc_request(
        "Решение по жалобе гражданина на решение о привлечении к ответственности вынесено "
        "2 сентября 2022 года, долг не больше 3 000 руб. До какого числа налоговая может "
        "подать иск в суд?",
        TODAY,
    )
    assert req.row_id == "small_debt_court_48" and req.chain_from == "small_debt_complaint_48"
    assert req.event_date == date(2022, 9, 2)


def test_a_larger_debt_goes_to_court_six_months_after_the_complaint_decision() -> None:
    req = extract_calc_request(
        "Решение по жалобе гражданина на решение о привлечении к ответственности вынесено "
        "2 сентября 2025 года, долг 48 000 руб. До какого числа налоговая может подать иск в суд?",
        TODAY,
    )
    assert req.row_id == "court_after_appeal_48" and req.chain_from is None


def test_a_foreign_e_services_seller_is_registered_within_thirty_days() -> None:
    q = deadline(
        "Иностранная фирма торгует через электронную площадку с россиянами; заявление о "
        "постановке на учет инспекция получила 10.06.2025. Когда ее обязаны поставить на учет?"
    )
    assert q is not None and q.row_id == "registration_foreign_person_84"
    assert (q.period, q.unit) == (30, "working_days")


def test_another_foreign_organisation_still_is_not_guessed() -> None:
    req = extract_calc_request(
        "Иностранная организация подала заявление о постановке на учет 10.06.2025. "
        "Когда ее поставят на учет?",
        TODAY,
    )
    assert req.decline == "registration_foreign_84"


def test_closing_a_division_is_deregistered_within_ten_days_of_the_message() -> None:
    q = deadline(
        "Налоговая получила наше сообщение о закрытии обособленного подразделения 1 июля "
        "2025 года. До какого дня нас должны снять с учета там?"
    )
    assert q is not None and q.row_id == "division_deregistration_84"
    assert (q.period, q.unit, q.event_date) == (10, "working_days", date(2025, 7, 1))
