"""Dates in a Russian question: «3 февраля 2025 г.», «3-го февраля», «03.02.2025»,
«восьмого апреля 2025 года», ISO dates, day ranges («с 1 по 31 июля 2025») and a year
shared by neighbouring dates."""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from finagent.russian_months import MONTHS

_MONTH_RE = (
    r"(январ[ьяе]|феврал[ьяе]|марта?|марте|апрел[ьяе]|ма[яйе]|июн[ьяе]|июл[ьяе]|августа?"
    r"|августе|сентябр[ьяе]|октябр[ьяе]|ноябр[ьяе]|декабр[ьяе])"
)
_TEXT_DATE = re.compile(
    rf"\b(\d{{1,2}})(?:-?го|-е)?\s+{_MONTH_RE}(?:\s+(\d{{4}})\s*(?:г\.|года|г\b)?)?", re.IGNORECASE
)
# «восьмого апреля 2025 года», «двадцать девятого октября»: the day as an ordinal word
_ORDINALS = {
    "одиннадцат": 11,
    "двенадцат": 12,
    "тринадцат": 13,
    "четырнадцат": 14,
    "пятнадцат": 15,
    "шестнадцат": 16,
    "семнадцат": 17,
    "восемнадцат": 18,
    "девятнадцат": 19,
    "двадцат": 20,
    "тридцат": 30,
    "перв": 1,
    "втор": 2,
    "трет": 3,
    "четверт": 4,
    "пят": 5,
    "шест": 6,
    "седьм": 7,
    "восьм": 8,
    "девят": 9,
    "десят": 10,
}
_WORD_DATE = re.compile(
    r"\b(?:(двадцать|тридцать)\s+)?(" + "|".join(_ORDINALS) + r")(?:ого|ое|ьего|ье|его)\s+"
    rf"{_MONTH_RE}(?:\s+(\d{{4}})\s*(?:г\.|года|г\b)?)?",
    re.IGNORECASE,
)
# «с 1 по 31 июля 2025»: the first day takes the month (and year) of the second
_DAY_RANGE = re.compile(
    rf"\b(?:с|со)\s+(\d{{1,2}})(?:-?го)?\s+(?:по|до)\s+\d{{1,2}}(?:-?го)?\s+{_MONTH_RE}"
    r"(?:\s+(\d{4}))?",
    re.IGNORECASE,
)
# «2 июня сего года (2025)»: the year given in brackets after «сего/этого года»
_THIS_YEAR_STATED = re.compile(
    r"\s+(?:сего|этого|текущего|нынешнего)\s+года\s*\(\s*(\d{4})\s*(?:г\.?|года)?\s*\)",
    re.IGNORECASE,
)
_DOTTED = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4}|\d{2})\b")
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


@dataclass(frozen=True)
class FoundDate:
    day: date
    start: int
    end: int
    year_given: bool


def _month(word: str) -> int:
    w = word.lower()
    for stem, number in MONTHS.items():
        if w.startswith(stem) and (stem != "ма" or w[:3] in ("мая", "май", "мае")):
            return number
    raise ValueError(word)


def find_dates(text: str, today: date) -> list[FoundDate]:
    """Dates in ``text`` in order; a date without a year takes ``today``'s year."""
    found: list[FoundDate] = []
    for m in _ISO.finditer(text):
        try:
            found.append(FoundDate(date(int(m[1]), int(m[2]), int(m[3])), m.start(), m.end(), True))
        except ValueError:
            continue
    for m in _DOTTED.finditer(text):
        year = int(m[3]) + (2000 if len(m[3]) == 2 else 0)
        try:
            found.append(FoundDate(date(year, int(m[2]), int(m[1])), m.start(), m.end(), True))
        except ValueError:
            continue
    for m in _TEXT_DATE.finditer(text):
        stated = None if m[3] else _THIS_YEAR_STATED.match(text, m.end())
        year = int(m[3]) if m[3] else int(stated[1]) if stated else today.year
        try:
            day = date(year, _month(m[2]), int(m[1]))
        except ValueError:
            continue
        end = stated.end() if stated else m.end()
        found.append(FoundDate(day, m.start(), end, bool(m[3] or stated)))
    for m in _WORD_DATE.finditer(text):
        tens = {"двадцать": 20, "тридцать": 30}.get((m[1] or "").lower(), 0)
        stated = None if m[4] else _THIS_YEAR_STATED.match(text, m.end())
        year = int(m[4]) if m[4] else int(stated[1]) if stated else today.year
        try:
            day = date(year, _month(m[3]), tens + _ORDINALS[m[2].lower()])
        except ValueError:
            continue
        end = stated.end() if stated else m.end()
        found.append(FoundDate(day, m.start(), end, bool(m[4] or stated)))
    for m in _DAY_RANGE.finditer(text):
        year = int(m[3]) if m[3] else today.year
        try:
            day = date(year, _month(m[2]), int(m[1]))
        except ValueError:
            continue
        found.append(FoundDate(day, m.start(1), m.end(1), bool(m[3])))
    found.sort(key=lambda f: f.start)
    unique = [
        f for i, f in enumerate(found) if not any(g.start <= f.start < g.end for g in found[:i])
    ]
    return _shared_years(text, unique)


def _shared_years(text: str, dates: list[FoundDate]) -> list[FoundDate]:
    """«с 29 июля по 15 октября 2024 года»: a date without a year takes the year of the
    date right after it (the year before when it would fall after that date)."""
    out = list(dates)
    for i in range(len(out) - 2, -1, -1):
        d, nxt = out[i], out[i + 1]
        gap = text[d.end : nxt.start]
        if d.year_given or not nxt.year_given or len(gap) > 40 or re.search(r"[.;!?]", gap):
            continue
        year = (
            nxt.day.year
            if (d.day.month, d.day.day) <= (nxt.day.month, nxt.day.day)
            else (nxt.day.year - 1)
        )
        try:
            out[i] = FoundDate(d.day.replace(year=year), d.start, d.end, True)
        except ValueError:  # 29 February in a common year
            continue
    return out
