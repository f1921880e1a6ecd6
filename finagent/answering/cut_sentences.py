"""A long sentence cut before its value: the window that states it leads instead.

A sentence longer than a quotation is a candidate as its start («…»-cut) and as
«…»-marked windows of the rest (:func:`finagent.answering.evidence.units_of`). The start
carries the sentence's subject and so ranks first, while the Code states the value after
its conditions: «…в размере фактических затрат с применением коэффициента…» cut before
«2», «…45 842 рублей за расчетный период 2023 года, 49 500 рублей за…» cut before the
year asked. When the best candidate is such a start and states no value the question
asks (or, for a question naming a year, does not name that year), the first window of
the same sentence that does comes first; so does the first window stating one that names
more of the cases the question asks (:func:`qualified_values.asked_cases`: «в
загранкомандировке» — «…не более 2 500 рублей за каждый день нахождения в служебной
командировке за пределами территории Российской Федерации» after a start stating the sum
for a trip within Russia). And a sentence that states one value per year
(«53 658 рублей за расчетный период 2025 года, 57 390 рублей за … 2026 года») answers a
question about a year with the value of that year's clause (:func:`values_of_year`).
"""

from __future__ import annotations

import re

from finagent.answering.asked_qualifier import asked_values_of
from finagent.answering.asked_values import states_asked
from finagent.answering.evidence import MAX_WINDOWS, Candidate, promoted
from finagent.answering.qualified_values import asked_cases
from finagent.answering.sentence_profile import profile
from finagent.language.compounds import may_be_compound
from finagent.question.model import Question

ELLIPSIS = "…"
_CLAUSES = re.compile(r"[,;]\s+")
_YEAR = re.compile(r"(?<!\d)(1[89]\d\d|20\d\d)(?!\d)")


def _is_start(candidate: Candidate) -> bool:
    text = candidate.sentence.rstrip()
    return text.endswith(ELLIPSIS) and not text.startswith(ELLIPSIS)


def _windows(top: Candidate, ranked: list[Candidate]) -> list[Candidate]:
    """The windows of the sentence ``top`` starts, in order."""
    following = range(top.position + 1, top.position + MAX_WINDOWS + 1)
    found = [
        c
        for c in ranked
        if c.chunk.id == top.chunk.id
        and c.position in following
        and c.sentence.startswith(ELLIPSIS)
    ]
    return sorted(found, key=lambda c: c.position)


def _names_year(sentence: str, years: set[int]) -> bool:
    return any(int(y) in years for y in _YEAR.findall(sentence))


def names_other_years(sentence: str, years: set[int]) -> bool:
    """Whether the sentence names years, none of them among ``years`` (when any is asked):
    «за 2024 год — 277 571 руб., за 2025 год — 300 888 руб.» for a question about 2026."""
    named = {int(y) for y in _YEAR.findall(sentence)}
    return bool(years and named and not named & years)


def prefer_window(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the window stating the asked value first (see above)."""
    if not ranked or not _is_start(ranked[0]) or ranked[0].chunk.source == "user_docs":
        return ranked
    top = ranked[0]
    years = {y.year for y in question.years}
    stated = states_asked(profile(top.sentence), question)
    satisfied = stated and (not years or _names_year(top.sentence, years))
    if satisfied and not _more_cases(question):
        return ranked
    cases = asked_cases(question, top.sentence) if satisfied else 0
    for window in _windows(top, ranked):
        if not states_asked(profile(window.sentence), question):
            continue
        if years and stated and not _names_year(window.sentence, years):
            continue
        if satisfied and asked_cases(question, window.sentence) <= cases:
            continue  # the start states the value, and the window names no more asked case
        return promoted(ranked, window)
    return ranked


def _more_cases(question: Question) -> bool:
    """Whether the question asks a case a window may name beyond the start
    (:func:`qualified_values.asked_cases`): a value of a contrast class or a clipped
    compound."""
    return bool(asked_values_of(question)) or any(may_be_compound(w) for w in question.topic)


def values_of_year(sentence: str, values: tuple[str, ...], years: set[int]) -> tuple[str, ...]:
    """Of several values, those whose clause names an asked year; all when none does."""
    if len(values) < 2 or not years:
        return values
    clauses = [" ".join(c.split()) for c in _CLAUSES.split(sentence) if _names_year(c, years)]
    kept = tuple(v for v in values if any(v in c for c in clauses))
    return kept or values
