"""Declarative lemma tables: cues written as ordinary Russian words, matched as lemmas.

A cue is a phrase («арендная плата», «до какого числа»); it is lemmatised once when the
table is loaded, so tables stay readable and never spell word endings."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import cache

from razdel import tokenize

from finagent.language.lemmas import lemma


@cache
def cue_lemmas(phrase: str) -> tuple[str, ...]:
    return tuple(lemma(t.text) for t in tokenize(phrase))


def find_cue(lemmas: Sequence[str], phrase: str, start: int = 0, end: int | None = None) -> int:
    """Index where the lemmas of ``phrase`` occur contiguously in ``lemmas[start:end]``, or -1."""
    cue = cue_lemmas(phrase)
    stop = (len(lemmas) if end is None else min(end, len(lemmas))) - len(cue) + 1
    first = cue[0] if cue else None
    for i in range(max(start, 0), stop):
        # the first lemma before the slice: most positions differ there already
        if (first is None or lemmas[i] == first) and tuple(lemmas[i : i + len(cue)]) == cue:
            return i
    return -1


def has_any(lemmas: Sequence[str], phrases: Iterable[str]) -> bool:
    return any(find_cue(lemmas, phrase) >= 0 for phrase in phrases)
