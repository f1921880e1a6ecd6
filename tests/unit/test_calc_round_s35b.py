"""Stop 35, round 2: the classes of hold-out v11's misses (a chain row read from another
document's chain, a posted act's deemed receipt asked with the objections, a key rate not
set yet, an ask-back naming what is really missing); wording ours, not an item's."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.answering.calc import clarification
from finagent.legal.calc_extract import FUTURE_KEY_RATE, extract_calc_request
from tests.unit.calc_reading import TODAY, ask, deadline


@pytest.mark.parametrize(
    ("question", "row", "chain", "event"),
    [
        (
            # the decision «or the decision on additional measures» names no addendum
            "Акт выездной проверки вручен 2 июня 2025 г., письменные возражения представили "
            "16 июня. До какого числа должно быть вынесено решение о привлечении или решение о "
            "проведении дополнительных мероприятий?",
            "review_101",
            "objections_100",
            date(2025, 6, 2),
        ),
        (
            "Акт об обнаружении фактов правонарушений по ст. 101.4 получили 10 февраля 2025 г., "
            "возражения отдали 20 февраля. Когда должны рассмотреть акт?",
            "review_101_4",
            "objections_101_4",
            date(2025, 2, 10),
        ),
        (
            "Дополнение к акту выездной проверки получили 12 мая 2025 г., возражения на него "
            "подали 20 мая. Когда руководитель вынесет решение?",
            "review_101_after_addendum",
            "objections_addendum_101",
            date(2025, 5, 12),
        ),
    ],
)
def test_a_chain_row_runs_from_its_first_periods_event_not_a_filing(
    question: str, row: str, chain: str, event: date
) -> None:
    """A row run from the end of another period chains from that period's event (the
    receipt of the act or the addendum); objections filed early move nothing, and a chain
    whose first document the question never names is not the reading."""
    got = deadline(question)
    assert got is not None and got.row_id == row
    assert got.request.chain_from == chain
    assert got.event_date == event


@pytest.mark.parametrize(
    ("question", "receipt", "picked"),
    [
        (
            "Акт выездной проверки отправили заказным письмом 14 апреля 2025 г., мы забрали "
            "его на почте 30 апреля. С какого дня акт считается врученным и когда последний "
            "день для возражений?",
            date(2025, 4, 22),
            "30.04.2025",
        ),
        (
            "Мы не приходили за актом, инспекция отправила его заказным письмом 3 марта "
            "2025 г., письмо я получил 24 марта. С какого дня считается, что акт вручен, и до "
            "какого числа подать возражения?",
            date(2025, 3, 11),
            "24.03.2025",
        ),
    ],
)
def test_a_deemed_receipt_asked_with_the_objections(
    question: str, receipt: date, picked: str
) -> None:
    """п. 5 ст. 100: the act sent by registered mail counts as handed over on the sixth day
    from the sending; a later pick-up does not move it. Both asked in one sentence: the
    objections' month from that day, the receipt and the pick-up named (before: asked
    back, or the inspection's five days to hand the act over, confidently wrong)."""
    got = deadline(question)
    assert got is not None and got.row_id == "objections_100"
    assert got.event_date == receipt
    assert any("шестой рабочий день" in a for a in got.assumptions)
    assert any(picked in a and "не продлевает" in a for a in got.assumptions)


def test_a_deemed_receipt_alone_is_still_the_mail_rule() -> None:
    req = extract_calc_request(
        "Акт отправили заказным письмом 10 марта 2025 г. Когда он считается полученным?", TODAY
    )
    assert req.row_id is None and req.period is not None and req.period.count == 6


@pytest.mark.parametrize(
    "question",
    [
        "Компания обязана была перечислить 80 000 руб. НДС 28 апреля 2025 г., до сих пор не "
        "перечислила. Сколько набежало пеней?",
        "ИП должен был заплатить 15 000 руб. налога 1 декабря 2025 г., ещё не оплатил. "
        "Посчитайте пени.",
    ],
)
def test_a_modal_verb_of_payment_dates_the_due_day(question: str) -> None:
    """«должен был заплатить 1 декабря»: the day it was due, not paid; «ещё не оплатил»
    leaves the payment date unknown: asked back for it, not for the due date."""
    req = extract_calc_request(question, TODAY)
    assert [d.role for d in req.dates] == ["due"]
    assert "payment_date" in req.missing and "due_date" not in req.missing


def test_the_ask_back_names_the_dates_not_told_with_the_amount() -> None:
    """Days of delay alone, no amount: the ask-back names the amount and both dates the
    days only let us assume."""
    req = extract_calc_request(
        "Нужно посчитать пени для компании по налогу на имущество, опоздали с уплатой "
        "где-то на 30 дней.",
        TODAY,
    )
    assert {"amount", "due_date", "payment_date"} <= set(req.missing)
    asked = clarification(req)
    assert asked is not None
    assert "сумма недоимки" in asked and "срок уплаты" in asked and "погашена" in asked


def test_days_of_delay_with_an_amount_still_compute_paid_today() -> None:
    req = extract_calc_request(
        "Посчитайте пени компании: недоимка 40 000 руб., просрочка 30 дней.", TODAY
    )
    assert clarification(req) is None
    assert req.late_days == 30


@pytest.mark.parametrize(
    "question",
    [
        "У компании недоимка по НДС 700 000 руб., срок был 28 октября 2026 г., погасить "
        "сможем только 15 февраля 2027 года. Рассчитайте пени по будущей ключевой ставке.",
        "Налог на прибыль 300 000 руб. нужно было уплатить 28 января 2027 г., заплатим в "
        "апреле 2027 г. Какие будут пени, если ставка будет такой, какую установит Банк "
        "России весной?",
    ],
)
def test_a_key_rate_not_set_yet_is_declined(question: str) -> None:
    assert extract_calc_request(question, TODAY).decline == FUTURE_KEY_RATE


def test_a_past_rate_with_a_future_word_elsewhere_is_not_declined() -> None:
    req = extract_calc_request(
        "Недоимка 50 000 руб., срок уплаты 28 апреля 2025 г., уплатили 10 июня 2025 г. "
        "Организация. Сколько пеней по ставке ЦБ?",
        TODAY,
    )
    assert req.decline is None and clarification(req) is None


async def test_the_future_rate_refusal_says_why_and_gives_the_days() -> None:
    outcome = await ask(
        "У компании недоимка по НДС 700 000 руб., срок был 28 октября 2026 г., погасить "
        "сможем только 15 февраля 2027 года. Рассчитайте пени по будущей ключевой ставке.",
        penalties=False,
    )
    assert outcome.mode == "decline" and "Ответ:" not in outcome.markdown
    assert "ещё не установил" in outcome.markdown
    # 29.10.2026-15.02.2027: 3 + 30 + 31 + 31 + 15 days
    assert "110 дн." in outcome.markdown and "п. 4 ст. 75 НК РФ" in outcome.markdown
