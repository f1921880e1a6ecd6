from __future__ import annotations

from datetime import date

from finagent.routing.expansion import expand_query
from finagent.routing.live_params import cbr_arguments, find_currencies, news_arguments

TODAY = date(2026, 11, 22)


def test_currency_on_a_written_date() -> None:
    assert cbr_arguments("курс доллара на 1 апреля 2025", TODAY) == {
        "mode": "currency",
        "date": "2025-04-01",
        "code": "USD",
    }


def test_key_rate_today_and_on_dotted_date() -> None:
    assert cbr_arguments("какая ключевая ставка сейчас", TODAY) == {
        "mode": "key_rate",
        "date": "2026-11-22",
    }
    assert cbr_arguments("ключевая ставка на 28.10.2024", TODAY)["date"] == "2024-10-28"


def test_dynamics_between_two_dates() -> None:
    args = cbr_arguments("динамика евро с 2024-01-01 по 2024-02-01", TODAY)
    assert args == {
        "mode": "dynamics",
        "code": "EUR",
        "date_from": "2024-01-01",
        "date_to": "2024-02-01",
    }


def test_invalid_date_is_ignored_not_raised() -> None:
    assert cbr_arguments("курс usd на 31.02.2024", TODAY)["date"] == "2026-11-22"


def test_currency_words_and_codes() -> None:
    assert find_currencies("сколько юаней в евро и USD") == ["CNY", "EUR", "USD"]


def test_news_query() -> None:
    assert news_arguments("новости о ключевой ставке")["query"] == "новости о ключевой ставке"


def test_expansion_spells_out_abbreviations_and_keeps_original_first() -> None:
    variants = expand_query("Какая ставка НДС?")
    assert variants[0] == "Какая ставка НДС?"
    assert any("налог на добавленную стоимость" in v for v in variants)
    assert len(variants) <= 3
