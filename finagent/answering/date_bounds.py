"""Which end of a term a date question asks, and which end a date of a clause states.

«До какого числа / по какое число / до какой даты» asks the end of the asked event's term,
«с какого числа / с какой даты» its start. In a clause, the preposition before a date
says which end it is: «до», «по», «не позднее» (or «включительно» after it) an end, «с»,
«со», «начиная с» a start; «№ … от <date>» is the date of a document the clause
mentions, not of the event. Prepositions are a closed class: they are matched as words.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Literal

from razdel import tokenize

from finagent.answering.sentence_profile import DATE
from finagent.language.dates import days_of_month_in
from finagent.language.lemmas import (
    grammatical_case,
    imperfective,
    lemma,
    part_of_speech,
    plural_interrogative,
)
from finagent.language.text import analyse
from finagent.question.model import Question

Bound = Literal["start", "end"]
_END = frozenset({"до", "по", "к", "ко", "позднее", "позже"})
_START = frozenset({"с", "со"})
_REFERENCE = frozenset({"от"})
# «Окончание работ — 29 августа», «начало работ — 2 июня»: a noun names the end a date states
_END_NOUNS = frozenset({"окончание", "завершение", "конец", "истечение"})
_START_NOUNS = frozenset({"начало"})
# «Поручительство прекращается 31 марта 2028 г.», «истекает 31.12.2026»: a verb of ending
# right before a date states the end of what lasts
_END_VERBS = frozenset(
    {"прекращаться", "прекратиться", "истекать", "истечь", "заканчиваться", "закончиться"}
)
_NOUN_REACH = 3
_WHICH = frozenset({"какой", "который"})
# verbs and nouns of a state that lasts or of work that is completed: its end closes a span
# («с … по …», «Начало работ — …; окончание работ — …»)
_LASTING = frozenset(
    {
        "действовать",
        "действие",
        "длиться",
        "продолжаться",
        "истекать",
        "истечь",
        "заканчиваться",
        "закончиться",
        "завершить",
        "завершать",
        "закончить",
        "окончить",
    }
)


# the nouns of a day a question asks by «какой»: «до какого числа», «в какие дни»
_DAY_NOUNS = frozenset({"число", "день"})
_DAY_REACH = 6  # words from «какие» to its noun: «какие у нас с этого года дни»
# the cases «какие» is in when it asks («какие дни», «в какие дни»): a noun in them is its own
_AGREEING = frozenset({"nomn", "accs"})


def asks_recurring_day(question: Question) -> bool:
    """The question asks the day of the month a repeated act falls on: a day asked by
    «какой» with an imperfective verb of an act («до какого числа оплачивать уборку»; not
    of a lasting state: «до какого числа действует договор») or days in the plural («в
    какие дни выплачивают зарплату»); a question asking where a span starts is none. A
    contract states such a day as a day of the month («не позднее 10-го числа месяца»),
    not as a calendar date."""
    if asks_lasting(question) or "start" in asked_bounds(question):
        return False  # «до какого числа действует», «с какого числа начинает»
    return _asks_recurring_day(question.text)


@lru_cache(maxsize=1_000)
def _asks_recurring_day(text: str) -> bool:
    words = [t.text.lower() for t in tokenize(text) if any(ch.isalnum() for ch in t.text)]
    asked = [
        which for i, which in enumerate(words) if lemma(which) in _WHICH and _day_after(words, i)
    ]
    if not asked:
        return False
    if any(plural_interrogative(which) for which in asked):
        return True
    return any(imperfective(w) and lemma(w) not in _LASTING for w in words)


def _day_after(words: Sequence[str], at: int) -> bool:
    """A day noun follows «какой» at ``at`` before any other noun it could agree with
    («какие у нас с этого года дни»; not «какие документы нужны через 3 дня»)."""
    for word in words[at + 1 : at + 1 + _DAY_REACH]:
        if lemma(word) in _DAY_NOUNS:
            return True
        if part_of_speech(word) == "NOUN" and grammatical_case(word) in _AGREEING:
            return False
    return False


def asked_bound(question: Question) -> Bound | None:
    """The end of a term a date or period question asks by its preposition before
    «какой» («до какого числа», «с какой даты»); None when it asks both or neither."""
    found = asked_bounds(question)
    return next(iter(found)) if len(found) == 1 else None


def asked_bounds(question: Question) -> frozenset[Bound]:
    """Every end of a term the question asks: «с какого по какое число» both."""
    return _asked_bounds(question.text)


@lru_cache(maxsize=1_000)
def _asked_bounds(text: str) -> frozenset[Bound]:
    words = [t.text.lower() for t in tokenize(text)]
    found: set[Bound] = set()
    for before, word in pairwise(words):
        if lemma(word) in _WHICH:
            if before in _END:
                found.add("end")
            elif before in _START:
                found.add("start")
    return frozenset(found)


def lemmas_bound(lemmas: Sequence[str]) -> Bound | None:
    """The end of a term a part of a question asks, read from its lemmas («и до какой
    даты?» — the end); None when it asks both or neither."""
    found: set[Bound] = set()
    for before, word in pairwise(lemmas):
        if word in _WHICH and before in _END:
            found.add("end")
        elif word in _WHICH and before in _START:
            found.add("start")
    return next(iter(found)) if len(found) == 1 else None


def asks_lasting(question: Question) -> bool:
    """«До какой даты действует договор?», «к какой дате завершить работы?»: the end of a
    span of time something lasts or is done in, not a deadline of a single act."""
    return bool(_LASTING & set(question.lemmas))


def states_span(sentence: str) -> bool:
    """The clause states both ends of one span: «с 4 августа по 20 августа 2025 г.»."""
    roles = {role for _, role in dates_with_roles(sentence)}
    return {"start", "end"} <= roles


def _words(text: str) -> list[str]:
    """Lower-cased tokens of ``text`` without markup («**», «_»): «не позднее **10-го»."""
    return [t.text.lower() for t in tokenize(text) if any(ch.isalnum() for ch in t.text)]


def _role(sentence: str, start: int, end: int) -> Bound | Literal["reference"] | None:
    before = _words(sentence[:start])[-2:]
    after = _words(sentence[end:])[:1]
    last = before[-1] if before else ""
    if last in _REFERENCE:
        return "reference"
    if last in _END or (after and lemma(after[0]) == "включительно"):
        return "end"
    if last in _START or before[-2:] == ["начиная", "с"]:
        return "start"
    named = {lemma(word) for word in _words(sentence[:start])[-_NOUN_REACH:]}
    if named & _END_NOUNS or lemma(last) in _END_VERBS:
        return "end"
    if named & _START_NOUNS:
        return "start"
    return None


@lru_cache(maxsize=20_000)
def dates_with_roles(
    sentence: str,
) -> tuple[tuple[str, Bound | Literal["reference"] | None], ...]:
    """Each date of the sentence, as written, with the end of a term it states: calendar
    dates and days of the month, in order."""
    spans = [(m.start(), m.end(), m.group(0)) for m in DATE.finditer(sentence)]
    if any(ch.isdigit() for ch in sentence):  # a day of the month is written in digits
        spans += [(d.start, d.end, d.text) for d in days_of_month_in(analyse(sentence))]
    return tuple((text, _role(sentence, start, end)) for start, end, text in sorted(spans))


def bounded_dates(sentence: str, bound: Bound) -> list[str]:
    """The sentence's dates that state the ``bound`` end of a term."""
    return [text for text, role in dates_with_roles(sentence) if role == bound]


def deadline_dates(sentence: str) -> list[str]:
    """Dates that end a term («не позднее 15 июля», «до 10 октября»): the answer to «в какой
    срок» when the clause sets a deadline instead of a period."""
    return bounded_dates(sentence, "end")


def event_dates(sentence: str) -> list[str]:
    """The dates of the sentence that are not the date of a document it refers to."""
    return [text for text, role in dates_with_roles(sentence) if role != "reference"]
