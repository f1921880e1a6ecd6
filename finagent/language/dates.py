"""Dates and years: «15 января 2025 г.», «13.03.2025», «2025-03-13», «в 2025 году»; the
as-of date of a question («сейчас», «в этом году», «в 2025 году», implicit: today)."""

from __future__ import annotations

from datetime import date
from typing import Literal

from pydantic import BaseModel

from finagent.language.cues import has_any
from finagent.language.numbers import is_digits
from finagent.language.spans import DateMention, DayOfMonth, YearMention
from finagent.language.text import Analysed, AnalysedSentence, Token

MONTHS = {
    "январь": 1,
    "февраль": 2,
    "март": 3,
    "апрель": 4,
    "май": 5,
    "июнь": 6,
    "июль": 7,
    "август": 8,
    "сентябрь": 9,
    "октябрь": 10,
    "ноябрь": 11,
    "декабрь": 12,
}
_YEAR_WORDS = {"год", "г"}
_MIN_YEAR, _MAX_YEAR = 1990, 2100


def _year(text: str) -> int | None:
    if len(text) == 4 and is_digits(text) and _MIN_YEAR <= int(text) <= _MAX_YEAR:
        return int(text)
    return None


def _day(text: str) -> int | None:
    head = text.split("-")[0]  # «5-го»
    if is_digits(head) and 1 <= int(head) <= 31:
        return int(head)
    return None


def _numeric(text: str) -> date | None:
    """«13.03.2025», «13.03.25», «2025-03-13»."""
    for sep in (".", "-"):
        parts = text.split(sep)
        if len(parts) == 3 and all(is_digits(p) for p in parts):
            if sep == "-" and len(parts[0]) == 4:
                y, m, d = (int(p) for p in parts)
            elif sep == "." and len(parts[2]) in (2, 4):
                d, m, y = (int(p) for p in parts)
                y += 2000 if y < 100 else 0
            else:
                return None
            try:
                return date(y, m, d)
            except ValueError:
                return None
    return None


def _span_text(sentence: AnalysedSentence, i: int, j: int) -> tuple[str, int, int]:
    return sentence.words(i, j), sentence.tokens[i].start, sentence.tokens[j].end


def dates_in(analysed: Analysed) -> list[DateMention]:
    found: list[DateMention] = []
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        i = 0
        while i < len(tokens):
            value = _numeric(tokens[i].text)
            last = i
            if value is None:
                day = _day(tokens[i].text)
                if day is None or i + 1 >= len(tokens) or tokens[i + 1].lemma not in MONTHS:
                    i += 1
                    continue
                month = MONTHS[tokens[i + 1].lemma]
                last = i + 1
                year = _year(tokens[i + 2].text) if i + 2 < len(tokens) else None
                if year is None:  # «до 5 мая» without a year is not a calendar date
                    i += 2
                    continue
                last = i + 2
                if last + 1 < len(tokens) and tokens[last + 1].lemma in _YEAR_WORDS:
                    last += 1
                try:
                    value = date(year, month, day)
                except ValueError:
                    i = last + 1
                    continue
            text, start, end = _span_text(sentence, i, last)
            found.append(
                DateMention(
                    text=text, start=start, end=end, sentence=sentence.sentence, value=value
                )
            )
            i = last + 1
    return found


_DAY_WORD = "число"
# what a day of a month counts in: «числа текущего (оплачиваемого) месяца»
_CYCLES = frozenset({"месяц", "квартал", "период", "год"})
_CYCLE_REACH = 5  # tokens between «числа» and its month («текущего (оплачиваемого) месяца»)
_FOLLOWING = ("следующий", "за")  # «месяца, следующего за отчётным кварталом»
_FOLLOWING_WORDS = 3
_BREAKS = frozenset({",", ";", ".", ":", "—", "?", "!"})
# a bare «5 числа» is a day only after a preposition of a term («до 5 числа»), or before
# its month; «5 числа не указаны» counts numbers
_TERM_WORDS = frozenset({"до", "по", "к", "с", "со", "позднее", "позже", "на"})


def _breaks(token: Token) -> bool:
    return token.text in _BREAKS or not any(ch.isalnum() or ch in "()" for ch in token.text)


def _cycle_end(tokens: list[Token], at: int) -> int | None:
    """The token of the month or quarter a day-of-month term counts in, if near."""
    for j in range(at + 1, min(at + 1 + _CYCLE_REACH, len(tokens))):
        if _breaks(tokens[j]):
            return None
        if tokens[j].lemma in _CYCLES:
            return j
    return None


def _following_end(tokens: list[Token], at: int) -> int:
    """«…месяца, следующего за отчётным (кварталом)»: the last token of the phrase that says
    which month, else ``at``."""
    j = at + 1
    if j < len(tokens) and tokens[j].text == ",":
        j += 1
    if tuple(t.lemma for t in tokens[j : j + 2]) != _FOLLOWING:
        return at
    last = at
    for k in range(j + 2, min(j + 2 + _FOLLOWING_WORDS, len(tokens))):
        if not tokens[k].text.isalpha():
            break
        last = k
    return last


def days_of_month_in(analysed: Analysed) -> list[DayOfMonth]:
    """Terms stated by a day of the month: «10-го числа», «5 числа месяца, следующего за
    отчётным», «25-го каждого месяца» (an ordinal without «числа» only before its month)."""
    found: list[DayOfMonth] = []
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        for i, token in enumerate(tokens[:-1]):
            day = _day(token.text)
            if day is None:
                continue
            ordinal = "-" in token.text
            if tokens[i + 1].lemma == _DAY_WORD:
                last = i + 1
                cycle = _cycle_end(tokens, last)
                after_term = i > 0 and tokens[i - 1].text.lower() in _TERM_WORDS
                if not (ordinal or after_term or cycle is not None):
                    continue
            elif ordinal and (cycle := _cycle_end(tokens, i)) is not None:
                last = cycle
            else:
                continue
            if cycle is not None:
                last = _following_end(tokens, cycle)
            found.append(DayOfMonth(**sentence.located(i, last), day=day))
    return found


def years_in(analysed: Analysed) -> list[YearMention]:
    """Years named as such: «в 2025 году», «2024 г.», «за 2024 год» (not parts of dates)."""
    found: list[YearMention] = []
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        for i, token in enumerate(tokens):
            year = _year(token.text)
            if year is None or i + 1 >= len(tokens) or tokens[i + 1].lemma not in _YEAR_WORDS:
                continue
            if i > 0 and tokens[i - 1].lemma in MONTHS:
                continue
            text, start, end = _span_text(sentence, i, i + 1)
            found.append(
                YearMention(text=text, start=start, end=end, sentence=sentence.sentence, year=year)
            )
    return found


AsOfSource = Literal["date", "year", "relative", "implicit"]

_NOW = ("сейчас", "сегодня", "на сегодня", "в настоящее время", "текущем", "в этом году")
_LAST_YEAR = ("в прошлом году", "за прошлый год", "прошлогодний")
_NEXT_YEAR = ("в следующем году", "со следующего года", "в будущем году")


class AsOf(BaseModel):
    """The date a question asks about and how it was read."""

    value: date
    source: AsOfSource


def as_of(analysed: Analysed, today: date) -> AsOf:
    """An explicit date wins; a named year means 1 January of it (Russian tax rules mostly
    change on 1 January), the current year today; «сейчас» or nothing means today."""
    dates = dates_in(analysed)
    if dates:
        return AsOf(value=dates[0].value, source="date")
    years = years_in(analysed)
    if years:
        year = years[0].year
        value = today if year == today.year else date(year, 1, 1)
        return AsOf(value=value, source="year")
    lemmas = [lemma for sentence in analysed.sentences for lemma in sentence.lemmas]
    if has_any(lemmas, _LAST_YEAR):
        return AsOf(value=date(today.year - 1, 1, 1), source="relative")
    if has_any(lemmas, _NEXT_YEAR):
        return AsOf(value=date(today.year + 1, 1, 1), source="relative")
    if has_any(lemmas, _NOW):
        return AsOf(value=today, source="relative")
    return AsOf(value=today, source="implicit")
