"""Пени under art. 75 НК РФ: a day-by-day sum on the key rate in force each day.

- p. 3 (as amended by the unified tax account law, 14.07.2022 № 263-ФЗ): пени accrue for
  every calendar day of arrears, from the day after the due date through the day the
  arrears are paid, inclusive;
- p. 4: пеня = arrears x fraction x key rate in force that day;
- the fraction for each payer type and overdue-day range comes from the data table
  ``data/penalty_rates.csv`` (p. 4, and the temporary rules of p. 5 and p. 5.1), each row
  with its legal basis and validity dates.

The overdue-day number counts from the first day of arrears, and each day takes the
row valid on that date (a debt that began in 2024 is on its 40th day in 2025 when the
2025 rule applies). The total is rounded to kopecks once, at the end.
"""

from __future__ import annotations

import csv
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date, timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from functools import lru_cache
from importlib.resources import files
from typing import Literal

Payer = Literal["individual", "organization"]
PAYERS: tuple[Payer, ...] = ("individual", "organization")
KOPECK = Decimal("0.01")
ART_75 = "ст. 75 НК РФ"
EDITION_NOTE = (
    "Текст ст. 75 НК РФ в подключённой редакции Кодекса отсутствует; применены п. 3 ст. 75 "
    "в редакции ФЗ от 14.07.2022 № 263-ФЗ (единый налоговый счёт), п. 4 ст. 75 в редакции "
    "ФЗ от 30.11.2016 № 401-ФЗ и временные правила для организаций из таблицы долей "
    "(п. 5 и п. 5.1 ст. 75)."
)


class PenaltyError(ValueError):
    """The пени cannot be computed for these inputs (the message is Russian)."""


@dataclass(frozen=True)
class PenaltyRule:
    """One row of the fraction table."""

    payer: Payer
    valid_from: date
    valid_to: date | None
    day_from: int
    day_to: int | None
    fraction: Fraction
    basis: str
    source: str

    def applies(self, payer: str, day: date, overdue_day: int) -> bool:
        return (
            self.payer == payer
            and self.valid_from <= day
            and (self.valid_to is None or day <= self.valid_to)
            and self.day_from <= overdue_day
            and (self.day_to is None or overdue_day <= self.day_to)
        )


def _date_or_none(raw: str) -> date | None:
    return date.fromisoformat(raw) if raw.strip() else None


@lru_cache(maxsize=1)
def penalty_rules() -> tuple[PenaltyRule, ...]:
    """The shipped fraction table (finagent/legal/data/penalty_rates.csv)."""
    text = files("finagent.legal").joinpath("data/penalty_rates.csv").read_text("utf-8")
    rules = []
    for row in csv.DictReader(text.splitlines()):
        if row["payer"] not in PAYERS:
            raise ValueError(f"penalty_rates.csv: unknown payer {row['payer']!r}")
        valid_from = _date_or_none(row["valid_from"])
        if valid_from is None:
            raise ValueError("penalty_rates.csv: valid_from is required")
        rules.append(
            PenaltyRule(
                payer=row["payer"],  # type: ignore[arg-type]
                valid_from=valid_from,
                valid_to=_date_or_none(row["valid_to"]),
                day_from=int(row["day_from"]),
                day_to=int(row["day_to"]) if row["day_to"].strip() else None,
                fraction=Fraction(row["fraction"]),
                basis=row["basis"],
                source=row["source"],
            )
        )
    return tuple(rules)


class KeyRateTable:
    """The key rate in force on each day: the last published value on or before it, for
    the days from the first point through ``known_until``."""

    def __init__(self, points: Sequence[tuple[date, Decimal]], known_until: date) -> None:
        ordered = sorted(points)
        self._days = [d for d, _ in ordered]
        self._rates = [r for _, r in ordered]
        self.known_until = known_until

    @property
    def first_day(self) -> date | None:
        return self._days[0] if self._days else None

    def known(self, day: date) -> Decimal | None:
        """The rate in force on ``day``, or None when the table does not know it."""
        i = bisect_right(self._days, day)
        if i == 0 or day > self.known_until:
            return None
        return self._rates[i - 1]

    def rate_on(self, day: date) -> Decimal:
        rate = self.known(day)
        if rate is None:
            raise PenaltyError(f"ключевая ставка Банка России на {day:%d.%m.%Y} неизвестна")
        return rate


@dataclass
class PenaltyPeriod:
    """Consecutive days with the same key rate and fraction; ``key_rate`` and ``amount``
    are None for days whose key rate is unknown (a partial calculation)."""

    date_from: date
    date_to: date
    days: int
    key_rate: Decimal | None
    fraction: Fraction
    basis: str
    amount: Fraction | None  # exact, rounded only for display and in the total

    def as_dict(self) -> dict[str, object]:
        return {
            "date_from": self.date_from.isoformat(),
            "date_to": self.date_to.isoformat(),
            "days": self.days,
            "key_rate": None if self.key_rate is None else f"{self.key_rate:.2f}",
            "fraction": f"{self.fraction.numerator}/{self.fraction.denominator}",
            "amount": None if self.amount is None else f"{to_kopecks(self.amount):.2f}",
            "basis": self.basis,
        }


@dataclass
class Penalty:
    amount: Decimal
    due_date: date
    paid_date: date
    payer: Payer
    days: int
    periods: list[PenaltyPeriod] = field(default_factory=list)
    total: Decimal = Decimal("0.00")  # of the days with a known rate when not complete

    @property
    def citations(self) -> list[str]:
        head = [f"п. 3 {ART_75}", f"п. 4 {ART_75}"]
        return list(dict.fromkeys([*head, *(p.basis.split(":")[0] for p in self.periods)]))

    @property
    def missing(self) -> list[tuple[date, date]]:
        """The date ranges whose key rate is unknown, merged across fraction changes."""
        out: list[tuple[date, date]] = []
        for p in self.periods:
            if p.key_rate is not None:
                continue
            if out and out[-1][1] + timedelta(days=1) == p.date_from:
                out[-1] = (out[-1][0], p.date_to)
            else:
                out.append((p.date_from, p.date_to))
        return out

    @property
    def complete(self) -> bool:
        return all(p.key_rate is not None for p in self.periods)


def compute_penalty(
    amount: Decimal,
    due_date: date,
    paid_date: date,
    payer: str,
    rates: KeyRateTable,
    rules: Sequence[PenaltyRule] | None = None,
    *,
    partial: bool = False,
) -> Penalty:
    """Пени on ``amount`` paid on ``paid_date`` instead of ``due_date``.

    A day whose key rate ``rates`` does not know raises :class:`PenaltyError`; with
    ``partial`` it becomes a period without a rate and an amount instead, and ``total``
    sums the days that have one (``Penalty.missing`` names the others). Paid on or before
    the due date: no day of arrears, so no periods and a zero total (п. 3)."""
    if payer not in PAYERS:
        raise PenaltyError("плательщик: individual (физлицо, ИП) или organization (организация)")
    if not amount.is_finite() or amount <= 0:
        raise PenaltyError("сумма недоимки должна быть положительным числом")
    table = penalty_rules() if rules is None else rules
    late = max((paid_date - due_date).days, 0)
    result = Penalty(amount, due_date, paid_date, payer, late)  # type: ignore[arg-type]
    day = due_date + timedelta(days=1)
    overdue = 1
    current: PenaltyPeriod | None = None
    while day <= paid_date:
        rule = next((r for r in table if r.applies(payer, day, overdue)), None)
        if rule is None:
            raise PenaltyError(_no_rule(table, payer, day))
        rate = rates.known(day) if partial else rates.rate_on(day)
        daily = None if rate is None else Fraction(amount) * Fraction(rate) / 100 * rule.fraction
        if current and current.key_rate == rate and current.fraction == rule.fraction:
            current.date_to = day
            current.days += 1
            if current.amount is not None and daily is not None:
                current.amount += daily
        else:
            current = PenaltyPeriod(day, day, 1, rate, rule.fraction, rule.basis, daily)
            result.periods.append(current)
        day += timedelta(days=1)
        overdue += 1
    known = (p.amount for p in result.periods if p.amount is not None)
    result.total = to_kopecks(sum(known, Fraction(0)))
    return result


_PAYER_RU = {"individual": "физических лиц и ИП", "organization": "организаций"}


def _no_rule(table: Sequence[PenaltyRule], payer: str, day: date) -> str:
    """Why the fraction table has no row for ``day`` and what can be computed instead."""
    rows = [r for r in table if r.payer == payer]
    who = _PAYER_RU.get(payer, payer)
    first = min((r.valid_from for r in rows), default=None)
    ends = [r.valid_to for r in rows]
    last = None if not ends or None in ends else max(e for e in ends if e is not None)
    if first is not None and day < first:
        return (
            f"таблица долей ключевой ставки для {who} начинается с {first:%d.%m.%Y}; для дней "
            f"просрочки до этой даты (с {day:%d.%m.%Y}) правила в ней нет: пени за них "
            "считаются по редакции ст. 75 НК РФ, действовавшей тогда. Могу рассчитать пени "
            f"за дни просрочки начиная с {first:%d.%m.%Y}"
        )
    if last is not None and day > last:
        return (
            f"доли ключевой ставки для {who} в таблице долей установлены по "
            f"{last:%d.%m.%Y}; на дни просрочки после этой даты (с {day:%d.%m.%Y}) правила в "
            f"ней нет. Могу рассчитать пени за дни просрочки по {last:%d.%m.%Y}"
        )
    return (
        f"в таблице долей ключевой ставки нет доли для {who} на {day:%d.%m.%Y}. Могу "
        "рассчитать пени за другие дни просрочки"
    )


def to_kopecks(value: Fraction) -> Decimal:
    """``value`` rounded half up to kopecks."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return exact.quantize(KOPECK, rounding=ROUND_HALF_UP)
