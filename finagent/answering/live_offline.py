"""Where the notice of an unavailable Bank of Russia source stands in an offline answer.

A question about today's or a future rate or exchange rate («какая сейчас ключевая
ставка», «курс юаня на завтра», «какой будет курс в декабре») asks live data: the notice
leads, so that no figure of the knowledge base is taken for the current value. A question
about the past — one that names a date, month or year before the turn's date or speaks
of an act already done («ставка, действовавшая в августе 2025 года», «курс, установленный
в пятницу, — в какие дни он действует?», «до скольких процентов ЦБ поднял ставку») — is
answered by the knowledge base and the Code themselves when the sentences they may quote
name every past day, month and year it names: their answer leads and the notice follows
it. So is a question about a standing setting of a rule that a live quantity enters — a
share of the key rate, how often the rate is reviewed, a cap or a target
(``data/standing_values.yaml``) — with no word of today or of the future: the knowledge
base states it, whichever live source (the Bank of Russia or the news) failed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date
from functools import cache
from importlib import resources
from itertools import pairwise

from finagent.language.cues import cue_lemmas, find_cue, has_any
from finagent.language.dates import dates_in, months_in, years_in
from finagent.language.lemmas import done, future_verb, past_participle
from finagent.language.text import analyse
from finagent.moscow_time import moscow_today
from finagent.question.model import Question
from finagent.yaml_data import load_yaml

# the source name its notices carry (finagent.tools.cbr; the tool modules load lazily)
CBR_SOURCE = "Банк России"
# today, tomorrow, a coming period or a forecast: live data, whatever else the question says
_NOW_OR_LATER = frozenset(
    "сейчас сегодня сегодняшний текущий нынешний актуальный завтра завтрашний послезавтра "
    "будущий следующий ближайший прогноз спрогнозировать прогнозировать".split()
)
_WORD = re.compile(r"[А-Яа-яЁё]+")
_FILE = "standing_values.yaml"


@cache
def _standing_table() -> dict[str, tuple[str, ...]]:
    text = resources.files("finagent.answering").joinpath("data", _FILE).read_text("utf-8")
    return {key: tuple(str(w) for w in words) for key, words in load_yaml(text).items()}


def _standing_phrases() -> tuple[str, ...]:
    return _standing_table()["standing"]


def _past_ratio(lemmas: Sequence[str]) -> list[str]:
    """The lemmas with a ratio asked («во сколько раз») blanked: it asks how many times one
    value is another, not how often something is done."""
    read = list(lemmas)
    for phrase in _standing_table()["ratio"]:
        size = len(cue_lemmas(phrase))
        at = find_cue(read, phrase)
        while at >= 0:
            read[at : at + size] = [""] * size
            at = find_cue(read, phrase, at + size)
    return read


def _now_or_later(question: Question) -> bool:
    """A word of today or of the future, or a future verb."""
    words = _WORD.findall(question.text)
    return bool(_NOW_OR_LATER & set(question.lemmas)) or any(future_verb(w) for w in words)


def _turn_day(question: Question) -> date:
    """The turn's own date: the day the question is asked, not a date it names."""
    return question.asked_on or moscow_today()


def _names_before(question: Question, day: date) -> bool:
    """A date, month or year the question names lies before ``day``; so does its as-of
    day when read from its words («на 15 марта 2024 года», «в прошлом году»)."""
    return (
        (question.as_of_source != "implicit" and question.as_of < day)
        or any(d.value < day for d in question.dates)
        or any((m.year, m.month) < (day.year, day.month) for m in question.months)
        or any(y.year < day.year for y in question.years)
    )


def _names_from(question: Question, day: date) -> bool:
    """A date, month or year the question names lies on or after ``day``."""
    return (
        any(d.value >= day for d in question.dates)
        or any((m.year, m.month) >= (day.year, day.month) for m in question.months)
        or any(y.year >= day.year for y in question.years)
    )


def asks_past(question: Question) -> bool:
    """The question is about a date before the turn's own (not before the as-of day, which
    is the date it names) or an act already done, with no word of today or of the
    future."""
    if _now_or_later(question):
        return False
    words = _WORD.findall(question.text)
    return _names_before(question, _turn_day(question)) or any(
        done(w) or past_participle(w) for w in words
    )


def asks_standing(question: Question) -> bool:
    """The question asks a standing setting of a rule («какая доля ключевой ставки», «сколько
    раз в год рассматривают ставку», «потолок ПСК», «цель по инфляции»), not a reading of
    today or of a day to come: no word of today or of the future, no date, month or year
    from the turn's own date on. A frequency it states («раз в месяц») or a ratio it asks
    («во сколько раз вырос курс») is no setting asked."""
    if not has_any(_past_ratio(question.lemmas), _standing_phrases()) or _now_or_later(question):
        return False
    return not _names_from(question, _turn_day(question))


def _past_named(question: Question, day: date) -> tuple[set[date], set[tuple[int, int]], set[int]]:
    """The days, months (year, month) and years the question names before ``day``; a
    month named with no year («в октябре») is of ``day``'s year, and past only when it
    ended before ``day``'s month (a later one may be last year's or the coming one)."""
    days = {d.value for d in question.dates if d.value < day}
    months = {
        (m.year, m.month)
        for m in question.months
        if m.year is not None and (m.year, m.month) < (day.year, day.month)
    }
    bare = [m.month for m in months_in(analyse(question.text)) if m.year is None]
    months |= {(day.year, m) for m in bare if m < day.month}
    years = {y.year for y in question.years if y.year < day.year}
    return days, months, years


# a dated history's next reading comes within about a year; dates further apart are
# unrelated (a law of 2003 and its edition of 2026)
_HISTORY_STEP_DAYS = 400


def _months_between(first: date, last: date) -> set[tuple[int, int]]:
    """Every month from ``first``'s to ``last``'s, both included."""
    start, end = first.year * 12 + first.month - 1, last.year * 12 + last.month - 1
    return {(n // 12, n % 12 + 1) for n in range(start, end + 1)}


def _named_in(quoted: Sequence[str]) -> tuple[set[date], set[tuple[int, int]], set[int]]:
    """The days, months and years the sentences name: a day names its month and year, a
    month its year («С 16 сентября 2024 года …» names September 2024 and 2024), and two
    dates next to each other in time, at most :data:`_HISTORY_STEP_DAYS` apart, the months
    between them: a dated history («28 июля 2025 года — 18 %», «15 сентября 2025 года —
    17 %»; «с 18 декабря 2023 года по 28 июля 2024 года — 16 %») states the reading in each
    month it spans, while a law's date and its edition's, years apart, span nothing."""
    days: set[date] = set()
    months: set[tuple[int, int]] = set()
    years: set[int] = set()
    for sentence in quoted:
        analysed = analyse(sentence)
        days |= {d.value for d in dates_in(analysed)}
        months |= {(m.year, m.month) for m in months_in(analysed) if m.year is not None}
        years |= {y.year for y in years_in(analysed)}
    months |= {(d.year, d.month) for d in days}
    for first, last in pairwise(sorted(days)):
        if (last - first).days <= _HISTORY_STEP_DAYS:
            months |= _months_between(first, last)
    years |= {m[0] for m in months}
    return days, months, years


def holds_named_days(question: Question, quoted: Sequence[str]) -> bool:
    """The sentences the answer may quote name every day, month and year the question names
    before the turn's («ключевая с 27 октября 2025» — «27 октября 2025 года — 16,5 %»; «в
    марте 2024» — a sentence dated in March 2024): a past reading of a daily quantity
    («курс доллара на 14 марта 2025», «ставка в марте 2024», «курс за 2023 год») is only the
    live source's, and a knowledge-base sentence on how the rate is set does not state it."""
    days, months, years = _past_named(question, _turn_day(question))
    if not (days or months or years):
        return True
    held_days, held_months, held_years = _named_in(quoted)
    return days <= held_days and months <= held_months and years <= held_years


def notice_follows(question: Question, notices: Sequence[str], quoted: Sequence[str] = ()) -> bool:
    """Whether the unavailable-source notices go after the answer's lead: only the Bank of
    Russia failed (news are events, always live) and the question is about the past, with
    every past day, month and year it names in the sentences the answer may quote (``quoted``:
    :func:`holds_named_days`), or the question asks a standing setting, which no live
    source quotes."""
    if not notices:
        return False
    only_cbr = all(f"«{CBR_SOURCE}»" in notice for notice in notices)
    past = only_cbr and asks_past(question) and holds_named_days(question, quoted)
    return past or asks_standing(question)
