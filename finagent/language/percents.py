"""Percentages and rates: «20 %», «13 процентов», «0,1 % за каждый день»."""

from __future__ import annotations

from finagent.language.numbers import read_number, skip_parenthetical
from finagent.language.spans import Percent
from finagent.language.text import Analysed

PERCENT_WORDS = frozenset({"%", "процент"})
_PERCENT = PERCENT_WORDS


def percents_in(analysed: Analysed) -> list[Percent]:
    found: list[Percent] = []
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        i = 0
        while i < len(tokens):
            number = read_number(sentence, i)
            if number is None:
                i += 1
                continue
            value, j = number
            j = skip_parenthetical(sentence, j)
            if j < len(tokens) and tokens[j].lemma in _PERCENT:
                found.append(Percent(**sentence.located(i, j), value=value))
                i = j + 1
            else:
                i = max(j, i + 1)
    return found
