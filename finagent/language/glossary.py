"""Everyday and professional words and the Tax Code terms they stand for: «камералка» is
«камеральная налоговая проверка», «ИИС» is «индивидуальный инвестиционный счет».
Retrieval adds the term to its query, the ranker to the question's topic; cues are written
as ordinary words and matched as lemmas (several when the analyser reads a slang word's
forms differently). The table is data: ``finagent/language/data/glossary.yaml``."""

from __future__ import annotations

from functools import cache, lru_cache
from importlib import resources
from typing import Any

from razdel import tokenize

from finagent.language.cues import has_any
from finagent.language.lemmas import known_noun, known_word, lemma
from finagent.yaml_data import load_yaml


@cache
def glossary() -> tuple[tuple[tuple[str, ...], str], ...]:
    """The (cues, Code term) pairs of the shipped glossary, in file order."""
    return tuple(
        (tuple(str(c) for c in row["cues"]), str(row["term"])) for row in _rows() if "term" in row
    )


@cache
def _rows() -> tuple[dict[str, Any], ...]:
    text = resources.files("finagent.language").joinpath("data/glossary.yaml").read_text("utf-8")
    return tuple(load_yaml(text) or [])


@cache
def kind_abbreviations() -> dict[str, tuple[str, ...]]:
    """Abbreviations of kinds of documents and the kinds each may stand for, most usual
    first («КД»: коллективный, кредитный, корпоративный договор): the glossary's rows with
    ``kinds`` instead of a ``term``, keyed by the abbreviation folded to lower case."""
    found: dict[str, tuple[str, ...]] = {}
    for row in _rows():
        if "kinds" in row:
            for cue in row["cues"]:
                found[str(cue).lower()] = tuple(str(k) for k in row["kinds"])
    return found


def glossary_terms(question: str) -> list[str]:
    """The Code terms of the everyday words a question uses («камералка» -> «камеральная
    налоговая проверка»)."""
    return list(_glossary_terms(question))


@lru_cache(maxsize=4096)  # by question text, asked by routing and answering alike: bounded
def _glossary_terms(question: str) -> tuple[str, ...]:
    lemmas = [lemma(t.text) for t in tokenize(question)]
    return tuple(term for cues, term in glossary() if has_any(lemmas, cues))


_MIN_REST = 3  # letters of the noun after a clipped prefix: «гос|номер», «мат|помощь»


@cache
def clipped_prefixes() -> dict[str, frozenset[str]]:
    """Clipped adjectives the glossary's own compounds teach, by prefix: «матпомощь» is
    «материальная помощь», so «мат» stands for «материальный»; «госпошлина» teaches
    «гос» — «государственный». A one-word cue is such a compound when it begins with the
    beginning of its term's first word and the rest of it is the lemma of a later word."""
    found: dict[str, set[str]] = {}
    for cues, term in glossary():
        words = [lemma(t.text) for t in tokenize(term) if t.text.isalpha()]
        if len(words) < 2:
            continue
        for cue in cues:
            folded = cue.lower()
            if " " in folded or "-" in folded:
                continue
            shared = next(
                (i for i, (a, b) in enumerate(zip(folded, words[0], strict=False)) if a != b),
                0,
            )
            rest = folded[shared:]
            if shared >= 2 and len(rest) >= _MIN_REST and lemma(rest) in words[1:]:
                found.setdefault(folded[:shared], set()).add(words[0])
    return {prefix: frozenset(adjectives) for prefix, adjectives in found.items()}


def clipped_compound(word: str) -> list[tuple[str, ...]]:
    """The lemma phrases of a clipped prefix the glossary teaches before a known noun, in
    a word the dictionary does not know («госномер» — «государственный номер»,
    «соцвыплата» — «социальная выплата»); empty for a known word («доплата»)."""
    folded = lemma(word)
    if known_word(folded):
        return []
    return [
        (adjective, lemma(rest))
        for prefix, adjectives in clipped_prefixes().items()
        if folded.startswith(prefix)
        and len(rest := folded[len(prefix) :]) >= _MIN_REST
        and known_noun(rest)
        for adjective in sorted(adjectives)
    ]


def expanded_compound(word: str) -> list[tuple[str, ...]]:
    """The lemma phrases a clipped compound stands for: a glossary cue's term
    («матпомощь» — «материальная помощь») or a clipped prefix before a known noun
    (``clipped_compound``); empty otherwise."""
    return list(dict.fromkeys([*glossary_compound(word), *clipped_compound(word)]))


def glossary_compound(word: str) -> list[tuple[str, ...]]:
    """The lemma phrases of the glossary terms a one-word cue ``word`` stands for
    («матпомощь» — «материальная помощь»): the compounds the glossary states, not those
    a clipped prefix suggests (``clipped_compound``)."""
    folded = lemma(word)
    return [
        tuple(lemma(t.text) for t in tokenize(term) if t.text.isalpha())
        for cues, term in glossary()
        if folded in {lemma(cue) for cue in cues if " " not in cue}
    ]
