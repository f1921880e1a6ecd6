"""A question that names a later year than every source speaks for: no figure for that year.

«Какой МРОТ установлен на 2026 год?» with sources of 2025 must not get the 2025 figure as
the answer. The question names the year itself (``as_of_source == "year"``), every dated
law or knowledge-base passage found predates 1 January of it, and no sentence of them
speaks of that year and of the question's subject (a content word of the question): the
sources cannot say what applies then. An implicit «now» keeps the
dating warning (:mod:`finagent.answering.edition`) instead: the reader asked for the rule,
not for a year's figure.
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


def _mentions(year: int, topic: set[str], chunks: Sequence[Chunk]) -> bool:
    """Some sentence names ``year`` and a ``topic`` lemma («с 2026 года лимит …»)."""
    for chunk in chunks:
        for sentence in _SENTENCE_END.split(f"{chunk.title or ''}\n{chunk.text}"):
            if str(year) in sentence and topic & {lemma(w) for w in _WORD.findall(sentence)}:
                return True
    return False


def uncovered_year(question: Question, chunks: Sequence[Chunk]) -> Abstention | None:
    """An abstention when the question's named year lies past every dated source, or None."""
    if question.as_of_source != "year" or not question.years or not chunks:
        return None
    year = max(y.year for y in question.years)
    dated = [d.when for d in map(source_date, chunks) if d is not None]
    if not dated or max(dated) >= date(year, 1, 1):
        return None
    if _mentions(year, set(question.topic) - _GENERIC, chunks):
        return None
    return Abstention(
        "year",
        messages.ABSTAIN_YEAR.format(year=year),
        messages.ABSTAIN_YEAR_MISSING.format(year=year),
    )
