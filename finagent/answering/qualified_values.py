"""Of a sentence's values, the one beside the case the question's qualifier names.

A rule states one figure for a case and another for its qualified case in one sentence:
«…не более 700 рублей за каждый день нахождения в служебной командировке на территории
Российской Федерации и не более 2 500 рублей за каждый день нахождения в служебной
командировке за пределами территории Российской Федерации». A question naming the
qualified case («суточные в загранкомандировке») asks the figure beside the words of that
case, not the one beside the other case. The case is read two ways:

- a value of a contrast class (``data/contrast_qualifiers.yaml``: within Russia or abroad,
  one tax period or several) the question names, a clipped compound of a class's adjective
  included («загранкомандировка» — «заграничный»: :func:`asked_qualifier.asked_values_of`),
  when the sentence names that value and another of its class;
- a clipped compound of the question the sentence writes out («заграничной командировке»
  for «загранкомандировка», :mod:`finagent.language.compounds`) while it names the
  compound's noun elsewhere without the qualifier.

The value the asked case stands in parallel with is kept (:func:`of_asked_case`); a
sentence's start cut before that case gives way to its window that names it
(:func:`names_asked_case`, read by :mod:`cut_sentences`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finagent.answering.asked_qualifier import asked_values_of, value_spans, values_named
from finagent.language.compounds import compound_span, may_be_compound
from finagent.language.text import Token, analyse
from finagent.question.model import Question

# the number a value opens with, as the quote writes it («2 500» of «2 500 рублей»)
_FIGURE = re.compile(r"[\d\s.,/]*\d")


def _figure(value: str) -> str:
    found = _FIGURE.match(value.strip())
    return found.group().strip() if found else value


def _case_marks(question: Question, lemmas: Sequence[str]) -> list[tuple[int, bool]]:
    """The token positions where the sentence ``lemmas`` names each case it contrasts, and
    whether it is the asked one (see the module's docstring); empty when it contrasts none
    the question asks."""
    for values, asked in asked_values_of(question):
        named = values_named(lemmas, values)
        if asked in named and len(named) > 1:
            return sorted(
                (start, name == asked)
                for name in named
                for start, _ in value_spans(lemmas, values, name)
            )
    held = set(lemmas)
    for word in question.topic:
        if word in held or not may_be_compound(word):
            continue
        span = compound_span(word, lemmas)
        if span is None:
            continue
        adjective, noun = span
        # the noun also bare: the sentence contrasts the qualified case with another
        bare = [i for i, lm in enumerate(lemmas) if lm == lemmas[noun] and i != noun]
        if bare:
            return sorted([(adjective, True), *((i, False) for i in bare)])
    return []


def _tokens(text: str) -> list[Token]:
    return [t for sentence in analyse(text).sentences for t in sentence.tokens]


def of_asked_case(question: Question, quote: str, values: tuple[str, ...]) -> tuple[str, ...]:
    """``values`` (as the quote states them) narrowed to the one of the case the question
    asks, when the quote contrasts it with others: the cases and the values stand in
    parallel («700 рублей … на территории РФ и 2 500 рублей … за пределами территории
    РФ», «для заграничных — 2 500 рублей, по России — 700 рублей»), so the n-th case named
    is the n-th value's; all of them when the counts differ."""
    if len(values) < 2:
        return values
    tokens = _tokens(quote)
    marks = _case_marks(question, [t.lemma for t in tokens])
    placed = sorted((quote.find(_figure(v)), v) for v in values)
    if len(marks) != len(placed) or any(at < 0 for at, _ in placed):
        return values
    return tuple(v for (_, v), (_, asked) in zip(placed, marks, strict=True) if asked)


def asked_cases(question: Question, sentence: str) -> int:
    """How many of the question's cases the sentence names: the values of contrast classes
    it asks and its clipped compounds written out, contrasted with another case or not."""
    lemmas = [t.lemma for t in _tokens(sentence)]
    named = sum(
        1 for values, asked in asked_values_of(question) if value_spans(lemmas, values, asked)
    )
    held = set(lemmas)
    named += sum(
        1
        for word in question.topic
        if word not in held and may_be_compound(word) and compound_span(word, lemmas) is not None
    )
    return named
