"""Which end of a term a date question asks, and which end a date of a clause states.

«До какого числа / по какое число / до какой даты» asks the end of the asked event's term,
«с какого числа / с какой даты» its start. In a clause, the preposition before a date
says which end it is: «до», «по», «не позднее» (or «включительно» after it) an end, «с»,
«со», «начиная с» a start; «№ … от <date>» is the date of a document the clause
mentions, not of the event. Prepositions are a closed class: they are matched as words.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import pairwise
from typing import Literal

from razdel import tokenize

from finagent.answering.sentence_profile import DATE
from finagent.language.lemmas import lemma
from finagent.question.model import Question

Bound = Literal["start", "end"]
_END = frozenset({"до", "по", "позднее", "позже"})
_START = frozenset({"с", "со"})
_REFERENCE = frozenset({"от"})
_WHICH = frozenset({"какой", "который"})


def asked_bound(question: Question) -> Bound | None:
    """The end of a term a date or period question asks by its preposition before
    «какой» («до какого числа», «с какой даты»); None when it asks both or neither."""
    return _asked_bound(question.text)


@lru_cache(maxsize=1_000)
def _asked_bound(text: str) -> Bound | None:
    words = [t.text.lower() for t in tokenize(text)]
    found: set[Bound] = set()
    for before, word in pairwise(words):
        if lemma(word) in _WHICH:
            if before in _END:
                found.add("end")
            elif before in _START:
                found.add("start")
    return found.pop() if len(found) == 1 else None


def _role(sentence: str, start: int, end: int) -> Bound | Literal["reference"] | None:
    before = [t.text.lower() for t in tokenize(sentence[:start])][-2:]
    after = [t.text.lower() for t in tokenize(sentence[end:])][:1]
    last = before[-1] if before else ""
    if last in _REFERENCE:
        return "reference"
    if last in _END or (after and lemma(after[0]) == "включительно"):
        return "end"
    if last in _START or before[-2:] == ["начиная", "с"]:
        return "start"
    return None


@lru_cache(maxsize=20_000)
def dates_with_roles(
    sentence: str,
) -> tuple[tuple[str, Bound | Literal["reference"] | None], ...]:
    """Each date of the sentence, as written, with the end of a term it states."""
    return tuple((m.group(0), _role(sentence, m.start(), m.end())) for m in DATE.finditer(sentence))


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
