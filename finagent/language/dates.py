"""Dates and years: «15 января 2025 г.», «13.03.2025», «2025-03-13», «в 2025 году»; the
as-of date of a question («сейчас», «в этом году», «в 2025 году», implicit: today)."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Literal

from pydantic import BaseModel

from finagent.language.cues import has_any
from finagent.language.numbers import ORDINALS, is_digits
from finagent.language.spans import (
    DateMention,
    DayMention,
    DayOfMonth,
    MonthMention,
    YearMention,
)
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
#: a month's number to its lemma (nominative singular): 3 -> «март»
MONTH_LEMMAS = {number: name for name, number in MONTHS.items()}
_YEAR_WORDS = {"год", "г"}
#: a year written in four digits, as a word («2025»; not «120251»)
WRITTEN_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")
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
    """«13.03.2025», «13.03.25», «2025-03-13». A two-digit year follows the POSIX window
    that `datetime.strptime`'s ``%y`` keeps (69-99 → 1969-1999, 00-68 → 2000-2068): the
    approval note of a unified form, «от 18.08.98», is 1998, not 2098."""
    for sep in (".", "-"):
        parts = text.split(sep)
        if len(parts) == 3 and all(is_digits(p) for p in parts):
            if sep == "-" and len(parts[0]) == 4:
                shape = "%Y-%m-%d"
            elif sep == "." and len(parts[2]) in (2, 4):
                shape = "%d.%m.%Y" if len(parts[2]) == 4 else "%d.%m.%y"
            else:
                return None
            try:
                return datetime.strptime(text, shape).date()
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


# the day as an ordinal word: «восьмого апреля», «двадцать девятого октября»
ORDINAL_DAYS = ORDINALS
_TENS = {"двадцать": 20, "тридцать": 30}
# «2 июня сего года (2025)»: the year stated in brackets after «сего года»
_THIS = {"сие", "это", "этот", "текущий", "нынешний"}
_RANGE_FROM = {"с", "со"}
_RANGE_TO = {"по", "до"}
_TRAILING = ",.;:"


def _clean(text: str) -> str:
    """razdel keeps a comma glued to a date before a number («12.03.2025, 15 марта»)."""
    return text.rstrip(_TRAILING)


def _day_word(sentence: AnalysedSentence, i: int) -> tuple[int, int] | None:
    """The day at token ``i`` (a number, «3-го», or an ordinal word) and the index after it."""
    tokens = sentence.tokens
    day = _day(_clean(tokens[i].text))
    if day is not None:
        return day, i + 1
    tens = _TENS.get(tokens[i].lemma, 0)
    j = i + 1 if tens else i
    if j < len(tokens) and tokens[j].lemma in ORDINAL_DAYS:
        value = tens + ORDINAL_DAYS[tokens[j].lemma]
        return (value, j + 1) if value <= 31 else None
    return None


def _year_after(sentence: AnalysedSentence, j: int) -> tuple[int | None, int]:
    """A year after a month: «2025», «2025 г.», «2025 года», «сего года (2025)»."""
    tokens = sentence.tokens
    if j < len(tokens):
        year = _year(_clean(tokens[j].text))
        if year is not None:
            last = j
            if last + 1 < len(tokens) and tokens[last + 1].lemma in _YEAR_WORDS:
                last += 1
                abbreviated = tokens[last].text.lower() == "г"
                if abbreviated and last + 1 < len(tokens) and tokens[last + 1].text == ".":
                    last += 1
            return year, last
        if tokens[j].lemma in _THIS and j + 1 < len(tokens) and tokens[j + 1].lemma == "год":
            for k in range(j + 2, min(len(tokens), j + 6)):
                stated = _year(tokens[k].text)
                if stated is not None:
                    close = k + 1 if k + 1 < len(tokens) and tokens[k + 1].text == ")" else k
                    return stated, close
    return None, j - 1


def days_in(analysed: Analysed) -> list[DayMention]:
    """Calendar days as questions write them, with or without a year: «03.02.2025»,
    «2025-02-03», «3 февраля 2025 г.», «3-го февраля», «восьмого апреля», and the first day
    of «с 1 по 31 июля 2025», which takes the month and year of the second."""
    found: list[DayMention] = []
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        i = 0
        while i < len(tokens):
            value = _numeric(_clean(tokens[i].text))
            if value is not None:
                found.append(
                    DayMention(
                        **sentence.located(i, i),
                        day=value.day,
                        month=value.month,
                        year=value.year,
                    )
                )
                i += 1
                continue
            ranged = _range_start(sentence, i)
            if ranged is not None:
                found.append(ranged)
            read = _day_word(sentence, i)
            if read is None or read[1] >= len(tokens) or tokens[read[1]].lemma not in MONTHS:
                i += 1
                continue
            day, j = read
            year, last = _year_after(sentence, j + 1)
            last = max(last, j)
            try:
                date(year or 2000, MONTHS[tokens[j].lemma], day)
            except ValueError:
                i = last + 1
                continue
            found.append(
                DayMention(
                    **sentence.located(i, last), day=day, month=MONTHS[tokens[j].lemma], year=year
                )
            )
            i = last + 1
    return found


def _range_start(sentence: AnalysedSentence, i: int) -> DayMention | None:
    """«с 1 по 31 июля 2025»: the day after «с», before «по» and another day with a month."""
    tokens = sentence.tokens
    if i == 0 or tokens[i - 1].lemma not in _RANGE_FROM or i + 3 >= len(tokens):
        return None
    first = _day(tokens[i].text)
    if first is None or tokens[i + 1].lemma not in _RANGE_TO:
        return None
    second = _day_word(sentence, i + 2)
    if second is None or second[1] >= len(tokens) or tokens[second[1]].lemma not in MONTHS:
        return None
    month = MONTHS[tokens[second[1]].lemma]
    year, _ = _year_after(sentence, second[1] + 1)
    try:
        date(year or 2000, month, first)
    except ValueError:
        return None
    return DayMention(**sentence.located(i, i), day=first, month=month, year=year)


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


def period_years(analysed: Analysed) -> frozenset[int]:
    """The years of the periods a text names: «за 2025 год», «за октябрь 2026 г.»."""
    months = [m.year for m in months_in(analysed) if m.year is not None]
    return frozenset([m.year for m in years_in(analysed)] + months)


# what joins the months of a range or a list whose year comes after its last month: «с
# марта по май 2025», «за январь и февраль 2025», «в марте, апреле 2025 г.»
_MONTH_JOINS = frozenset({"по", "до", "и", "или", ",", "-", "—", "–"})
_JOINED_MONTHS = 3  # months after the first that a range or a list may name before its year


def _of_day(sentence: AnalysedSentence, i: int) -> bool:
    """The month at token ``i`` is a day's: «5 марта», «5-го марта», «двадцать пятого марта»."""
    days = [_day_word(sentence, j) for j in (i - 1, i - 2) if j >= 0]
    return any(read is not None and read[1] == i for read in days)


def _joined_year(sentence: AnalysedSentence, i: int) -> int | None:
    """The year after the last month of a range or list the month at ``i`` opens: «с марта
    по май 2025» -> 2025 for March; a day may precede a later month («с марта по 15 мая
    2025»)."""
    tokens = sentence.tokens
    at = i
    for _ in range(_JOINED_MONTHS):
        if at + 2 >= len(tokens) or tokens[at + 1].text.lower() not in _MONTH_JOINS:
            return None
        k = at + 2
        read = _day_word(sentence, k)
        if read is not None:
            k = read[1]
        if k >= len(tokens) or tokens[k].lemma not in MONTHS:
            return None
        year, _ = _year_after(sentence, k + 1)
        year = year if year is not None else _short_year(sentence, k + 1)[0]
        if year is not None:
            return year
        at = k
    return None


# a year in two digits as an ordinal after a month's name: «в марте 25-го», «за май 24-го
# года», «в 25-м»
_SHORT_YEAR = re.compile(r"^(\d{2})-(?:го|м|й)$")
_CENTURY_WINDOW = 69  # as ``_numeric``'s two-digit years: 69-99 → 1969-1999, else 20xx


def _short_year(sentence: AnalysedSentence, j: int) -> tuple[int | None, int]:
    """«25-го» at token ``j`` (with «года» after it) as a year: (2025, its last token)."""
    tokens = sentence.tokens
    found = _SHORT_YEAR.match(tokens[j].text) if j < len(tokens) else None
    if found is None:
        return None, j - 1
    short = int(found.group(1))
    last = j + 1 if j + 1 < len(tokens) and tokens[j + 1].lemma in _YEAR_WORDS else j
    return (1900 if short >= _CENTURY_WINDOW else 2000) + short, last


def months_in(analysed: Analysed) -> list[MonthMention]:
    """The months a text names with no day: with their year («за апрель 2025», «в марте
    2025 г.»), a month of a range or a list whose year comes at its end with that year («с
    марта по май 2025»: March 2025), else with none (``year`` None: «в октябре», «за март»;
    the reader decides which year is meant). Not the month of a day («1 апреля 2025»,
    «восьмого апреля»: days; but «восьмого апреля 2025» names April 2025, as no date reader
    reads it). A year in two digits after the month's name is its year («в марте 25-го»:
    March 2025); another figure there («в марте 2-3 раза») is no year and names none."""
    found: list[MonthMention] = []
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        for i, token in enumerate(tokens):
            if token.lemma not in MONTHS:
                continue
            year, last = _year_after(sentence, i + 1)
            # a date («1 апреля 2025») is read by ``dates_in``; a day in words with its
            # year («восьмого апреля 2025») is not, and its month stays named
            if _of_day(sentence, i) and (year is None or _day(tokens[i - 1].text) is not None):
                continue
            if year is None:
                year, last = _short_year(sentence, i + 1)
            if year is None:
                if i + 1 < len(tokens) and tokens[i + 1].text[:1].isdigit():
                    continue
                year, last = _joined_year(sentence, i), i
            found.append(
                MonthMention(
                    **sentence.located(i, max(i, last)), year=year, month=MONTHS[token.lemma]
                )
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
