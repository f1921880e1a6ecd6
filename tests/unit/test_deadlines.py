"""Art. 6.1 НК РФ deadlines: worked examples and properties."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from finagent.legal.calendar import CalendarYearError, is_working_day, last_year
from finagent.legal.deadlines import add_months, compute_deadline


def test_period_starts_the_next_day_and_counts_working_days() -> None:
    d = compute_deadline(date(2025, 2, 3), 5, "working_days", "п. 3 ст. 88 НК РФ")
    assert d.start_date == date(2025, 2, 4)
    assert d.end_date == date(2025, 2, 10)  # Feb 8-9 skipped
    assert [s.basis for s in d.steps] == [
        "п. 2 ст. 6.1 НК РФ",
        "п. 6 ст. 6.1 НК РФ",
        "п. 8 ст. 6.1 НК РФ",
    ]
    assert d.citations[0] == "п. 3 ст. 88 НК РФ"


@pytest.mark.parametrize(
    ("event", "months", "end"),
    [
        (date(2025, 1, 31), 1, date(2025, 2, 28)),  # no 31 Feb: the month's last day
        (date(2024, 1, 31), 1, date(2024, 2, 29)),  # leap year
        (date(2025, 3, 31), 1, date(2025, 4, 30)),  # 30 April, a Wednesday
        (date(2025, 5, 15), 2, date(2025, 7, 15)),
    ],
)
def test_month_ends(event: date, months: int, end: date) -> None:
    d = compute_deadline(event, months, "months")
    assert d.end_date == end and not d.moved
    assert any(s.basis == "п. 5 ст. 6.1 НК РФ" for s in d.steps)


def test_years_from_29_february_end_on_the_month_end_then_move() -> None:
    d = compute_deadline(date(2024, 2, 29), 3, "years")
    assert d.nominal_end == date(2027, 2, 28)  # a Sunday
    assert d.end_date == date(2027, 3, 1)
    assert "п. 7 ст. 6.1 НК РФ" in d.citations


def test_holiday_followed_by_a_weekend_moves_past_both() -> None:
    # 1 month from 09.04.2026 ends on Sat 09.05 (Victory Day), Sun 10.05, Mon 11.05 is the
    # transferred holiday: the deadline is Tue 12.05.2026
    d = compute_deadline(date(2026, 4, 9), 1, "months")
    assert d.nominal_end == date(2026, 5, 9)
    assert d.end_date == date(2026, 5, 12)
    moved = d.steps[-2]
    assert moved.basis == "п. 7 ст. 6.1 НК РФ" and "День Победы" in moved.text


def test_calendar_days_ending_in_the_new_year_holidays() -> None:
    d = compute_deadline(date(2025, 12, 1), 30, "days")
    assert d.nominal_end == date(2025, 12, 31)
    assert d.end_date == date(2026, 1, 12)


def test_working_saturday_counts_as_a_working_day() -> None:
    d = compute_deadline(date(2024, 12, 27), 5, "working_days")
    assert d.end_date == date(2025, 1, 14)  # 28.12.2024 was a working Saturday


def test_bad_inputs() -> None:
    with pytest.raises(ValueError, match="period"):
        compute_deadline(date(2025, 1, 1), 0, "days")
    with pytest.raises(ValueError, match="unknown unit"):
        compute_deadline(date(2025, 1, 1), 1, "weeks")  # type: ignore[arg-type]
    with pytest.raises(CalendarYearError):
        compute_deadline(date(last_year(), 12, 1), 3, "months")


def test_add_months_clips() -> None:
    assert add_months(date(2025, 8, 31), 6) == (date(2026, 2, 28), True)
    assert add_months(date(2025, 12, 15), 1) == (date(2026, 1, 15), False)


UNITS = st.sampled_from(["days", "working_days", "months", "years"])
# the latest event ends three years later before December, so a deadline moved off a
# year-end holiday stays inside the years the calendar covers
EVENTS = st.dates(min_value=date(2014, 1, 1), max_value=date(last_year() - 3, 11, 30))


@settings(max_examples=300, deadline=None)
@given(event=EVENTS, period=st.integers(1, 60), unit=UNITS)
def test_deadline_is_after_the_event_and_a_working_day(event: date, period: int, unit) -> None:  # type: ignore[no-untyped-def]
    if unit == "years":
        period = period % 3 + 1
    elif unit == "months":
        period = min(period, 24)  # stay inside the years the calendar covers
    d = compute_deadline(event, period, unit)
    assert d.end_date > event
    assert d.end_date >= d.nominal_end
    assert is_working_day(d.end_date)
    # nothing between the nominal end and the deadline is a working day
    day = d.nominal_end
    while day < d.end_date:
        assert not is_working_day(day)
        day += timedelta(days=1)


@settings(max_examples=300, deadline=None)
@given(event=EVENTS, period=st.integers(1, 40), unit=UNITS)
def test_deadline_is_monotone_in_the_period(event: date, period: int, unit) -> None:  # type: ignore[no-untyped-def]
    if unit == "years":
        period = period % 2 + 1
    elif unit == "months":
        period = min(period, 23)
    shorter = compute_deadline(event, period, unit).end_date
    longer = compute_deadline(event, period + 1, unit).end_date
    assert shorter <= longer
    if unit == "working_days":
        assert shorter < longer
