"""How much of a text is copied word for word from another: shared word n-grams.

Words are razdel tokens holding a letter or digit, lower-cased («ё» as «е»); punctuation
and markup do not break a run. A copy is verbatim, so surface forms are compared, not
lemmas: a paraphrase in the same words but other endings is not a copy.
"""

from __future__ import annotations

import re

from razdel import tokenize

from finagent.language.lemmas import fold

_WORD = re.compile(r"\w", re.UNICODE)
# a quotation the answer format asks for («дословная цитата»): quoted, not copied
_QUOTED = re.compile(r"«[^«»]*»|„[^„“]*“")


def words(text: str) -> list[str]:
    """The words of ``text`` in order, lower-cased and folded."""
    return [fold(t.text) for t in tokenize(text) if _WORD.search(t.text)]


def ngrams(text: str, n: int) -> list[tuple[str, ...]]:
    seq = words(text)
    return [tuple(seq[i : i + n]) for i in range(len(seq) - n + 1)]


def copied_share(text: str, source: str, n: int = 4) -> float:
    """The share of ``text``'s word ``n``-grams that occur in ``source`` (0 for a text
    of fewer than ``n`` words)."""
    own = ngrams(text, n)
    if not own:
        return 0.0
    theirs = set(ngrams(source, n))
    return sum(1 for gram in own if gram in theirs) / len(own)


def unquoted(text: str) -> str:
    """``text`` without its «…» quotations."""
    return _QUOTED.sub(" ", text)
