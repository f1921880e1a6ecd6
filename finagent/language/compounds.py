"""Compound short forms (сложносокращённые слова): «сельхозналог» is «сельскохозяйственный
налог», «турналог» «туристический налог», «земналог» «земельный налог».

Such a word ends with the lemma of the phrase's last word (its head noun) and opens with a
cut-down start of the words before it: the start's first three letters begin one of those
words and all its letters occur in them in order («сельхоз» in «сельскохозяйственный»).
Read on lemmas, so any case of the word counts («единого сельхозналога»)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from razdel import tokenize

from finagent.language.cues import cue_lemmas
from finagent.language.lemmas import lemma

MIN_START = 3  # letters of the cut-down start («тур», «зем», «сельхоз»)


def _in_order(short: str, full: str) -> bool:
    letters = iter(full)
    return all(ch in letters for ch in short)


@lru_cache(maxsize=65_536)  # a word of a question against each tax's phrase: bounded
def compound_of(word: str, phrase: str) -> bool:
    """Whether ``word`` (any form) is a compound short form of ``phrase`` (an adjective or
    more, then a head noun)."""
    cue = cue_lemmas(phrase)
    if len(cue) < 2:
        return False
    head, modifiers = cue[-1], cue[:-1]
    form = lemma(word)
    if not form.endswith(head) or len(form) - len(head) < MIN_START:
        return False
    start = form[: -len(head)].rstrip("-")
    return any(
        start[:MIN_START] == modifiers[i][:MIN_START] and _in_order(start, "".join(modifiers[i:]))
        for i in range(len(modifiers))
    )


def compounded(words: Sequence[str], phrases: Iterable[str]) -> list[tuple[int, str]]:
    """(index of the word, phrase) for each word of ``words`` that is a compound short form
    of one of ``phrases``."""
    listed = list(phrases)
    return [(i, p) for i, w in enumerate(words) for p in listed if compound_of(w, p)]


def compounded_in(text: str, phrases: Iterable[str]) -> list[str]:
    """The phrases some word of ``text`` is a compound short form of, in the order found."""
    return list(dict.fromkeys(p for _, p in compounded(_words(text), phrases)))


@lru_cache(maxsize=4096)  # a question's words, read for every tax it is checked against
def _words(text: str) -> tuple[str, ...]:
    return tuple(t.text for t in tokenize(text) if t.text.isalpha() or "-" in t.text)
