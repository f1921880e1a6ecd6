"""Clauses of a contract that a later document restates or cancels.

A supplementary agreement changes a contract clause by clause: «Пункт 3.1 Договора
изложить в следующей редакции: …», «Пункт 3.6 Договора утрачивает силу», «Пункт 4.2
исключить». The contract's own clause with that number («3.1. Субарендная плата
составляет …») no longer states the terms in force; the amendment's text does.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

from razdel import tokenize

from finagent.answering.evidence import Candidate
from finagent.cards.doc_types import ABOUT_ANOTHER
from finagent.cards.model import DocumentCard
from finagent.language.cues import find_cue
from finagent.language.lemmas import lemma

_CLAUSE_NUMBER = re.compile(r"\d+(?:\.\d+)*")
# «пункт 3.1», «п. 3.1», «подпункт 2.1.3»
_CLAUSE_WORDS = frozenset({"пункт", "п", "подпункт", "пп"})
# what an amendment does to the clause it names
_CHANGE_WORDS = frozenset({"редакция", "изложить", "утрачивать", "утратить", "исключить"})
# a contract's clause opens with its number: «3.1. Субарендная плата …», «3.1 Арендная …»
# (a wrapped line may open with a sum or a date: «31 марта 2026 г.» is no clause 31)
_OPENING_NUMBER = re.compile(r"^[ \t*«\"]*(\d+(?:\.\d+)+|\d+(?=[.)]))[.)]?\s", re.M)


def changed_clauses(sentence: str) -> set[str]:
    """The clause numbers a sentence of an amending document restates or cancels."""
    words = [t.text for t in tokenize(sentence)]
    lemmas = [lemma(w) for w in words]
    if not _CHANGE_WORDS & set(lemmas):
        return set()
    out: set[str] = set()
    for i, lm in enumerate(lemmas[:-1]):
        if lm not in _CLAUSE_WORDS:
            continue
        following = words[i + 1 : i + 3]
        number = next((w for w in following if _CLAUSE_NUMBER.fullmatch(w)), None)
        if number is not None:
            out.add(number)
    return out


def _amending(cards: Iterable[DocumentCard]) -> set[str]:
    return {card.document_id for card in cards if card.doc_type in ABOUT_ANOTHER}


def superseded(candidates: Sequence[Candidate], cards: Sequence[DocumentCard]) -> set[int]:
    """``id()`` of the candidates that are a contract's clause an amending document among
    the candidates restates or cancels."""
    amending = _amending(cards)
    if not amending:
        return set()
    changed: set[str] = set()
    for c in candidates:
        if c.chunk.document_id in amending:
            changed |= changed_clauses(c.sentence)
    if not changed:
        return set()
    out: set[int] = set()
    for c in candidates:
        if c.chunk.document_id not in amending and _clause_of(c) in changed:
            out.add(id(c))
    return out


_PROBE = 30  # characters of a sentence enough to find it in its passage


def _clause_of(candidate: Candidate) -> str | None:
    """The number of the clause a sentence stands in: the last numbered line at or before
    it in its passage (candidate sentences are read without their numbers)."""
    text = candidate.chunk.text
    at = text.find(candidate.sentence[:_PROBE])
    if at < 0:
        return None
    found = None
    for match in _numbered_lines(text):
        if match[0] > at:
            break
        found = match[1]
    return found


@lru_cache(maxsize=256)
def _numbered_lines(text: str) -> tuple[tuple[int, str], ...]:
    return tuple((m.start(), m.group(1)) for m in _OPENING_NUMBER.finditer(text))


# a sentence stating terms as changed within the document itself: «После внесения
# изменений с 01.07.2026 штат составляет …», «с учётом изменений», «в новой редакции»
_CHANGED_TERMS = ("внесение изменений", "с учётом изменений", "в новой редакции")


def states_changed_terms(lemmas: Sequence[str]) -> bool:
    """Whether a sentence (its lemmas in order) states terms as changed later."""
    return any(find_cue(lemmas, cue) >= 0 for cue in _CHANGED_TERMS)
