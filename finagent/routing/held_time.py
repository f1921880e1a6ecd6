"""Whether the days and months a question names are days the user's documents speak of.

«На какую сумму ушёл единый налоговый платёж 28 марта?», «сколько ушло в марте 2025?»:
an act told in the past on a day or in a month that a held document dates one of its lines
by (a statement's operation, a schedule's payment) is an event of the user's records, not
a rule of the law (whose articles date no event of the user's). The question's days come
from the typed question's language layer (``days_in``: «28 марта», «03.02.2025»), its
months from ``months_in`` («в марте 2025», or a month's name alone: «в марте»); a card's
days are its date facts and its own date.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from datetime import date

from finagent.cards.model import DocumentCard
from finagent.language.dates import days_in, months_in
from finagent.language.text import analyse


def held_days(cards: Sequence[DocumentCard]) -> set[date]:
    """Every day the cards date something by: their date facts and their own dates."""
    found: set[date] = set()
    for value in _iso_values(cards):
        try:
            found.add(date.fromisoformat(value))
        except ValueError:
            continue
    return found


def _iso_values(cards: Sequence[DocumentCard]) -> Iterable[str]:
    for card in cards:
        if card.date:
            yield card.date
        yield from (fact.value for fact in card.facts if fact.kind == "date")


def names_held_time(text: str, cards: Sequence[DocumentCard]) -> bool:
    """The question names a day or a month some held document dates a line by: a day with
    its year exactly, a day without its year by its day and month; a month with its year by
    both, a month's name alone by the month."""
    days = held_days(cards)
    if not days:
        return False
    analysed = analyse(text)
    mentioned = days_in(analysed)
    for day in mentioned:
        if any(
            held.day == day.day
            and held.month == day.month
            and (day.year is None or held.year == day.year)
            for held in days
        ):
            return True
    if mentioned:
        return False  # a day of its own that no document dates: not their month either
    months = months_in(analysed)
    dated = [m for m in months if m.year is not None]
    if any((m.year, m.month) in {(h.year, h.month) for h in days} for m in dated):
        return True
    if dated:
        return False
    return bool({m.month for m in months} & {h.month for h in days})
