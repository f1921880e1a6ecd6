"""Typed results and errors of the Bank of Russia client."""

from __future__ import annotations

from datetime import date, datetime
from decimal import Decimal

from pydantic import BaseModel

from finagent.clients.errors import ExternalServiceError, TransientServiceError


class CbrError(ExternalServiceError):
    """Base of the Bank of Russia client errors."""


class CbrUnavailable(CbrError, TransientServiceError):
    """Timeout, transport error, 5xx, an HTML page or malformed XML: try again later."""


class CbrFault(CbrError):
    """The service rejected the request with a SOAP Fault (bad input)."""


class UnknownCurrencyError(CbrError, ValueError):
    """The currency is not in the Bank of Russia reference list."""

    def __init__(self, query: str, examples: list[str]) -> None:
        super().__init__(
            f"unknown currency {query!r}; use an ISO code such as {', '.join(examples)}"
        )
        self.query = query
        self.examples = examples


class Cached(BaseModel):
    """Freshness of a result: ``stale`` when served from cache after a failure."""

    stale: bool = False
    fetched_at: datetime | None = None


class Currency(BaseModel):
    """An entry of the EnumValutes reference."""

    internal_code: str  # R01235
    iso_char: str | None  # USD
    iso_num: int | None  # 840
    nominal: int
    name_ru: str
    name_en: str


class Rate(BaseModel):
    """The official rate of one currency: ``value`` roubles for ``nominal`` units."""

    iso_char: str
    iso_num: int | None
    internal_code: str | None = None
    name: str
    nominal: int
    value: Decimal
    unit_rate: Decimal


class RatesOnDate(Cached):
    """All rates in force on ``requested_date``; ``rate_date`` is the date of the rates
    (the last day on or before the requested one on which rates were set)."""

    requested_date: date
    rate_date: date
    rates: list[Rate]


class DynamicPoint(BaseModel):
    date: date
    nominal: int
    value: Decimal
    unit_rate: Decimal


class Dynamics(Cached):
    currency: Currency
    date_from: date
    date_to: date
    points: list[DynamicPoint]


class KeyRatePoint(BaseModel):
    date: date
    rate: Decimal


class KeyRateSeries(Cached):
    date_from: date
    date_to: date
    points: list[KeyRatePoint]  # ascending by date


class NewsItem(BaseModel):
    doc_id: str
    date: date
    title: str
    url: str


class NewsList(Cached):
    date_from: date
    date_to: date
    items: list[NewsItem]


class CurrencyList(Cached):
    currencies: list[Currency]
