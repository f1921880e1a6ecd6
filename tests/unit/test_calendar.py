"""The production calendar: holidays, transferred days off, working Saturdays, coverage."""

from __future__ import annotations

from datetime import date

import pytest

from finagent.legal.calendar import (
    CalendarYearError,
    add_working_days,
    holiday_name,
    is_working_day,
    last_year,
    next_working_day,
)


@pytest.mark.parametrize("day", range(1, 9))
def test_new_year_holidays_are_days_off(day: int) -> None:
    assert not is_working_day(date(2025, 1, day))
    assert not is_working_day(date(2026, 1, day))


@pytest.mark.parametrize(
    "day",
    [
        date(2025, 5, 2),  # from Sat 04.01.2025
        date(2025, 5, 8),  # from Sun 23.02.2025
        date(2025, 6, 13),  # from Sat 08.03.2025
        date(2025, 11, 3),  # from working Sat 01.11.2025
        date(2025, 12, 31),  # from Sun 05.01.2025
        date(2024, 12, 30),  # from working Sat 28.12.2024
        date(2026, 1, 9),  # from Sat 03.01.2026
    ],
)
def test_transferred_days_off_are_not_working(day: date) -> None:
    assert day.weekday() < 5
    assert not is_working_day(day)
    assert "перенесено" in (holiday_name(day) or "").lower()


@pytest.mark.parametrize("day", [date(2024, 4, 27), date(2024, 11, 2), date(2024, 12, 28)])
def test_working_saturdays_are_working_days(day: date) -> None:
    assert day.weekday() == 5
    assert is_working_day(day)


def test_holiday_on_a_weekend_moves_to_monday() -> None:
    # 09.05.2026 is a Saturday: the day off moves to Monday 11.05 (art. 112 ТК РФ)
    assert not is_working_day(date(2026, 5, 11))
    assert next_working_day(date(2026, 5, 9)) == date(2026, 5, 12)


def test_ordinary_days() -> None:
    assert is_working_day(date(2025, 2, 3))
    assert not is_working_day(date(2025, 2, 8))  # an ordinary Saturday
    assert next_working_day(date(2025, 2, 3)) == date(2025, 2, 3)


def test_add_working_days_skips_the_new_year() -> None:
    assert add_working_days(date(2025, 12, 30), 1) == date(2026, 1, 12)
    with pytest.raises(ValueError):
        add_working_days(date(2025, 1, 1), 0)


@pytest.mark.parametrize("year", [last_year() + 1, 2012])
def test_uncovered_year_is_a_clear_error(year: int) -> None:
    with pytest.raises(CalendarYearError, match=f"календарь на {year} год неизвестен"):
        is_working_day(date(year, 3, 3))
