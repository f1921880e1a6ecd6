"""Dotted abbreviations: letters joined by dots («в т.ч.», «т.е.», «т.к.», «И.С.»).

No sentence ends at one, so neither a line that ends with one («… 512 400 руб., в т.ч.» /
«НДС 92 400 руб., — не позднее 15 мая») nor a sentence splitter may cut the clause there:
the value after it (the payment's date, the VAT) belongs to the clause before it.
"""

from __future__ import annotations

_DOT = "."
_STRIP = "(«\"'"


def dotted_letters(word: str) -> bool:
    """Two letters or more, each alone between dots (a trailing dot optional): «т.ч.»,
    «т.е», «И.С.»; not «ст.», «2.3», «руб.»."""
    parts = word.strip(_STRIP).rstrip(_DOT).split(_DOT)
    return len(parts) >= 2 and all(len(p) == 1 and p.isalpha() for p in parts)


def ends_with_dotted(line: str) -> bool:
    """The line's last word is a dotted abbreviation (:func:`dotted_letters`)."""
    words = line.rstrip().rsplit(None, 1)
    return bool(words) and line.rstrip().endswith(_DOT) and dotted_letters(words[-1])
