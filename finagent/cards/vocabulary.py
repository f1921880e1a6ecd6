"""A document's vocabulary: the lemmas it uses, so that a question can be matched to the
documents that speak of what it names («Тайга.Смета», «паллето-место», «на Промышленной»)."""

from __future__ import annotations

from finagent.language.lemmas import lemma, word_parts
from finagent.language.text import Analysed

_MIN_LETTERS = 3


def vocabulary_of(analysed: Analysed) -> list[str]:
    """Sorted lemmas of the words (and of the parts of compound words) of the text."""
    found: set[str] = set()
    for sentence in analysed.sentences:
        for token in sentence.tokens:
            if sum(ch.isalpha() for ch in token.text) < _MIN_LETTERS:
                continue
            for part in word_parts(token.text):
                term = token.lemma if part == token.text else lemma(part)
                if len(term) >= _MIN_LETTERS and any(ch.isalpha() for ch in term):
                    found.add(term)
    return sorted(found)
