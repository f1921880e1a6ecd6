"""The Russian production calendar: which days are working days (art. 6.1 p. 6-7 НК РФ).

Built on the ``holidays`` library: its Russia calendar has the public holidays of the
Labour Code (art. 112 ТК РФ), the days off transferred by the government's yearly decree,
and the Saturdays and Sundays made working days by those decrees (``weekend_workdays``).
A year after the last one the library has a transfer decree for is not covered: the
calendar raises :class:`CalendarYearError` instead of guessing.
"""

from __future__ import annotations

from datetime import date, timedelta
from functools import lru_cache

# ``holidays`` is imported inside the functions: it is slow to import, and commands such as
# ``finagent tools list`` load this module without computing a date.

# the first year with today's New Year holidays (Jan 1-6 and 8) and the 2013 transfer rules
FIRST_YEAR = 2013


@lru_cache(maxsize=1)
def last_year() -> int:
    """The last year the library has the government's transfer decree for."""
    from holidays.countries.russia import RussiaStaticHolidays

    return max(RussiaStaticHolidays.special_public_holidays)


class CalendarYearError(ValueError):
    """The production calendar of this year is not known."""

    def __init__(self, year: int) -> None:
        self.year = year
        super().__init__(
            f"производственный календарь на {year} год неизвестен: поддерживаются "
            f"{FIRST_YEAR}–{last_year()} годы (переносы выходных утверждаются "
            "постановлением Правительства РФ на каждый год)"
        )


@lru_cache(maxsize=64)
def _year(year: int) -> tuple[frozenset[date], frozenset[date]]:
    """Non-working weekdays (holidays and transferred days off) and working weekend days."""
    import holidays

    if not FIRST_YEAR <= year <= last_year():
        raise CalendarYearError(year)
    calendar = holidays.country_holidays("RU", years=year)
    days_off = frozenset(d for d in calendar if d.year == year)
    working_weekend = frozenset(d for d in calendar.weekend_workdays if d.year == year)
    return days_off, working_weekend


def is_working_day(day: date) -> bool:
    """A working day: not a Saturday or Sunday (unless made working), not a holiday or a
    transferred day off. Raises CalendarYearError for a year the calendar does not cover."""
    days_off, working_weekend = _year(day.year)
    if day in working_weekend:
        return True
    return day.weekday() < 5 and day not in days_off


def holiday_name(day: date) -> str | None:
    """The Russian name of the holiday or transferred day off on ``day``, if any."""
    import holidays

    _year(day.year)
    return holidays.country_holidays("RU", years=day.year, language="ru").get(day)


def next_working_day(day: date) -> date:
    """``day`` itself when it is a working day, else the nearest following working day."""
    while not is_working_day(day):
        day += timedelta(days=1)
    return day


def add_working_days(start: date, count: int) -> date:
    """The ``count``-th working day after ``start`` (``start`` itself is not counted)."""
    if count < 1:
        raise ValueError("the number of working days must be positive")
    day = start
    left = count
    while left:
        day += timedelta(days=1)
        if is_working_day(day):
            left -= 1
    return day
