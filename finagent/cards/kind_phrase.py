"""The kind a heading names by its own head noun phrase: «ПЛАТЁЖНОЕ ПОРУЧЕНИЕ № 318» is a
«платёжное поручение», «# Авансовый отчёт № 12» an «авансовый отчёт», «ПОЛИС СТРАХОВАНИЯ
№ …» a «полис страхования», whatever kinds ``finagent.cards.doc_types`` lists.

A document names itself in a heading: a line in capitals or a Markdown heading whose words
open with nouns and adjectives in the nominative (pymorphy3), their genitive complements
after them, then the number sign. A label line («Основание: договор …»), a letterhead and a
form's own metadata («Унифицированная форма № ТОРГ-12», «Код по ОКУД») are not headings.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from finagent.language.lemmas import genitive, lemma, nominative, part_of_speech
from finagent.language.text import analyse

_NOUN_PHRASE = frozenset({"NOUN", "ADJF", "PRTF"})
_NUMBER_SIGNS = frozenset({"№", "N"})
_MAX_COMPLEMENTS = 3
# «за октябрь 2026», «от 05.03.2026»: a heading dated instead of numbered
_PERIOD_WORDS = frozenset({"за", "от"})
_PERIOD_WITHIN = 4
_MIN_HEAD = 4  # letters of a head word («акт» is a known kind; «код», «лист» are no titles)
# a form's metadata names the form, not the document: «Унифицированная форма № АО-1»
_FORM_WORDS = frozenset({"форма", "код", "окуд", "окпо", "бланк", "лист", "страница"})
# a sheet of a form («Лист 2») is no title, but a kind of sheet is: «путевой лист»,
# «расчётный лист», «лист нетрудоспособности»
_SHEET_WORDS = frozenset({"лист"})
# «Основание: договор поставки …», «Транспортная накладная: № 214-Т»: a field, not a title
_LABEL = re.compile(r"^[^:№\d]{1,60}?:")
_LABEL_WORDS = 4


@dataclass(frozen=True)
class KindPhrase:
    name: str  # as written, lower case: «платёжное поручение», «договор страхования»
    lemmas: tuple[str, ...]  # «платежный», «поручение»
    head: str  # the last word in the nominative, lower case: «поручение», «накладная», «полис»


def is_label_line(line: str) -> bool:
    """«Основание: договор поставки № ТП-31/2026»: a field label and its value."""
    found = _LABEL.match(line)
    return found is not None and len(found.group(0).split()) <= _LABEL_WORDS


def in_capitals(line: str) -> bool:
    """A line that opens with a word in capitals (not an abbreviation of a few letters)."""
    first = line.split()[0] if line.split() else ""
    letters = first.replace("-", "")
    return letters.isalpha() and letters.isupper() and len(letters) >= _MIN_HEAD


def kind_phrase(line: str, marked: bool = False, numbered: bool = True) -> KindPhrase | None:
    """The kind a heading line names, or None; ``marked``: the line is set as a heading
    (Markdown «#» or capitals, as written before any case folding).
    Unless ``numbered`` is False (a line already known to be the heading), the phrase must
    be followed by a number sign: a document names itself with its number."""
    if not line.strip() or is_label_line(line):
        return None
    if numbered and not (marked or in_capitals(line)):
        return None
    tokens = [t for s in analyse(line).sentences for t in s.tokens]
    words: list[str] = []
    at = 0
    if tokens and tokens[0].text in _NUMBER_SIGNS:
        return None
    # adjectives, then the head noun (a substantivised «накладная» may end it instead)
    while at < len(tokens) and _in_phrase(tokens[at].text, nominative):
        words.append(tokens[at].text)
        at += 1
        if part_of_speech(words[-1]) == "NOUN":
            break
    if not words:
        return None
    head = words[-1].lower()
    complements = 0
    while (
        at < len(tokens)
        and complements < _MAX_COMPLEMENTS
        and _in_phrase(tokens[at].text, genitive)
    ):
        # «полис страхования имущества»: the first complement names the kind
        if complements == 0 and part_of_speech(tokens[at].text) == "NOUN":
            words.append(tokens[at].text)
        complements += 1
        at += 1
    if numbered and not _names_itself([t.text for t in tokens[at:]]):
        return None
    lemmas = tuple(lemma(word) for word in words)
    form_words = _FORM_WORDS & set(lemmas)
    if len(words) > 1 and form_words <= _SHEET_WORDS:
        form_words = frozenset()
    if form_words or len(max(words, key=len)) < _MIN_HEAD:
        return None
    return KindPhrase(" ".join(word.lower() for word in words), lemmas, head)


def _names_itself(rest: list[str]) -> bool:
    """What follows a heading's noun phrase: its number sign, or the period or date it is
    for («… ЗА ОКТЯБРЬ 2026 г.», «… от 05.03.2026»)."""
    if not rest:
        return False
    if rest[0] in _NUMBER_SIGNS:
        return True
    return rest[0].lower() in _PERIOD_WORDS and any(
        any(ch.isdigit() for ch in word) for word in rest[1:_PERIOD_WITHIN]
    )


def _in_phrase(word: str, case_check: Callable[[str], bool]) -> bool:
    if not word.replace("-", "").isalpha() or (word.isupper() and len(word) <= 3):
        return False
    return part_of_speech(word) in _NOUN_PHRASE and case_check(word)
