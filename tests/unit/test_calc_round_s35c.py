"""Stop 35, round 3: the пени path where the key-rate history or the share table ends
(issue #26 point 5): every user-facing message Russian, naming what is missing and what
the user can do; wording ours, not an eval item's."""

from __future__ import annotations

from datetime import date
from decimal import Decimal

import pytest

from finagent.answering.penalty_text import partial_penalty
from finagent.legal.penalties import KeyRateTable, PenaltyError, compute_penalty
from tests.unit.calc_reading import ask

TECHNICAL = ("таблице долей на", "must", "individual", "organization", "None")


def plain(markdown: str) -> None:
    assert not any(t in markdown for t in TECHNICAL), markdown


async def test_both_dates_after_today_explain_rates_not_set_yet() -> None:
    # no word of a future rate: the dates alone put the arrears after today (23.11.2026)
    outcome = await ask(
        "ООО должно заплатить налог 250 000 руб. 15 марта 2027 г., а погасит долг "
        "1 июня 2027 г. Сколько пеней набежит?"
    )
    assert outcome.mode == "decline" and "Ответ:" not in outcome.markdown
    text = outcome.markdown
    assert "ещё не установил" in text and "п. 3 ст. 75 НК РФ" in text
    assert "п. 4 ст. 75 НК РФ" in text
    # 16.03.2027-01.06.2027: 16 + 30 + 31 + 1 days
    assert "78 дн.: с 16.03.2027 по 01.06.2027" in text
    assert "250 000,00 руб. × доля × ключевая ставка" in text
    assert "ещё не наступил, на сегодня пеней нет" in text
    plain(text)


async def test_a_payment_after_today_offers_to_count_to_today() -> None:
    outcome = await ask(
        "Физлицо не уплатило 40 000 руб. в срок 1 октября 2026 г., заплатит 10 января "
        "2027 г. Сколько пеней?"
    )
    assert outcome.mode == "decline" and "Ответ:" not in outcome.markdown
    assert "101 дн.: с 02.10.2026 по 10.01.2027" in outcome.markdown
    assert "Могу посчитать пени на сегодня" in outcome.markdown
    plain(outcome.markdown)


async def test_a_gap_before_the_history_names_its_start_not_a_later_date() -> None:
    outcome = await ask(
        "Организация, недоимка 80 000 руб., срок уплаты 25 июля 2022 г., погашена "
        "3 октября 2022 г. Посчитайте пени."
    )
    text = outcome.markdown
    assert "Ответ:" not in text and "с 26.07.2022 по 18.09.2022" in text
    assert "встроенная история ставок начинается с 19.09.2022" in text
    assert "более поздние" not in text
    plain(text)


def test_the_cbr_history_names_a_gap_before_it_and_after_it() -> None:
    row = {
        "amount": "10000.00",
        "due_date": "2013-09-01",
        "paid_date": "2013-10-01",
        "payer": "individual",
        "days": 30,
        "periods": [
            {
                "date_from": "2013-09-02",
                "date_to": "2013-09-12",
                "days": 11,
                "key_rate": None,
                "fraction": "1/300",
                "amount": None,
                "basis": "п. 4 ст. 75 НК РФ",
            }
        ],
        "citations": ["п. 4 ст. 75 НК РФ"],
        "complete": False,
        "partial_total": "100.00",
        "missing_rates": [{"date_from": "2013-09-02", "date_to": "2013-09-12"}],
    }
    cbr = {"source": "cbr", "known_from": "2013-09-13", "known_until": "2026-11-23"}
    text = "\n".join(partial_penalty([row], True, [], {"key_rates": cbr}))
    assert "история ставок Банка России начинается с 13.09.2013" in text
    assert "более поздние" not in text
    later = {**row, "missing_rates": [{"date_from": "2026-11-24", "date_to": "2026-11-30"}]}
    text = "\n".join(partial_penalty([later], True, [], {"key_rates": cbr}))
    assert "известна по 23.11.2026, на более поздние даты её ещё нет" in text


@pytest.mark.parametrize(
    ("due", "paid", "payer", "said"),
    [
        (date(2016, 3, 1), date(2016, 4, 1), "individual", "начинается с 01.10.2017"),
        (date(2026, 12, 20), date(2027, 1, 20), "organization", "установлены по 31.12.2026"),
    ],
)
def test_the_share_table_edges_say_what_is_missing_and_what_can_be_done(
    due: date, paid: date, payer: str, said: str
) -> None:
    rates = KeyRateTable([(date(2013, 9, 13), Decimal("10"))], date(2027, 12, 31))
    with pytest.raises(PenaltyError) as raised:
        compute_penalty(Decimal("1000"), due, paid, payer, rates, partial=True)
    message = str(raised.value)
    assert said in message and "Могу рассчитать пени" in message
    plain(message)


async def test_a_share_table_edge_reaches_the_reader_in_russian() -> None:
    outcome = await ask(
        "ИП, недоимка 12 000 руб., срок уплаты 1 декабря 2016 г., уплачено 20 января "
        "2017 г. Сколько пеней?"
    )
    assert outcome.mode == "decline" and "Ответ:" not in outcome.markdown
    assert "начинается с 01.10.2017" in outcome.markdown
    assert "Могу рассчитать пени за дни просрочки начиная с 01.10.2017" in outcome.markdown
    plain(outcome.markdown)


@pytest.mark.parametrize(
    ("question", "when"),
    [
        (
            "Недоимка 30 000 руб., срок уплаты 28 июля 2025 г., перечислили 21 июля 2025 г. "
            "Организация. Сколько пеней?",
            "до срока уплаты",
        ),
        (
            "Срок уплаты налога 30 000 руб. — 28 июля 2025 г., уплачено 28 июля 2025 г. "
            "Какие пени?",
            "в срок",
        ),
        (
            # «срок уплаты» is cut from the date by a long amount: still the due date
            "Срок уплаты транспортного налога 128 500 руб. 40 коп. — 2 марта 2026 г., а "
            "ИП заплатил 25 февраля 2026 г. Пени есть?",
            "до срока уплаты",
        ),
    ],
)
async def test_a_payment_not_after_the_due_date_has_no_penalty(question: str, when: str) -> None:
    outcome = await ask(question)
    assert outcome.mode == "answer"
    assert "**Ответ: 0,00 руб.** — пени не начисляются" in outcome.markdown
    assert when in outcome.markdown and "п. 3 ст. 75 НК РФ" in outcome.markdown
    plain(outcome.markdown)


async def test_a_zero_amount_is_asked_back() -> None:
    outcome = await ask(
        "Недоимка 0 руб., срок уплаты 28 июля 2025 г., уплатили 20 августа 2025 г. Пени?"
    )
    assert outcome.mode == "clarify" and "сумма недоимки" in outcome.markdown
