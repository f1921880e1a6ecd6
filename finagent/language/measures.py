"""Quantities in units of measure: «20 кв. м», «150 квадратных метров», «12 тонн», «5 м²».

A quantity is a number (digits, or words with ``words``) followed by its unit: the unit's
word by lemma, perhaps after an adjective of its dimension («квадратных», «кубических»),
or one of its standard symbols («кв. м», «м²», «т», «кг», «га»). Units of time and money
are read by :mod:`periods` and :mod:`money`.
"""

from __future__ import annotations

from dataclasses import dataclass

from finagent.language.numbers import read_quantity, skip_parenthetical
from finagent.language.text import Analysed, AnalysedSentence

# the standard symbols of a unit, as token texts (a point after one is the symbol's)
SYMBOLS: dict[str, tuple[tuple[str, ...], ...]] = {
    "метр": (("кв", ".", "м"), ("кв", "м"), ("м²",), ("м2",), ("м",), ("куб", ".", "м"), ("м³",)),
    "километр": (("км",),),
    "гектар": (("га",),),
    "тонна": (("т",),),
    "килограмм": (("кг",),),
    "грамм": (("г",),),
    "литр": (("л",),),
    "штука": (("шт",),),
    "киловатт": (("квт",),),
    "кубометр": (("куб", ".", "м"), ("м³",)),
}
# adjectives of a dimension that may stand between the number and the unit's word
DIMENSIONS = frozenset({"квадратный", "кубический", "погонный"})


@dataclass(frozen=True)
class Quantity:
    text: str  # as written: «20 кв. м»
    unit: str  # the unit's lemma: «метр»


def _symbol_at(sentence: AnalysedSentence, j: int, unit: str) -> int | None:
    """Index after a symbol of ``unit`` at token ``j``, or None."""
    texts = [t.text.lower() for t in sentence.tokens[j : j + 3]]
    for symbol in SYMBOLS.get(unit, ()):
        if tuple(texts[: len(symbol)]) == symbol:
            return j + len(symbol)
    return None


def _unit_at(sentence: AnalysedSentence, j: int) -> tuple[str, int] | None:
    tokens = sentence.tokens
    if j < len(tokens) and tokens[j].lemma in DIMENSIONS:
        j += 1
    if j >= len(tokens):
        return None
    if tokens[j].lemma in SYMBOLS:
        return tokens[j].lemma, j + 1
    for unit in SYMBOLS:
        end = _symbol_at(sentence, j, unit)
        if end is not None:
            return unit, end
    return None


def quantities_in(analysed: Analysed, words: bool = False) -> list[Quantity]:
    """Every quantity with a unit of measure, in order."""
    found: list[Quantity] = []
    for sentence in analysed.sentences:
        i = 0
        while i < len(sentence.tokens):
            number = read_quantity(sentence, i, words)
            if number is None:
                i += 1
                continue
            hit = _unit_at(sentence, skip_parenthetical(sentence, number[1]))
            if hit is None:
                i = number[1]
                continue
            unit, end = hit
            found.append(Quantity(sentence.words(i, end - 1), unit))
            i = end
    return found
