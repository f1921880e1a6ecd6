"""Words a question and a document use for one thing: the groups of
``finagent/language/data/document_synonyms.yaml`` («юрист» — «представитель», «пени» —
«неустойка»), words of one root («страховать» — «страховую сумму») and the full words of a
clipped compound the glossary teaches («матпомощь» — «материальная помощь»). A clause that
names a question's word in its own wording names that word."""

from __future__ import annotations

from collections.abc import Iterable, Set
from functools import cache, lru_cache
from importlib import resources

from finagent.language.cues import cue_lemmas
from finagent.language.glossary import glossary_compound
from finagent.yaml_data import load_yaml

ROOT = 6  # a shared lemma start this long relates «передоверие» and «передоверить»


@cache
def _groups() -> tuple[frozenset[str], ...]:
    text = (
        resources.files("finagent.language")
        .joinpath("data/document_synonyms.yaml")
        .read_text("utf-8")
    )
    rows = load_yaml(text) or []
    return tuple(frozenset(lm for word in row for lm in cue_lemmas(str(word))) for row in rows)


@lru_cache(maxsize=4096)  # keyed by the words users type: bounded
def synonyms(word: str) -> frozenset[str]:
    """The lemmas the groups give for the lemma ``word``, itself left out."""
    out: set[str] = set()
    for group in _groups():
        if word in group:
            out |= group
    return frozenset(out - {word})


def same_root(word: str, lemma: str) -> bool:
    """One lemma, or two of one root by their first ``ROOT`` letters («страховать» —
    «страховой»)."""
    return word == lemma or (
        len(word) >= ROOT and len(lemma) >= ROOT and word[:ROOT] == lemma[:ROOT]
    )


@lru_cache(maxsize=4096)  # keyed by the words users type: bounded
def _compound_words(word: str) -> tuple[frozenset[str], ...]:
    """The lemma sets a compound the glossary states stands for (:func:`glossary_compound`:
    «матпомощь» — {материальный, помощь}); empty for any other word. A compound only a
    clipped prefix suggests («матответственность») is left out: ranking a document's
    sentences by a guessed reading shifted a clause's window on dev (stop 42). No
    substitute for a library: the terms are read by razdel and pymorphy3 in
    :func:`glossary_compound` (pymorphy3 knows no clipped compound's full words); this
    keeps the terms of two words or more as sets and caches them, since the glossary is
    scanned on every call there."""
    return tuple(frozenset(p) for p in glossary_compound(word) if len(p) > 1)


def by_compound(asked: Set[str], lemmas: Set[str]) -> set[str]:
    """The asked one-word glossary cues (a clipped compound, a short word) the text does not
    hold but names by all the words of their term («матпомощь» in a clause on «материальной
    помощи», «зп» on «заработной платы»; «помощь» alone names none)."""
    return {a for a in asked if a not in lemmas and any(p <= lemmas for p in _compound_words(a))}


def in_groups(
    words: Set[str], lemmas: Set[str], groups: Iterable[frozenset[str]]
) -> frozenset[str]:
    """The ``words`` of a group of ``groups`` that ``lemmas`` name a word of (the word
    itself or another of its group)."""
    out: set[str] = set()
    for group in groups:
        if group & lemmas:
            out |= words & group
    return frozenset(out)


def by_synonym(asked: Set[str], lemmas: Set[str]) -> set[str]:
    """The asked lemmas the text does not hold but names by a synonym (a word of a group of
    theirs that ``lemmas`` name, :func:`in_groups`) or, a clipped compound, by its full
    words (:func:`by_compound`)."""
    groups = _groups_of()
    named = {
        a
        for a in asked
        if a not in lemmas and any(not group.isdisjoint(lemmas) for group in groups.get(a, ()))
    }
    return named | by_compound(asked, lemmas)


@cache
def _groups_of() -> dict[str, tuple[frozenset[str], ...]]:
    """The groups of :func:`_groups` each lemma is in."""
    out: dict[str, list[frozenset[str]]] = {}
    for group in _groups():
        for word in group:
            out.setdefault(word, []).append(group)
    return {word: tuple(found) for word, found in out.items()}


def by_root(asked: Set[str], lemmas: Set[str]) -> set[str]:
    """The asked lemmas the text does not hold but names by a word of the same root
    (:func:`same_root`: a lemma the text does not hold shares a root only by its first
    ``ROOT`` letters, looked up among the text's lemma starts)."""
    missing = [a for a in asked if len(a) >= ROOT and a not in lemmas]
    if not missing:
        return set()
    starts = root_starts(lemmas) if isinstance(lemmas, frozenset) else _starts(lemmas)
    return {a for a in missing if a[:ROOT] in starts}


def _starts(lemmas: Iterable[str]) -> frozenset[str]:
    return frozenset(lm[:ROOT] for lm in lemmas if len(lm) >= ROOT)


@lru_cache(maxsize=16_384)  # a sentence's lemmas, asked about for every question word: bounded
def root_starts(lemmas: frozenset[str]) -> frozenset[str]:
    """The first ``ROOT`` letters of the lemmas long enough to share a root."""
    return _starts(lemmas)


def names_lemma(word: str, lemmas: Set[str]) -> bool:
    """Whether a text of ``lemmas`` names the lemma ``word``: the word itself, a synonym of
    its group, a word of its root («ремонт» — «ремонтный») or, a clipped compound, its full
    words («матпомощь» — «материальная помощь»)."""
    return (
        word in lemmas
        or bool(synonyms(word) & lemmas)
        or any(same_root(word, lm) for lm in lemmas)
        or bool(by_compound({word}, lemmas))
    )
