"""A question's colloquial short form of a phrase a text writes out in full.

Three ways Russian shortens an adjective and its noun to one word:
- a compound short form (:func:`finagent.language.compounds.compound_of`): a cut-down
  start of the adjective before the noun («техподдержка» — «техническая поддержка»,
  «техприсоединение» — «технологическое присоединение», «госпошлина» — «государственная
  пошлина»);
- a clipping with «-ка» (универбация): the adjective's stem and «-ка», the noun left out
  («неполка» — «неполная неделя», «дебиторка» — «дебиторская задолженность»,
  «упрощёнка» — «упрощённая система»). pymorphy3 knows none of these; a word it knows
  («справка», «поставка») is no clipping.

- initials (:func:`initials_of`): the first letters of a phrase's words, written in
  capitals («БДДС» — «бюджет движения денежных средств», «ОСВ» — «оборотно-сальдовая
  ведомость»); each part of a hyphenated word gives its letter, a preposition or a
  conjunction may give none («ПВТР» — «правила внутреннего трудового распорядка»).

The phrases are read off the text as an adjective (pymorphy3 ADJF) followed by a noun.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable
from functools import lru_cache
from itertools import pairwise

from finagent.language.compounds import compound_of
from finagent.language.lemmas import fold, known_word, parses
from finagent.language.text import analyse

# the stem of a «-ка» clipping and its case ending: «непол|ки», «дебитор|кой»
_CLIPPED = re.compile(r"^([а-я]{4,})к(?:а|и|е|у|ой|ою|ам|ами|ах)?$")
_ADJECTIVE = "ADJF"
_NOUN = "NOUN"


@lru_cache(maxsize=4096)
def _phrases(text: str) -> tuple[tuple[str, str, str], ...]:
    """(adjective lemma, the next word's lemma, the two words as written) of each
    adjective of ``text`` followed by a noun or another adjective («неполной рабочей
    недели»)."""
    out: list[tuple[str, str, str]] = []
    for sentence in analyse(text).sentences:
        tokens = sentence.tokens
        for left, right in pairwise(tokens):
            if not (left.text.isalpha() and right.text.isalpha()):
                continue
            if parses(fold(left.text))[0].tag.POS != _ADJECTIVE:
                continue
            if parses(fold(right.text))[0].tag.POS not in (_ADJECTIVE, _NOUN):
                continue
            out.append((fold(left.lemma), fold(right.lemma), f"{left.text} {right.text}"))
    return tuple(out)


def clipped_of(word: str, adjective: str) -> bool:
    """Whether ``word`` (any case) is a «-ка» clipping of ``adjective`` (a lemma): a word
    pymorphy3 does not know, the adjective's stem before its «-ка»."""
    match = _CLIPPED.match(fold(word))
    if match is None or known_word(word):
        return False
    return fold(adjective).startswith(match.group(1))


def short_forms(words: Iterable[str], text: str, skip: Collection[str] = ()) -> dict[str, str]:
    """The ``words`` (as written) that shorten a phrase of ``text``, each with the phrase;
    a phrase with a lemma of ``skip`` is not read («допсоглашение» — «дополнительное
    соглашение» names a kind of document, which the kind's own cues name)."""
    listed = [w for w in words if w.isalpha()]
    if not listed:
        return {}
    found: dict[str, str] = {}
    for adjective, noun, written in _phrases(text):
        if adjective in skip or noun in skip:
            continue
        for word in listed:
            if word in found:
                continue
            if compound_of(word, f"{adjective} {noun}") or clipped_of(word, adjective):
                found[word] = written
    return found


_FUNCTION = frozenset({"PREP", "CONJ", "PRCL"})
_MIN_INITIALS = 3


def _initials_run(words: tuple[tuple[str, ...], ...], at: int, wanted: str) -> bool:
    """Whether the words from ``at`` on spell ``wanted`` by their first letters (a
    function word may be skipped, the letters of a hyphenated word's parts taken)."""
    if not wanted:
        return True
    if at >= len(words):
        return False
    parts = words[at]
    letters = "".join(part[0] for part in parts)
    if wanted.startswith(letters) and _initials_run(words, at + 1, wanted[len(letters) :]):
        return True
    function = len(parts) == 1 and parses(parts[0])[0].tag.POS in _FUNCTION
    return function and _initials_run(words, at + 1, wanted)


@lru_cache(maxsize=4096)
def _initial_words(text: str) -> tuple[tuple[str, ...], ...]:
    """The words of ``text`` in order, each as its hyphen-separated parts, folded."""
    return tuple(
        tuple(part for part in fold(token.text).split("-") if part)
        for sentence in analyse(text).sentences
        for token in sentence.tokens
        if token.text.replace("-", "").isalpha()
    )


def initials_of(word: str, text: str) -> bool:
    """Whether ``word``, written in capitals, is the initials of a run of ``text``'s words
    («БДДС» of «Бюджет движения денежных средств на I квартал»): its first word's letter
    first, every word after it giving its letter."""
    if len(word) < _MIN_INITIALS or not (word.isalpha() and word.isupper()):
        return False
    wanted = fold(word)
    words = _initial_words(text)
    return any(
        words[at][0][0] == wanted[0] and _initials_run(words, at, wanted)
        for at in range(len(words))
    )
