"""Words of a question a document sentence states in other words: a day or a month the
question names by its name and a row states as a date («сколько ушло в марте» — a
statement's row «28.03.2025»; «что списали 18 марта 2025 года» — the row of that day), and
an abbreviation the sentence writes out («ЕНП» — «Единый налоговый платёж», the glossary's
term). Each counts as one shared word of :func:`document_sentences.shared_words`. A
numbered table row the question names by an ordinal («второй платёж» — the row «№: 2»,
«последний платёж» — the row of the greatest number) counts as the ordinal and its noun."""

from __future__ import annotations

import re
from collections.abc import Sequence, Set
from datetime import date
from functools import cache, lru_cache
from importlib import resources
from itertools import pairwise

from finagent.answering.sentence_profile import SentenceProfile, profile
from finagent.language.dates import MONTHS
from finagent.language.glossary import glossary
from finagent.language.lemmas import lemma
from finagent.language.numbers import ORDINALS
from finagent.language.text import analyse
from finagent.question.model import Question
from finagent.yaml_data import load_yaml

_NUMERIC_PARTS = 3  # «28.03.2025»


def _day_month(written: str) -> tuple[int, int, int | None] | None:
    """(day, month, year or None) of a date as the profile keeps it: «28.03.2025», «18
    марта 2025 г.», «5 мая»."""
    parts = written.split(".")
    if len(parts) == _NUMERIC_PARTS and all(p.isdigit() for p in parts):
        full = int(parts[2]) if len(parts[2]) == 4 else 2000 + int(parts[2])
        return int(parts[0]), int(parts[1]), full
    words = written.split()
    if len(words) < 2 or not words[0].isdigit():
        return None
    month = MONTHS.get(lemma(words[1]))
    if month is None:
        return None
    year = int(words[2]) if len(words) > 2 and words[2].isdigit() else None
    return int(words[0]), month, year


def _stated_dates(p: SentenceProfile) -> list[tuple[int, int, int | None]]:
    return [d for d in map(_day_month, p.dates) if d is not None]


def _same_day(asked: date, stated: tuple[int, int, int | None]) -> bool:
    day, month, year = stated
    return (asked.day, asked.month) == (day, month) and year in (None, asked.year)


def _months_alone(question: Question) -> frozenset[int]:
    """The months the question names without a day («в марте», «за апрель»; not «30
    сентября», a day whose year it leaves out)."""
    return _months_alone_in(question.text)


@lru_cache(maxsize=1024)  # by question text, asked for each of its candidate sentences
def _months_alone_in(text: str) -> frozenset[int]:
    out = set()
    for sentence in analyse(text).sentences:
        for before, token in zip([None, *sentence.tokens], sentence.tokens, strict=False):
            if token.lemma in MONTHS and not (before is not None and before.text.isdigit()):
                out.add(MONTHS[token.lemma])
    return frozenset(out)


def _asked_days(question: Question) -> list[date]:
    """The days the question names, but a document's own date («по акту № 7 от 03.06.2026»:
    the date after «от» names the document, not what happened that day)."""
    return [
        d.value
        for d in question.dates
        if not question.text[: d.start].rstrip().lower().endswith(_DOCUMENT_DATE)
    ]


_DOCUMENT_DATE = " от"


def dated_words(question: Question, asked: Set[str], p: SentenceProfile) -> int:
    """Two for each day the question names with its year that the sentence states (the
    day and its month), and one for each month the question names alone and ``asked``
    keeps (the sentence does not name it) that the sentence states by a date of it."""
    stated = _stated_dates(p)
    if not stated:
        return 0
    days = sum(any(_same_day(d, s) for s in stated) for d in _asked_days(question))
    months = {MONTHS[lm] for lm in asked if lm in MONTHS} & _months_alone(question)
    return 2 * days + sum(any(s[1] == month for s in stated) for month in months)


@cache
def _terms() -> tuple[tuple[frozenset[str], frozenset[str]], ...]:
    """(cue lemmas, the term's lemmas) of every glossary entry."""
    return tuple(
        (frozenset(lemma(cue) for cue in cues), profile(term).lemmas) for cues, term in glossary()
    )


def spelled_out(asked: Set[str], p: SentenceProfile) -> int:
    """One for each word of ``asked`` (the question's lemmas the sentence does not name)
    that the glossary writes out as a term every lemma of which the sentence has: «ЕНП» —
    «Единый налоговый платёж»."""
    terms = _terms()
    by_cue = _terms_by_cue()
    named = {i for lm in asked for i in by_cue.get(lm, ())}
    return sum(1 for i in named if terms[i][1] and terms[i][1] <= p.lemmas)


@cache
def _terms_by_cue() -> dict[str, tuple[int, ...]]:
    """The indexes in :func:`_terms` of the entries each cue lemma belongs to."""
    out: dict[str, list[int]] = {}
    for i, (cues, _) in enumerate(_terms()):
        for cue in cues:
            out.setdefault(cue, []).append(i)
    return {cue: tuple(found) for cue, found in out.items()}


# a table row as :func:`finagent.answering.evidence.units_of` writes it, its first cell a
# number under a short label («№: 6; Срок …», «№ платежа: 2; …», «Этап: 2; …»), or as a
# Markdown line («| 6 | 13.11.2026 | …»): its number
_ROW_NUMBER = re.compile(r"^(?:(?:№|[^\W\d])[^:;|]{0,24}:\s*|\|\s*)(\d{1,3})\s*[;|]")
ORDINAL_WEIGHT = 2  # the ordinal and its noun: the row is the object asked


@cache
def _last_words() -> frozenset[str]:
    text = resources.files("finagent.answering").joinpath("data", _LAST_FILE).read_text("utf-8")
    return frozenset(str(w) for w in (load_yaml(text) or {}).get("last", []))


_LAST_FILE = "ordinal_rows.yaml"


def row_number(sentence: str) -> int | None:
    """The number of a numbered table row («№: 6; …», «Этап: 2; …», «| 6 | …»), else
    None."""
    found = _ROW_NUMBER.match(sentence.strip())
    return int(found.group(1)) if found else None


def asked_rows(question: Question) -> list[tuple[int | None, str]]:
    """The rows the question names by an ordinal and the noun after it: («второй платёж»
    — (2, «платёж»)); the last row («последний платёж») has the number None."""
    out: list[tuple[int | None, str]] = []
    last = _last_words()
    for word, noun in pairwise(question.lemmas):
        if word in ORDINALS or word in last:
            out.append((ORDINALS.get(word), noun))
    return out


def ordinal_words(
    number: int | None,
    asked: Sequence[tuple[int | None, str]],
    lemmas: Set[str],
    last: int | None,
) -> int:
    """``ORDINAL_WEIGHT`` for a numbered row (``number``) whose words (``lemmas``) name the
    noun the question's ordinal is of and whose number it names, or that is the document's
    last numbered row (``last``) when the question asks the last one; else 0."""
    if number is None:
        return 0
    for ordinal, noun in asked:
        if noun in lemmas and number == (last if ordinal is None else ordinal):
            return ORDINAL_WEIGHT
    return 0
