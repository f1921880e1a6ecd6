"""Helpers shared by the Bank of Russia tools: date and code checks, JSON shapes, errors."""

from __future__ import annotations

import re
from datetime import date
from decimal import Decimal
from typing import Any

from finagent.clients.cbr_models import CbrFault, Currency, Rate, RatesOnDate, UnknownCurrencyError
from finagent.clients.errors import CircuitOpenError, is_unavailable
from finagent.tools.base import ToolError

MAIN_CURRENCIES = ("USD", "EUR", "CNY", "GBP", "JPY", "CHF", "KZT", "TRY", "BYN", "AED")
CODE_EXAMPLES = "USD, EUR, CNY, GBP, 840, R01235, «доллар», «евро», «юань»"
KEY_RATE_LOOKBACK_DAYS = 400
DEFAULT_WINDOW_DAYS = 30
MAX_NEWS_ITEMS = 20
_DATE_RE = re.compile(r"\d{4}-\d{2}-\d{2}")
#: The Bank of Russia publishes official rates since 1 July 1992; nothing exists before.
FIRST_DAY = date(1992, 7, 1)


def parse_day(value: str, field: str, today: date) -> date:
    """A ``YYYY-MM-DD`` date that is not in the future, else ToolError."""
    text = value.strip()
    try:
        if not _DATE_RE.fullmatch(text):
            raise ValueError
        day = date.fromisoformat(text)
    except ValueError:
        raise ToolError(f"{field} must be a date in YYYY-MM-DD format, got {value!r}") from None
    if day > today:
        raise ToolError(
            f"{field} {day.isoformat()} is in the future (today is {today.isoformat()}); "
            "the Bank of Russia has no data for future dates"
        )
    if day < FIRST_DAY:  # also keeps the look-back arithmetic away from date.min
        raise ToolError(
            f"{field} {day.isoformat()} is before {FIRST_DAY.isoformat()}; "
            "the Bank of Russia has no data for earlier dates"
        )
    return day


def check_currency_code(code: str) -> None:
    """Refuse numeric codes that cannot be ISO 4217 numbers before they reach the client.

    ISO numbers have at most three decimal digits; other digit strings ('²', '①', 5 000
    digits) would make the client's ``int()`` fail with a ValueError.
    """
    text = code.strip()
    if text.isdigit() and not (text.isdecimal() and len(text) <= 3):
        raise UnknownCurrencyError(code, ["USD", "EUR", "CNY", "GBP", "840", "доллар"])


def service_error(exc: BaseException) -> ToolError:
    """A ToolError the LLM can act on for a client failure."""
    if isinstance(exc, UnknownCurrencyError):
        return ToolError(f"unknown currency {exc.query!r}; examples: {CODE_EXAMPLES}")
    if isinstance(exc, CircuitOpenError):
        return ToolError(
            "the Bank of Russia service is temporarily unavailable after repeated failures; "
            "try again in a minute or answer without live data"
        )
    if is_unavailable(exc):
        return ToolError(f"the Bank of Russia service is unavailable ({exc}); try again later")
    if isinstance(exc, CbrFault):
        return ToolError(f"{exc}; check the dates and the currency code")
    return ToolError(str(exc))


def num(value: Decimal) -> float | int:
    """A JSON number without float noise (Decimal('85.4963') -> 85.4963)."""
    as_float = float(value)
    return int(as_float) if as_float.is_integer() else as_float


def iso_num(value: int | None) -> str | None:
    return f"{value:03d}" if value is not None else None


def rate_json(rate: Rate) -> dict[str, Any]:
    return {
        "code": rate.iso_char,
        "iso_num": iso_num(rate.iso_num),
        "cbr_code": rate.internal_code,
        "name": rate.name,
        "nominal": rate.nominal,
        "value": num(rate.value),
        "unit_rate": num(rate.unit_rate),
    }


def currency_json(currency: Currency) -> dict[str, Any]:
    return {
        "code": currency.iso_char,
        "iso_num": iso_num(currency.iso_num),
        "cbr_code": currency.internal_code,
        "name": currency.name_ru,
    }


def freshness(payload: dict[str, Any], stale: bool, fetched_at: Any) -> dict[str, Any]:
    """Mark a payload served from the stale cache."""
    if stale:
        payload["stale"] = True
        payload["as_of"] = fetched_at.isoformat(timespec="seconds") if fetched_at else None
        payload["stale_note"] = (
            "сервис ЦБ недоступен: показаны ранее полученные данные на дату as_of"
        )
    return payload


def rates_note(result: RatesOnDate) -> str | None:
    if result.rate_date < result.requested_date:
        return (
            f"{result.requested_date.isoformat()} — нерабочий день или курс ещё не установлен: "
            f"действует курс, установленный на {result.rate_date.isoformat()}"
        )
    return None


# --- the tool ------------------------------------------------------------------------------
