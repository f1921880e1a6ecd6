"""A question that names a later year than every source speaks for, about a figure the
sources tie to a year: no figure for that year.

«Какой МРОТ установлен на 2026 год?» with «МРОТ в 2025 году — 22 440 руб.» must not get
the 2025 figure as the answer. Declined when the question names the year itself
(``as_of_source == "year"``) or a day of it («с 1 января 2027 года», ``"date"``), not in
a condition («если я продам квартиру в 2027 году» names a case), every dated law or
knowledge-base passage found predates 1 January of it, some sentence ties the question's
subject (a content word of it) to another year (the figure is set per year), and none
ties it to the year asked; the abstention names the years the sources do cover. A
subject no source dates («срок камеральной проверки в 2027 году») keeps the dating
warning (:mod:`finagent.answering.edition`) instead, as does an implicit «now», and so
does a deadline or a term asked (a date or a period: «до какого числа оплатить патент на
2026 год»): the edition's rule holds for later years unless amended, which the warning
says; only a figure set per year (a limit, a fixed sum, a rate) must be stated for the
year. The Code's passages the details alone quote count among the sources: a point that
lists the figure per year («… 61 154 рублей за расчетный период 2027 года») states the
year's (:func:`finagent.answering.norm_subject.prefer_norm_year` then leads with it).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from finagent.answering import messages
from finagent.answering.abstention import Abstention
from finagent.answering.edition import source_date
from finagent.language.dates import MONTHS, WRITTEN_YEAR
from finagent.language.lemmas import lemma
from finagent.question.conditions import in_condition
from finagent.question.model import Question
from finagent.state import Chunk

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_WORD = re.compile(r"[А-Яа-яЁёA-Za-z]+")
# «год» and the months of a named day («с 1 января 2027 года») are not its subject
_GENERIC = frozenset({"год", *MONTHS})


# a deadline or a term asked («до какого числа платить за 2026 год», «сколько дней на
# проверку в 2027»): the rule an edition states is the year's unless amended, so the edition
# warning says what to check; a figure set per year (a limit, a fixed sum, a rate, what
# «какой МРОТ» asks) has to be stated for the year itself
_RULE_TYPES = frozenset({"date", "period"})


def _years_of_subject(topic: set[str], chunks: Sequence[Chunk]) -> set[int]:
    """The years named in a sentence with a ``topic`` lemma («МРОТ в 2025 году …»)."""
    years: set[int] = set()
    for chunk in chunks:
        for sentence in _SENTENCE_END.split(f"{chunk.title or ''}\n{chunk.text}"):
            named = {int(y) for y in WRITTEN_YEAR.findall(sentence)}
            if named and topic & {lemma(w) for w in _WORD.findall(sentence)}:
                years |= named
    return years


def uncovered_year(question: Question, chunks: Sequence[Chunk]) -> Abstention | None:
    """An abstention when the question's named year lies past every dated source, or None."""
    if not chunks or question.answer_type in _RULE_TYPES:
        return None
    # a year or a day in a condition («если я продам квартиру в 2027 году») names the
    # case a rule is applied to, not the period a figure is asked for
    years = [y for y in question.years if not in_condition(question.text, y)]
    dates = [d for d in question.dates if not in_condition(question.text, d)]
    if question.as_of_source == "year" and years:
        year = max(y.year for y in years)
    elif question.as_of_source == "date" and dates:
        year = question.as_of.year
    else:
        return None
    dated = [d.when for d in map(source_date, chunks) if d is not None]
    if not dated or max(dated) >= date(year, 1, 1):
        return None
    dated_subject = _years_of_subject(set(question.topic) - _GENERIC, chunks)
    if year in dated_subject or not dated_subject:
        return None
    # what the sources do cover: the years they state the subject for
    covered = ", ".join(str(y) for y in sorted(dated_subject) if y < year)
    missing = messages.ABSTAIN_YEAR_MISSING.format(year=year)
    if covered:
        missing += " " + messages.ABSTAIN_YEAR_COVERED.format(years=covered)
    return Abstention("year", messages.ABSTAIN_YEAR.format(year=year), missing)
