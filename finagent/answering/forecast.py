"""A market quantity's future asked: declined, whatever live source is configured.

No source states a value that is not set yet. A question about a market quantity
(:mod:`finagent.question.forecast`: the key rate, an exchange rate, prices, inflation) as
the subject or the object of its verb, with nothing named that sets it (a law, a contract,
a tax), asks a forecast when it speaks of the future — a verb in the future tense («ЦБ
снизит ключевую?», «какой будет курс»), a word of a coming time or of a forecast («на
следующем заседании», «прогноз») — or names a day, a month or a year to come: a day after
tomorrow («курс евро на 1 марта 2027»), a month after the turn's («в декабре»), a year
after it. Tomorrow is not to come in that sense: the Bank of Russia sets tomorrow's
official rate today, and the live source states it once set («какой курс ЦБ установил на
завтра»), so such a question is left to it.

The decline says why in the quantity's terms: the official exchange rate is set for a day
only the day before; the key rate by the Bank of Russia's board at its meetings, and the
decision of a meeting to come is not known; any other market quantity is a forecast the
sources do not give.
"""

from __future__ import annotations

from datetime import date, timedelta

from finagent.answering import messages
from finagent.answering.abstention import Abstention
from finagent.language.cues import find_cue
from finagent.language.dates import months_in
from finagent.language.text import analyse
from finagent.moscow_time import moscow_today
from finagent.question.forecast import (
    market_phrases,
    market_subjects,
    rule_named,
    speaks_of_future,
    table,
)
from finagent.question.model import Question

_TOMORROW = frozenset({"завтра", "завтрашний"})


def _named_later(question: Question, today: date, months: list[int]) -> bool:
    """A day after tomorrow, a month after the turn's or a year after it is named; a month
    with no year («в декабре») is this year's (``months``: the bare ones)."""
    tomorrow = today + timedelta(days=1)
    return (
        any(d.value > tomorrow for d in question.dates)
        or any((m.year, m.month) > (today.year, today.month) for m in question.months)
        or any(month > today.month for month in months)
        or any(y.year > today.year for y in question.years)
    )


def _only_tomorrow(question: Question, today: date, later: bool) -> bool:
    """Tomorrow is the only time named («курс на завтра», «на 30 ноября» asked on the
    29th): the Bank of Russia sets that day's rate today."""
    tomorrow = today + timedelta(days=1)
    named = bool(_TOMORROW & set(question.lemmas)) or any(
        d.value == tomorrow for d in question.dates
    )
    return named and not later


def _kind(lemmas: list[str], phrases: list[str]) -> str:
    """Which decline words it: the key rate's, the official exchange rate's (a currency
    named, no other market quantity: «курс биткоина» is no official rate) or a forecast's."""
    if any(p in table("key_rate") for p in phrases):
        return "key_rate"
    named = {p for p in market_phrases() if find_cue(lemmas, p) >= 0}
    currency = named & set(table("exchange_rate"))
    if currency and named <= currency | set(table("rate_words")):
        return "exchange_rate"
    return "market"


def forecast_abstention(question: Question) -> Abstention | None:
    """The decline of a market quantity's future (see the module's docstring), or None."""
    analysed = analyse(question.text)
    lemmas = [lm for sentence in analysed.sentences for lm in sentence.lemmas]
    words = [t.text for sentence in analysed.sentences for t in sentence.tokens]
    if len(words) != len(lemmas) or rule_named(lemmas):
        return None
    found = market_subjects(lemmas, words)
    if not found:
        return None
    today = question.asked_on or moscow_today()
    bare = [m.month for m in months_in(analysed) if m.year is None]  # «в марте»: no year
    later = _named_later(question, today, bare)
    if _only_tomorrow(question, today, later):
        return None
    if not (later or speaks_of_future(lemmas, words)):
        return None
    kind = _kind(lemmas, [m.phrase for m in found])
    if kind == "key_rate":
        return Abstention(
            "forecast", messages.ABSTAIN_FUTURE_KEY_RATE, messages.ABSTAIN_FUTURE_KEY_RATE_MISSING
        )
    if kind == "exchange_rate":
        # the day as the question writes it: the answer states no figure of its own
        days = {d.value: d.text for d in question.dates if d.value > today}
        when = (
            messages.ABSTAIN_FUTURE_DAY.format(day=next(iter(days.values())))
            if len(days) == 1
            else messages.ABSTAIN_FUTURE_ANY_DAY
        )
        return Abstention(
            "forecast",
            messages.ABSTAIN_FUTURE_EXCHANGE_RATE.format(when=when),
            messages.ABSTAIN_FUTURE_EXCHANGE_RATE_MISSING,
        )
    return Abstention("forecast", messages.ABSTAIN_FORECAST, messages.ABSTAIN_FORECAST_MISSING)
