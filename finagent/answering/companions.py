"""A second value asked beside a card field: «сколько и до какого числа?».

A question may ask two values of different types («с какого числа и сколько в месяц?»,
«сколько осталось доплатить и до какой даты?»). When a card field answers one, the other
is read from the same sentence of the document (a clause that states an amount states its
date or term with it), else from the nearest value of that type in the sentences just
after it. Of several dates, those after the preposition the question asks with («до
какого числа» — «до», «не позднее»; «с какого числа» — «с»).
"""

from __future__ import annotations

from collections.abc import Sequence

from finagent.cards.model import DocumentCard, Fact
from finagent.language.cues import find_cue
from finagent.language.text import analyse
from finagent.question.model import Question

# the answer types a companion may state, the fact kinds of each and its name
_TYPES: dict[str, tuple[set[str], str]] = {
    "date": ({"date"}, "дата"),
    "period": ({"term"}, "срок"),
    "amount": ({"amount"}, "сумма"),
}
# how the question asks for the date, and the words before a date of that kind
_BOUNDS: tuple[tuple[tuple[str, ...], frozenset[str]], ...] = (
    (("до какого", "до какой", "по какое", "не позднее"), frozenset({"до", "позднее", "по"})),
    (("с какого", "с какой", "начиная с"), frozenset({"с", "начинать"})),
)
_LOOK_BACK = 3  # words before a value that may be its preposition
_NEAR = 600  # characters after the answer's sentence where its companion may be stated


def _preceding(fact: Fact) -> set[str]:
    text = fact.sentence.text[: fact.start - fact.sentence.start]
    lemmas = [t.lemma for s in analyse(text).sentences for t in s.tokens]
    return set(lemmas[-_LOOK_BACK:])


def _bounded(question: Question, facts: list[Fact]) -> list[Fact]:
    for asked, before in _BOUNDS:
        if any(find_cue(question.lemmas, cue) >= 0 for cue in asked):
            fitting = [f for f in facts if _preceding(f) & before]
            return fitting or facts
    return facts


def _near(question: Question, facts: list[Fact], stated: Sequence[Fact]) -> list[Fact]:
    """The facts of the answer's sentences, else the nearest one stated just after them;
    those after the preposition the question asks with, when any is."""
    own = {f.sentence for f in stated}
    inside = [f for f in facts if f.sentence in own]
    if inside:
        return _bounded(question, inside)
    end = max(f.sentence.end for f in stated)
    after = sorted((f for f in facts if end <= f.start <= end + _NEAR), key=lambda f: f.start)
    return _bounded(question, after)[:1]


def companion_facts(
    question: Question, card: DocumentCard, stated: Sequence[Fact]
) -> list[tuple[str, list[Fact]]]:
    """(name, facts) for each asked type none of the ``stated`` facts has."""
    out: list[tuple[str, list[Fact]]] = []
    if not stated:
        return out
    kinds_stated = {f.kind for f in stated}
    for answer_type in dict.fromkeys(question.answer_types):
        if answer_type not in _TYPES:
            continue
        kinds, name = _TYPES[answer_type]
        if not kinds & kinds_stated:
            near = _near(question, [f for f in card.facts if f.kind in kinds], stated)
            if near:
                out.append((name, near))
    return out
