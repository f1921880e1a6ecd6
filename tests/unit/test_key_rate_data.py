"""The key-rate history shipped with the package, its as-of date and its validation."""

from __future__ import annotations

from datetime import date, timedelta
from decimal import Decimal

import pytest

from finagent.legal.key_rate_data import (
    KeyRateDataError,
    parse_key_rates,
    shipped_key_rates,
)
from finagent.legal.key_rates import KeyRateSource

CSV = "effective_from,key_rate_percent\n2024-02-05,9.00\n2024-04-15,8.25\n"
META = 'as_of = 2024-05-31\nsource = "test"\n'


def test_the_shipped_history_loads_with_its_as_of_date() -> None:
    shipped = shipped_key_rates()
    assert shipped.source and shipped.steps
    days = [d for d, _ in shipped.steps]
    assert days == sorted(days) and shipped.as_of >= days[-1]
    assert shipped.covers(shipped.first_day, shipped.as_of)
    assert not shipped.covers(shipped.first_day, shipped.as_of + timedelta(days=1))
    assert not shipped.covers(shipped.first_day - timedelta(days=1), shipped.as_of)


def test_parse_reads_steps_and_metadata() -> None:
    got = parse_key_rates(CSV, META)
    assert got.steps == ((date(2024, 2, 5), Decimal("9.00")), (date(2024, 4, 15), Decimal("8.25")))
    assert (got.first_day, got.as_of, got.source) == (date(2024, 2, 5), date(2024, 5, 31), "test")


@pytest.mark.parametrize(
    ("csv_text", "meta", "message"),
    [
        (CSV, 'source = "test"\n', "as_of"),
        (CSV, "as_of = 2024-05-31\n", "source"),
        (CSV, 'as_of = 2024-03-01\nsource = "t"\n', "precedes"),
        (CSV, 'as_of = 2024-05-31T00:00:00\nsource = "t"\n', "as_of"),
        ("effective_from,key_rate_percent\n", META, "no rows"),
        ("effective_from,key_rate_percent\n2024-04-15,8\n2024-02-05,9\n", META, "ascending"),
        ("effective_from,key_rate_percent\n2024-02-05,abc\n", META, "history"),
        ("effective_from,key_rate_percent\n2024-02-05,0\n", META, "outside"),
        (CSV, "as_of = \n", "history"),
    ],
)
def test_malformed_history_is_refused(csv_text: str, meta: str, message: str) -> None:
    with pytest.raises(KeyRateDataError, match=message):
        parse_key_rates(csv_text, meta)


async def test_without_a_client_the_shipped_history_serves_up_to_its_as_of() -> None:
    source = KeyRateSource(None, parse_key_rates(CSV, META))
    inside = await source.history(date(2024, 3, 1), date(2024, 5, 31))
    assert inside.origin == "shipped" and inside.known_until == date(2024, 5, 31)
    assert inside.table.rate_on(date(2024, 4, 14)) == Decimal("9.00")
    past = await source.history(date(2024, 5, 1), date(2024, 6, 10))
    assert past.origin == "no_client" and past.table.known(date(2024, 6, 1)) is None
    assert past.table.known(date(2024, 5, 31)) == Decimal("8.25")
