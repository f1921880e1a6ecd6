"""Procedural deadlines under art. 6.1 НК РФ, step by step.

- p. 2: a period starts on the day after the calendar date or event that begins it;
- p. 3: a period in years ends in the corresponding month and day of the last year;
- p. 5: a period in months ends on the corresponding day of the last month; when that
  month has no such day, on its last day;
- p. 6: a period in days is counted in working days unless set in calendar days;
- p. 7: a deadline that falls on a weekend or a non-working holiday moves to the nearest
  following working day.

``days`` here means calendar days (a period the Code sets «в календарных днях»);
``working_days`` is the default meaning of «дней» in the Code (p. 6).
"""

from __future__ import annotations

import calendar as _calendar
from dataclasses import dataclass, field
from datetime import date, timedelta
from typing import Literal

from finagent.legal.calendar import add_working_days, holiday_name, is_working_day

Unit = Literal["days", "working_days", "months", "years"]
UNITS: tuple[Unit, ...] = ("days", "working_days", "months", "years")
ART_6_1 = "ст. 6.1 НК РФ"
MAX_PERIOD = {"days": 3660, "working_days": 2500, "months": 120, "years": 10}
_UNIT_RU = {
    "days": ("календарный день", "календарных дня", "календарных дней"),
    "working_days": ("рабочий день", "рабочих дня", "рабочих дней"),
    "months": ("месяц", "месяца", "месяцев"),
    "years": ("год", "года", "лет"),
}
_WEEKDAYS_RU = ("понедельник", "вторник", "среда", "четверг", "пятница", "суббота", "воскресенье")


def plural(n: int, unit: Unit) -> str:
    """«5 рабочих дней», «1 месяц», «2 года»."""
    one, few, many = _UNIT_RU[unit]
    if n % 10 == 1 and n % 100 != 11:
        word = one
    elif 2 <= n % 10 <= 4 and not 12 <= n % 100 <= 14:
        word = few
    else:
        word = many
    return f"{n} {word}"


def ru_date(day: date) -> str:
    return day.strftime("%d.%m.%Y")


def _day_label(day: date) -> str:
    name = holiday_name(day)
    if not name:
        kind = "выходной день"
    elif name.startswith("Выходной"):
        kind = f"перенесённый выходной день ({name.split('(', 1)[-1].rstrip(')')})"
    else:
        kind = f"нерабочий праздничный день «{name}»"
    return f"{ru_date(day)} ({_WEEKDAYS_RU[day.weekday()]}) — {kind}"


@dataclass(frozen=True)
class Step:
    """One step of a computation and the point of the Code it applies."""

    text: str
    basis: str


@dataclass
class Deadline:
    """The end of one period and how it was found."""

    event_date: date
    period: int
    unit: Unit
    start_date: date
    nominal_end: date
    end_date: date
    steps: list[Step] = field(default_factory=list)
    citations: list[str] = field(default_factory=list)

    @property
    def moved(self) -> bool:
        return self.end_date != self.nominal_end


def add_months(day: date, months: int) -> tuple[date, bool]:
    """The corresponding day ``months`` later, clipped to the month end (and whether clipped)."""
    index = day.year * 12 + day.month - 1 + months
    year, month = divmod(index, 12)
    last = _calendar.monthrange(year, month + 1)[1]
    return date(year, month + 1, min(day.day, last)), day.day > last


def compute_deadline(
    event_date: date, period: int, unit: Unit, basis: str | None = None
) -> Deadline:
    """The last day of ``period`` ``unit`` counted from ``event_date`` (art. 6.1 НК РФ).

    Raises ValueError for a bad period or unit and CalendarYearError for a year the
    production calendar does not cover."""
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}; use one of {', '.join(UNITS)}")
    if not 1 <= period <= MAX_PERIOD[unit]:
        raise ValueError(f"period must be between 1 and {MAX_PERIOD[unit]} {unit}")
    start = event_date + timedelta(days=1)
    steps = [
        Step(
            f"Событие — {ru_date(event_date)}; течение срока начинается на следующий день, "
            f"{ru_date(start)}.",
            f"п. 2 {ART_6_1}",
        )
    ]
    citations = [f"п. 2 {ART_6_1}"]
    if unit == "working_days":
        nominal = add_working_days(event_date, period)
        skipped = sum(
            1
            for i in range((nominal - event_date).days)
            if not is_working_day(start + timedelta(days=i))
        )
        steps.append(
            Step(
                f"Срок {plural(period, unit)} считается только в рабочих днях: с "
                f"{ru_date(start)} по {ru_date(nominal)} пропущено нерабочих дней: {skipped}; "
                f"{period}-й рабочий день — {ru_date(nominal)}.",
                f"п. 6 {ART_6_1}",
            )
        )
        citations.append(f"п. 6 {ART_6_1}")
    elif unit == "days":
        nominal = event_date + timedelta(days=period)
        steps.append(
            Step(
                f"Срок {plural(period, unit)}: последний день — {ru_date(nominal)}.",
                f"п. 6 {ART_6_1}",
            )
        )
        citations.append(f"п. 6 {ART_6_1}")
    else:
        months = period if unit == "months" else period * 12
        nominal, clipped = add_months(event_date, months)
        point = "п. 5" if unit == "months" else "п. 3"
        where = "последнего месяца" if unit == "months" else "того же месяца последнего года"
        text = (
            f"Срок {plural(period, unit)} истекает в соответствующее число {where} срока: "
            f"{ru_date(nominal)}."
        )
        if clipped:
            text = (
                f"Срок {plural(period, unit)}: в последнем месяце срока нет {event_date.day}-го "
                f"числа, срок истекает в последний день месяца — {ru_date(nominal)}."
            )
        steps.append(Step(text, f"{point} {ART_6_1}"))
        citations.append(f"{point} {ART_6_1}")
    end = nominal
    if not is_working_day(end):
        skipped_days = []
        while not is_working_day(end):
            skipped_days.append(_day_label(end))
            end += timedelta(days=1)
        steps.append(
            Step(
                "Последний день срока приходится на нерабочий день ("
                + "; ".join(skipped_days)
                + f"); срок переносится на ближайший следующий рабочий день — {ru_date(end)}.",
                f"п. 7 {ART_6_1}",
            )
        )
        citations.append(f"п. 7 {ART_6_1}")
    steps.append(
        Step(
            f"Действие можно совершить до 24 часов {ru_date(end)}.",
            f"п. 8 {ART_6_1}",
        )
    )
    if basis:
        citations.insert(0, basis)
    return Deadline(
        event_date=event_date,
        period=period,
        unit=unit,
        start_date=start,
        nominal_end=nominal,
        end_date=end,
        steps=steps,
        citations=list(dict.fromkeys(citations)),
    )
