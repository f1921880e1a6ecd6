"""The figure of the question's own qualifier, when the Code splits a rule by one.

One point of the Code sets a figure for a case and its neighbour sets another for the
contrasting case: «…если эти деяния совершены в течение одного налогового периода…» —
10 000 руб., «…в течение более одного налогового периода…» — 30 000 руб. The learned
ranker prefers the first point (it shares the rule's words); the question names its case
(«в нескольких периодах»). The classes of such qualifiers and their phrases are data
(``data/contrast_qualifiers.yaml``).

A question may name a value by a clipped compound of a phrase's adjective
(«загранкомандировка» — «заграничный»: :func:`asked_sequence_of`). When the question names
one value of a class and the best candidate (of the Code or the knowledge base) names only
another, the best candidate within :data:`MARGIN` that names
the question's value, no other value of the class, and states a value of the asked type
comes first.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache, partial
from importlib import resources

from finagent.answering.asked_values import states_asked
from finagent.answering.evidence import LEGAL_SOURCES, Candidate, first_near, promoted
from finagent.answering.sentence_profile import profile
from finagent.language.compounds import expanded
from finagent.language.lemmas import part_of_speech
from finagent.question.model import Question
from finagent.yaml_data import load_yaml

MARGIN = 5.0  # logit units: a sentence naming the other case is not the asked one
_FILE = "contrast_qualifiers.yaml"
Phrases = tuple[tuple[str, tuple[tuple[str, ...], ...]], ...]


@cache
def _classes() -> tuple[Phrases, ...]:
    text = resources.files("finagent.answering").joinpath("data", _FILE).read_text("utf-8")
    data = load_yaml(text) or {}
    return tuple(
        tuple(
            (str(value), tuple(tuple(str(p).split()) for p in phrases))
            for value, phrases in values.items()
        )
        for values in data.values()
    )


def _has(sequence: Sequence[str], phrase: tuple[str, ...]) -> list[int]:
    """The starts of ``phrase`` as a run in ``sequence``."""
    n = len(phrase)
    return [i for i in range(len(sequence) - n + 1) if tuple(sequence[i : i + n]) == phrase]


@cache
def _adjectives() -> tuple[str, ...]:
    """The adjectives opening the classes' phrases («заграничный»): a clipped compound of
    the question may name one («загранкомандировка»)."""
    return tuple(
        dict.fromkeys(
            phrase[0]
            for values in _classes()
            for _, phrases in values
            for phrase in phrases
            if part_of_speech(phrase[0]) == "ADJF"
        )
    )


def asked_sequence_of(question: Question) -> tuple[str, ...]:
    """The question's lemmas in order, a clipped compound of a class's adjective written
    out («загранкомандировка» — «заграничный командировка»)."""
    return expanded(profile(question.text).sequence, _adjectives())


def asked_values_of(question: Question) -> list[tuple[Phrases, str]]:
    """Each class the question names exactly one value of, with that value."""
    sequence = asked_sequence_of(question)
    found = []
    for values in _classes():
        asked = values_named(sequence, values)
        if len(asked) == 1:
            found.append((values, next(iter(asked))))
    return found


def value_spans(sequence: Sequence[str], values: Phrases, value: str) -> list[tuple[int, int]]:
    """The (start, end) lemma positions where ``sequence`` names ``value`` of the class
    (not inside a longer phrase of another value)."""
    spans: list[tuple[int, int, str]] = []
    for name, phrases in values:
        for phrase in phrases:
            spans += [(i, i + len(phrase), name) for i in _has(sequence, phrase)]
    return [
        (start, end)
        for start, end, name in spans
        if name == value
        and not any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in spans)
    ]


def values_named(sequence: Sequence[str], values: Phrases) -> frozenset[str]:
    """The values of a class the lemma ``sequence`` names; a phrase lying inside a longer
    phrase of another value («один период» in «более один период») is that value's."""
    spans: list[tuple[int, int, str]] = []
    for value, phrases in values:
        for phrase in phrases:
            spans += [(i, i + len(phrase), value) for i in _has(sequence, phrase)]
    kept = {
        value
        for start, end, value in spans
        if not any(s <= start and end <= e and (e - s) > (end - start) for s, e, _ in spans)
    }
    return frozenset(kept)


def prefer_asked_qualifier(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the sentence of the question's own case first (see above)."""
    if question.several or len(ranked) < 2 or ranked[0].chunk.source not in LEGAL_SOURCES:
        return ranked
    asked_sequence = asked_sequence_of(question)
    top = ranked[0]
    top_sequence = profile(top.ranked_text).sequence
    for values in _classes():
        asked = values_named(asked_sequence, values)
        if len(asked) != 1:
            continue
        named = values_named(top_sequence, values)
        if not named or asked <= named:
            continue
        best = first_near(ranked, MARGIN, partial(_names_only, values, asked, question))
        if best is not None:
            return promoted(ranked, best)
    return ranked


def _names_only(
    values: Phrases, asked: frozenset[str], question: Question, candidate: Candidate
) -> bool:
    """``candidate`` names the asked value of the class, no other, and states the asked type."""
    own = values_named(profile(candidate.ranked_text).sequence, values)
    return (
        candidate.chunk.source in LEGAL_SOURCES
        and own == asked
        and states_asked(profile(candidate.sentence), question)
    )
