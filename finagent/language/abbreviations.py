"""Dotted abbreviations: letters joined by dots («в т.ч.», «т.е.», «т.к.», «И.С.»).

A sentence goes on past most of them, so neither a line that ends with one («… 512 400
руб., в т.ч.» / «НДС 92 400 руб., — не позднее 15 мая») nor a sentence splitter may cut
the clause there: the value after it (the payment's date, the VAT) belongs to the clause
before it. Two kinds may close a sentence, and do when a new one opens after them (a
capitalised word that is no initial): one that closes a list («… и т.д.», «и т. п.», «и
др.») and a surname's initials («… подписал Гущин А. В.», «Гущин А.В.»).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from finagent.language.lemmas import surname
from finagent.yaml_data import load_yaml

_DOT = "."
_STRIP = "(«\"'"
# the abbreviations that close a list after «и», without their dots and spaces
_LIST_ENDS = frozenset({"тд", "тп", "др", "пр"})
_AND = "и"
_INITIAL = re.compile(r"^[А-ЯЁ]\.(?:[А-ЯЁ]\.)?$")  # «А.», «А.В.»
_INITIALS = 2  # a first name's and a patronymic's
_OPENS_WORD = re.compile(r"^[А-ЯЁA-Z][А-ЯЁA-Zа-яёa-z]")  # «Оплата», «НДС»; not «А.»


def dotted_letters(word: str) -> bool:
    """Two letters or more, each alone between dots (a trailing dot optional): «т.ч.»,
    «т.е», «И.С.»; not «ст.», «2.3», «руб.»."""
    parts = word.strip(_STRIP).rstrip(_DOT).split(_DOT)
    return len(parts) >= 2 and all(len(p) == 1 and p.isalpha() for p in parts)


def _closes_list(words: list[str]) -> bool:
    """«… и т.д.», «… и т. п.», «… и др.»."""
    for size in (1, 2):
        if len(words) > size:
            letters = "".join(words[-size:]).replace(_DOT, "").lower()
            if letters in _LIST_ENDS and words[-size - 1].lower() == _AND:
                return True
    return False


def _after_surname(words: list[str]) -> bool:
    """«… Гущин А. В.», «… Гущин А.В.», «… Гущин А.»: initials after a surname."""
    initials = 0
    while initials < min(_INITIALS, len(words) - 1) and _INITIAL.match(words[-1 - initials]):
        initials += 1
    return initials > 0 and surname(words[-1 - initials].strip(_STRIP))


def closes_sentence(before: str, after: str) -> bool:
    """``before`` ends with an abbreviation that may close a sentence — one that closes a
    list («и т.д.», «и т. п.», «и др.») or a surname's initials («Гущин А. В.») — and
    ``after`` opens a new one: a capitalised word or one in capitals («Оплата», «НДС»),
    not another initial («А. В. Гущин»), a bracket, a figure or a lower-case word."""
    words = before.rstrip().split()
    if not words or not before.rstrip().endswith(_DOT) or not _OPENS_WORD.match(after.lstrip()):
        return False
    return _closes_list(words) or _after_surname(words)


@cache
def _abbreviations() -> dict[str, frozenset[str]]:
    """The lists of ``data/abbreviations.yaml``."""
    text = resources.files("finagent.language").joinpath("data", "abbreviations.yaml")
    data = load_yaml(text.read_text("utf-8"))
    return {key: frozenset(str(w) for w in data[key]) for key in ("naming", "units")}


def _after_figure(words: list[str]) -> bool:
    return len(words) > 1 and words[-2].strip(_STRIP)[-1:].isdigit()


def leaves_open(before: str, after: str = "", *, within_line: bool = False) -> bool:
    """The sentence ``before`` goes on into ``after`` past the abbreviation it ends with:
    the one reader of a sentence's end at an abbreviation, for a line's end (a wrapped
    line, :mod:`finagent.cards.unwrap`) and, ``within_line``, for a passage's sentences
    (:func:`finagent.answering.evidence.units_of`). It goes on past

    - a dotted abbreviation (:func:`dotted_letters`: «в т.ч.», «т.е.», «И.С.»);
    - one of what follows it (``naming`` of ``data/abbreviations.yaml``: «г. Москва», «ул.»,
      «пр. Ленина», «ст. 88»), not right after a figure («2025 г.», «8 ч.»: a unit's);
    - within a line, also a unit or a region (``units``: «5 000 руб.», «Свердловская обл.»),
      a ``naming`` one after a figure and a single letter (an initial, «А.»);

    not past one that closes it before ``after`` (:func:`closes_sentence`: «… и т.д.»,
    «… и пр.», «… подписал Гущин А. В.» before a capitalised word)."""
    words = before.rstrip().split()
    if not words or not before.rstrip().endswith(_DOT) or closes_sentence(before, after):
        return False
    last = words[-1].rstrip(_DOT).lstrip(_STRIP).lower()
    if dotted_letters(words[-1]):
        return True
    known = _abbreviations()
    if within_line:
        single = len(last) == 1 and last.isalpha()
        return single or last in known["naming"] or last in known["units"]
    return last in known["naming"] and not _after_figure(words)
