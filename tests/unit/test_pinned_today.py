"""``pinned_today``: the evaluation's as-of date reaches code that asks for today."""

from __future__ import annotations

import asyncio
from datetime import date

from finagent.answering.edition import dating_warning
from finagent.moscow_time import moscow_today, pinned_today
from finagent.question.build import build_question


async def test_pinned_date_reaches_tasks_and_is_released() -> None:
    real = moscow_today()
    with pinned_today(date(2031, 5, 4)):
        assert await asyncio.create_task(asyncio.to_thread(moscow_today)) == date(2031, 5, 4)
        with pinned_today(None):
            assert moscow_today() == real
    assert moscow_today() == real


def test_dating_warning_reads_the_pinned_date() -> None:
    # an implicit «now» is the pinned day: a source edition of 2025 is then out of date
    from finagent.state import Chunk

    chunk = Chunk(id="c", text="t", source="law", metadata={"code": "nk", "edition": "2025-01-01"})
    with pinned_today(date(2025, 6, 1)):
        same_year = dating_warning(build_question("Какая ставка НДС?").as_of, [chunk])
    with pinned_today(date(2027, 6, 1)):
        later_year = dating_warning(build_question("Какая ставка НДС?").as_of, [chunk])
    assert same_year is None and later_year is not None and "2027" in later_year
