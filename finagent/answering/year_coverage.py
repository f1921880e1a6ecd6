"""A question that names a later year than every source speaks for, about a figure the
sources tie to a year: no figure for that year.

«Какой МРОТ установлен на 2026 год?» with «МРОТ в 2025 году — 22 440 руб.» must not get
the 2025 figure as the answer. Declined when the question names the year itself
(``as_of_source == "year"``), every dated law or knowledge-base passage found predates 1
January of it, some sentence ties the question's subject (a content word of it) to another
year (the figure is set per year), and none ties it to the year asked. A subject no source
dates («срок камеральной проверки в 2027 году») keeps the dating warning
(:mod:`finagent.answering.edition`) instead, as does an implicit «now».
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from datetime import date

from finagent.answering import messages
from finagent.answering.abstention import Abstention
from finagent.answering.edition import source_date
from finagent.language.lemmas import lemma
from finagent.question.model import Question
from finagent.state import Chunk

_SENTENCE_END = re.compile(r"(?<=[.!?;])\s+|\n+")
_WORD = re.compile(r"[А-Яа-яЁёA-Za-z]+")
_GENERIC = frozenset({"год"})


_YEAR = re.compile(r"\b(?:19|20)\d{2}\b")


def _years_of_subject(topic: set[str], chunks: Sequence[Chunk]) -> set[int]:
    """The years named in a sentence with a ``topic`` lemma («МРОТ в 2025 году …»)."""
    years: set[int] = set()
    for chunk in chunks:
        for sentence in _SENTENCE_END.split(f"{chunk.title or ''}\n{chunk.text}"):
            named = {int(y) for y in _YEAR.findall(sentence)}
            if named and topic & {lemma(w) for w in _WORD.findall(sentence)}:
                years |= named
    return years


def uncovered_year(question: Question, chunks: Sequence[Chunk]) -> Abstention | None:
    """An abstention when the question's named year lies past every dated source, or None."""
    if question.as_of_source != "year" or not question.years or not chunks:
        return None
    year = max(y.year for y in question.years)
    dated = [d.when for d in map(source_date, chunks) if d is not None]
    if not dated or max(dated) >= date(year, 1, 1):
        return None
    dated_subject = _years_of_subject(set(question.topic) - _GENERIC, chunks)
    if year in dated_subject or not dated_subject:
        return None
    return Abstention(
        "year",
        messages.ABSTAIN_YEAR.format(year=year),
        messages.ABSTAIN_YEAR_MISSING.format(year=year),
    )
