"""The пени answer's text: which key-rate history served, and the partial answer."""

from __future__ import annotations

from typing import Any

from finagent.answering.penalty_text import history_note, partial_penalty

BASIS = "п. 4 ст. 75 НК РФ"


def _row(payer: str, fractions: tuple[str, str], partial_total: str) -> dict[str, Any]:
    return {
        "amount": "60000.00",
        "due_date": "2024-03-10",
        "paid_date": "2024-04-20",
        "payer": payer,
        "days": 41,
        "periods": [
            {
                "date_from": "2024-03-11",
                "date_to": "2024-03-31",
                "days": 21,
                "key_rate": "15.00",
                "fraction": fractions[0],
                "amount": partial_total,
                "basis": BASIS,
            },
            {
                "date_from": "2024-04-01",
                "date_to": "2024-04-20",
                "days": 20,
                "key_rate": None,
                "fraction": fractions[1],
                "amount": None,
                "basis": BASIS,
            },
        ],
        "citations": ["п. 3 ст. 75 НК РФ", BASIS],
        "complete": False,
        "partial_total": partial_total,
        "missing_rates": [{"date_from": "2024-04-01", "date_to": "2024-04-20"}],
    }


SHIPPED = {"source": "shipped", "known_from": "2023-01-09", "known_until": "2024-03-31"}


def test_the_note_names_the_history_and_its_date() -> None:
    shipped = history_note(SHIPPED)
    assert shipped == (
        "> Ключевая ставка: встроенная история ставок Банка России по состоянию на 31.03.2024."
    )
    fresh = history_note(
        {"source": "cbr", "known_until": "2024-05-02", "fetched_at": "2024-05-02T09:30:00+00:00"}
    )
    assert fresh == "> Ключевая ставка: данные Банка России, загружены 02.05.2024 12:30 МСК."
    stale = history_note(
        {
            "source": "cbr",
            "known_until": "2024-05-02",
            "fetched_at": "2024-05-01T20:05:00+00:00",
            "stale": True,
        }
    )
    assert stale is not None and "загруженные ранее (01.05.2024 23:05 МСК)" in stale
    assert "сейчас Банк России недоступен" in stale
    assert history_note({}) is None


def test_partial_answer_for_one_payer_names_the_missing_dates_and_the_formula() -> None:
    data = {"key_rates": {**SHIPPED, "cbr": "not_configured"}, "edition": "редакция"}
    text = "\n".join(
        partial_penalty([_row("individual", ("1/300", "1/300"), "630.00")], True, ["x"], data)
    )
    assert "Ответ:" not in text
    assert "на даты с 01.04.2024 по 20.04.2024 (20 дн. просрочки) нет" in text
    assert (
        "охватывает даты с 09.01.2023 по 31.03.2024, а источник Банка России не подключён" in text
    )
    assert "за 21 дн. с известной ставкой — **630,00 руб.**" in text
    assert "| 01.04.2024 – 20.04.2024 | 20 | нет данных | 1/300 | — |" in text
    assert "60 000,00 руб. × 1/300 × ставка / 100 × 20" in text
    assert "> Допущение: x." in text


def test_partial_answer_without_a_payer_shows_both_only_when_they_differ() -> None:
    data = {"key_rates": {**SHIPPED, "cbr": "unavailable"}}
    same = [_row(p, ("1/300", "1/300"), "630.00") for p in ("individual", "organization")]
    one = "\n".join(partial_penalty(same, False, [], data))
    assert "любой плательщик" in one and "уточните" not in one
    differ = [
        _row("individual", ("1/300", "1/300"), "630.00"),
        _row("organization", ("1/300", "1/150"), "630.00"),
    ]
    both = "\n".join(partial_penalty(differ, False, [], data))
    assert "(физическое лицо / ИП)" in both and "(организация)" in both
    assert "уточните, кто платит" in both and "Банк России сейчас недоступен" in both
    assert "60 000,00 руб. × 1/150 × ставка / 100 × 20" in both
