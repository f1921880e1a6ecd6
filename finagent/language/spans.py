"""Typed spans found in a text: each keeps its value, its offsets and its sentence."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Literal

from pydantic import BaseModel, ConfigDict

from finagent.language.text import Sentence


class Span(BaseModel):
    model_config = ConfigDict(frozen=True)

    text: str  # as written in the source
    start: int  # offsets into the analysed text
    end: int
    sentence: Sentence


class Money(Span):
    amount: Decimal
    currency: str  # ISO 4217: RUB, USD, EUR, CNY


class Percent(Span):
    value: Decimal


class DateMention(Span):
    value: date


class DayOfMonth(Span):
    """«до 10-го числа каждого месяца», «не позднее 5 числа месяца, следующего за
    отчётным»: a recurring term stated by the day of a month, with what it counts from."""

    day: int


class DayMention(Span):
    """A calendar day as a question writes it, the year possibly left out («3 февраля»)."""

    day: int
    month: int
    year: int | None  # None: not written (the reader decides which year is meant)


class YearMention(Span):
    year: int


class MonthMention(Span):
    """«за апрель 2025 г.»: a calendar month, not a day of it, with its year when the text
    states it (None: «в октябре»)."""

    year: int | None
    month: int


PeriodUnit = Literal["hour", "day", "week", "month", "quarter", "year"]
DayKind = Literal["working", "calendar", "banking"]


class Period(Span):
    """«10 рабочих дней со дня получения счёта»: count, unit, kind of day, what it runs from."""

    count: Decimal
    unit: PeriodUnit
    day_kind: DayKind | None = None
    relation: str | None = None  # «в течение», «не позднее», «через», «за» … as written
    anchor: str | None = None  # «со дня получения счёта»


IdentifierLabel = Literal["inn", "kpp", "bik", "ogrn", "account", "corr_account", "number"]


class Identifier(Span):
    label: IdentifierLabel
    value: str
    of: str | None = None  # numbers: the lemma of the word before «№» (договор, акт …)


class Organisation(Span):
    name: str  # «Ромашка-Трейд»
    legal_form: str | None  # ООО, АО, ПАО, ИП …


class Person(Span):
    name: str
