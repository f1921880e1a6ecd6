"""Stop 39, lane calc22: hold-outs v20/v21's classes (issue #26) — a complaint's kind
(general, on a decision in force, the higher authority's decision from its receipt) and a
demand for payment, rows of articles the loaded Code lacks, said so in the answer; a demand
cited only by its article; a notice named by its tax after a recalculation; a day written
«ДД.ММ» and the year a whole-year period names; пени asked by the key rate's share; a
terse asking part after a dated receipt. Wording ours, not an eval item's."""

from __future__ import annotations

from datetime import date

import pytest

from evals.answers.calc import answer_value
from finagent.legal.calc_extract import extract_calc_request, looks_like_calc
from finagent.legal.periods import period_by_id
from tests.unit.calc_reading import TODAY, ask, deadline


def _row(question: str) -> str | None:
    q = deadline(question)
    return q.row_id if q is not None and not q.variants else None


@pytest.mark.parametrize(
    ("question", "row_id", "event"),
    [
        (
            "Узнала о нарушении своих прав 14 марта 2025 года, когда налоговая заблокировала "
            "счет. Жалоба не апелляционная. До какого числа можно подать жалобу в управление?",
            "complaint_139_2",
            date(2025, 3, 14),
        ),
        (
            "Решение о привлечении к ответственности по выездной проверке принято 3 февраля "
            "2025 г., апелляцию мы не подавали, решение вступило в силу. До какого числа можно "
            "подать жалобу в вышестоящий налоговый орган?",
            "complaint_in_force_139_2",
            date(2025, 2, 3),
        ),
        (
            "Жалобу на решение инспекции управление получило 4 марта 2025 г., подавали мы её "
            "27 февраля. До какого числа управление должно ее рассмотреть?",
            "complaint_decision_140_6",
            date(2025, 3, 4),
        ),
        (
            "Требование об уплате задолженности по НДФЛ организация получила по ТКС 11 ноября "
            "2025 г. До какой даты его нужно исполнить?",
            "payment_demand_69",
            date(2025, 11, 11),
        ),
    ],
)
def test_rows_of_articles_the_text_lacks(question: str, row_id: str, event: date) -> None:
    q = deadline(question)
    assert q is not None and q.row_id == row_id and not q.variants
    assert q.event_date == event
    assert period_by_id()[row_id].absent


@pytest.mark.parametrize(
    ("question", "row_id"),
    [
        # an appeal before the decision comes into force is still the appeal of п. 9 ст. 101
        (
            "Решение по выездной проверке вручено 5 марта 2025 г. До какого числа подать "
            "апелляционную жалобу, пока оно не вступило в силу?",
            "appeal_139_1",
        ),
        # ст. 48's complaint after a refused recalculation keeps its 30 days
        (
            "Физлицо получило 10.02.2025 сообщение об отказе в перерасчете налога на имущество. "
            "До какого числа можно подать жалобу?",
            "complaint_recalculation_48",
        ),
    ],
)
def test_other_complaints_keep_their_rows(question: str, row_id: str) -> None:
    assert _row(question) == row_id


@pytest.mark.parametrize(
    "question",
    [
        # the day of filing is not the higher authority's receipt
        "Жалобу на решение об отказе в вычете отправили через личный кабинет 11 августа 2025 "
        "г. До какого числа управление должно принять по ней решение?",
        # a complaint on a decision in force runs from the decision, not from its delivery
        "Жалобу на решение, вступившее в силу, хотим подать; решение вручено 10 января 2025. "
        "До какого числа можно?",
    ],
)
def test_a_complaint_without_its_event_is_not_computed(question: str) -> None:
    assert deadline(question) is None


async def test_the_answer_says_the_article_is_not_in_the_loaded_code() -> None:
    outcome = await ask(
        "Требование об уплате задолженности пришло нам 3 марта 2025 г. по ТКС, более "
        "длинного срока в нем нет. До какого числа погасить?"
    )
    assert answer_value("deadline", outcome.markdown) == "2025-03-13"
    assert "Текст ст. 69 НК РФ в подключённой редакции Кодекса отсутствует" in outcome.markdown


def test_a_demand_cited_by_its_article_in_a_counterpartys_audit() -> None:
    question = (
        "Идет выездная проверка нашего клиента, ИФНС выставила нам требование по ст. 93.1 — "
        "просят счета-фактуры и акты. Получили его 2 октября 2025 г. До какого числа "
        "представить?"
    )
    assert _row(question) == "documents_93_1_audit"
    deal = (
        "Налоговая прислала требование по ст. 93.1 по конкретной сделке, получили 6 октября "
        "2025 г. Когда крайний срок ответа?"
    )
    assert _row(deal) == "documents_93_1_deal"


def test_a_recalculated_notice_that_states_no_term_is_paid_within_a_month() -> None:
    told = (
        "Инспекция пересчитала транспортный налог и прислала новое уведомление, получил его "
        "3 марта 2025 г. Иного срока в нем не указано. До какого числа платить?"
    )
    assert _row(told) == "tax_notice_58"
    untold = (
        "Инспекция пересчитала транспортный налог и прислала новое уведомление, получил его "
        "3 марта 2025 г. До какого числа платить?"
    )
    assert extract_calc_request(untold, TODAY).decline == "tax_notice_recalculation"


def test_a_short_day_takes_the_year_of_the_period_it_ends() -> None:
    question = (
        "Отчетный период материнской компании нашей международной группы — календарный 2023 "
        "год, он закончился 31.12. До какого числа подать уведомление об участии в "
        "международной группе?"
    )
    q = deadline(question)
    assert q is not None and q.event_date == date(2023, 12, 31)


def test_a_point_is_not_a_short_day() -> None:
    req = extract_calc_request(
        "Требование по п. 10.12 регламента получили 12.03.2025. До какого числа ответить?",
        TODAY,
    )
    assert [d.day for d in req.dates] == [date(2025, 3, 12)]


def test_the_key_rates_share_asks_for_penalties() -> None:
    assert looks_like_calc(
        "ИП не доплатил 60 000 руб. налога по сроку 28.07.2025, внес 15.09.2025. Это 1/300 "
        "ключевой — как посчитать?"
    )
    assert (
        extract_calc_request(
            "ООО заплатило 300 000 руб. НДС 10.03.2025 вместо 28.01.2025. С 31-го дня ведь 1/150, "
            "сколько выйдет?",
            TODAY,
        ).kind
        == "penalty"
    )


def test_a_terse_asking_part_after_a_dated_receipt_is_routed() -> None:
    assert looks_like_calc(
        "Получили из ИФНС письмо 7 июля 2025 г. Сколько дней даётся и до какого числа?"
    )
