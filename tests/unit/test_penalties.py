"""Пени (art. 75 НК РФ): the fraction table and the day-by-day sum."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest

from finagent.legal.key_rate_data import shipped_key_rates
from finagent.legal.penalties import (
    KeyRateTable,
    PenaltyError,
    compute_penalty,
    penalty_rules,
)


@pytest.fixture(scope="module")
def rates() -> KeyRateTable:
    """The shipped steps, taken as known up to 23.11.2026 (the last step holding)."""
    return KeyRateTable(shipped_key_rates().steps, date(2026, 11, 23))


def test_every_row_has_a_basis_and_no_two_rows_overlap() -> None:
    rules = penalty_rules()
    assert rules
    for rule in rules:
        assert "ст. 75 НК РФ" in rule.basis and rule.source
        assert rule.valid_to is None or rule.valid_from <= rule.valid_to
    day = date(2017, 10, 1)
    while day <= date(2026, 12, 31):  # exactly one row per payer, day and overdue day
        for payer in ("individual", "organization"):
            for overdue in (1, 30, 31, 90, 91, 400):
                hits = [r for r in rules if r.applies(payer, day, overdue)]
                assert len(hits) == 1, (payer, day, overdue)
        day += timedelta(days=17)


def test_individual_one_three_hundredth(rates: KeyRateTable) -> None:
    p = compute_penalty(Decimal(100000), date(2025, 4, 28), date(2025, 5, 15), "individual", rates)
    assert p.days == 17  # from the day after the due date through the payment date
    assert p.total == Decimal("1190.00")


def test_organization_2025_crosses_the_30_day_boundary_and_a_rate_change(
    rates: KeyRateTable,
) -> None:
    p = compute_penalty(
        Decimal(1000000), date(2025, 5, 25), date(2025, 7, 15), "organization", rates
    )
    got = [(x.date_from, x.date_to, x.days, x.key_rate, str(x.fraction)) for x in p.periods]
    assert got == [
        (date(2025, 5, 26), date(2025, 6, 8), 14, Decimal("21.00"), "1/300"),
        (date(2025, 6, 9), date(2025, 6, 24), 16, Decimal("20.00"), "1/300"),
        (date(2025, 6, 25), date(2025, 7, 15), 21, Decimal("20.00"), "1/150"),
    ]
    assert p.total == Decimal("48466.67")  # 9800 + 10666.666... + 28000, rounded once


def test_organization_moratorium_then_2025_rule(rates: KeyRateTable) -> None:
    p = compute_penalty(
        Decimal(200000), date(2024, 11, 28), date(2025, 1, 31), "organization", rates
    )
    assert [(x.days, str(x.fraction)) for x in p.periods] == [(33, "1/300"), (31, "1/150")]
    assert p.total == Decimal("13300.00")
    assert any("п. 5.1 ст. 75" in c for c in p.citations)


def test_third_stage_from_day_91(rates: KeyRateTable) -> None:
    p = compute_penalty(
        Decimal(5000000), date(2025, 1, 28), date(2025, 5, 28), "organization", rates
    )
    assert [(x.days, str(x.fraction)) for x in p.periods] == [
        (30, "1/300"),
        (60, "1/150"),
        (30, "1/300"),
    ]
    assert p.total == Decimal("630000.00")


@pytest.mark.parametrize("paid", [date(2025, 5, 1), date(2025, 4, 20)])
def test_a_payment_not_after_the_due_date_has_no_penalty(rates: KeyRateTable, paid: date) -> None:
    p = compute_penalty(Decimal(1000), date(2025, 5, 1), paid, "organization", rates)
    assert p.days == 0 and p.periods == [] and p.complete and p.total == Decimal("0.00")


@pytest.mark.parametrize(
    ("args", "message"),
    [
        ((Decimal(-5), date(2025, 5, 1), date(2025, 5, 9), "individual"), "положительным"),
        ((Decimal(5), date(2025, 5, 1), date(2025, 5, 9), "ип"), "плательщик"),
        ((Decimal(5), date(2022, 1, 1), date(2022, 1, 9), "individual"), "неизвестна"),
        ((Decimal(5), date(2026, 11, 20), date(2026, 11, 30), "individual"), "неизвестна"),
    ],
)
def test_errors_are_clear(rates: KeyRateTable, args: tuple, message: str) -> None:  # type: ignore[type-arg]
    with pytest.raises(PenaltyError, match=message):
        compute_penalty(*args, rates)


def test_partial_sums_the_known_days_and_names_the_unknown_ones() -> None:
    # invented steps: 10 % from 01.03.2025, 12 % from 20.03.2025, known through 31.03.2025
    table = KeyRateTable(
        [(date(2025, 3, 1), Decimal("10.00")), (date(2025, 3, 20), Decimal("12.00"))],
        date(2025, 3, 31),
    )
    p = compute_penalty(
        Decimal(300000), date(2025, 3, 9), date(2025, 4, 12), "organization", table, partial=True
    )
    assert not p.complete
    assert p.missing == [(date(2025, 4, 1), date(2025, 4, 12))]  # merged across 1/300 → 1/150
    got = [(x.date_from, x.days, x.key_rate, str(x.fraction)) for x in p.periods]
    assert got == [
        (date(2025, 3, 10), 10, Decimal("10.00"), "1/300"),
        (date(2025, 3, 20), 12, Decimal("12.00"), "1/300"),
        (date(2025, 4, 1), 8, None, "1/300"),  # overdue days 23-30
        (date(2025, 4, 9), 4, None, "1/150"),  # from the 31st day
    ]
    # 300 000 × (10 % × 10 + 12 % × 12) / 300: only the days with a known rate
    assert p.total == Decimal("2440.00")
    assert p.periods[2].as_dict()["key_rate"] is None and p.periods[2].as_dict()["amount"] is None
    before = compute_penalty(
        Decimal(1000), date(2025, 2, 20), date(2025, 3, 3), "individual", table, partial=True
    )
    assert before.missing == [(date(2025, 2, 21), date(2025, 2, 28))]  # before the first step
    full = compute_penalty(
        Decimal(1000), date(2025, 3, 2), date(2025, 3, 5), "individual", table, partial=True
    )
    assert full.complete and full.missing == []
