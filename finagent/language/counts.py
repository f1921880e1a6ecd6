"""A count written in words: «в течение двух месяцев» is stated on an answer's first line
in digits with its noun agreed («2 месяца»), as an accountant reads a figure; the quote
keeps the source's words. The figure checks read such a count back as a number
(:func:`worded_counts`), so a source stating «двух месяцев» supports «2 месяца» and a
digit the source states neither way is still removed."""

from __future__ import annotations

import re
from decimal import Decimal
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from finagent.language.lemmas import fold, known_word, parses
from finagent.language.money import CURRENCIES, MULTIPLIERS
from finagent.language.numbers import NUMERALS

if TYPE_CHECKING:
    import pymorphy3

# a count of 1 (or 21, 31 …) takes the nominative singular; 2-4 (22-24 …) and the rest
# take the genitive (singular for the noun after 2-4, plural otherwise); a fraction
# («полтора», «1,5», «0,5») takes the noun in the genitive singular
_FEMININE_FORMS = {"один": "одна", "два": "две", "полтора": "полторы"}
_WORD = re.compile(r"[А-Яа-яЁё]+")
# a decimal fraction in digits before the counted noun: «1,5 месяца», «0,5 года»
_FRACTION = re.compile(r"\d+[,.]\d+")
_SUM_WORDS = frozenset({*CURRENCIES, *MULTIPLIERS, "копейка", "коп"})


def _numeral(word: str) -> tuple[str, Decimal] | None:
    """The lemma and value of a number word («двух» -> («два», 2), «полутора» ->
    («полтора», 1.5)); «одного» is read by pymorphy3 as an adjective, so any reading whose
    lemma is a number word counts."""
    for parse in parses(fold(word)):
        if parse.normal_form in NUMERALS and {"NUMR", "ADJF"} & parse.tag.grammemes:
            return parse.normal_form, NUMERALS[parse.normal_form]
    return None


def _noun(word: str) -> pymorphy3.analyzer.Parse | None:
    """The noun's reading in the nominative singular («месяцев» -> «месяц», «лет» ->
    «год», «раз» -> «раз», whichever case pymorphy3 reads it in first)."""
    for parse in parses(fold(word)):
        if "NOUN" in parse.tag.grammemes:
            return parse.normalized
    return None


def _money(word: str) -> bool:
    """A currency, a kopeck or a multiplier of a sum («руб», «рублей», «коп», «млн»)."""
    return bool({fold(p.normal_form) for p in parses(fold(word))} & _SUM_WORDS)


def _adjective(word: str) -> bool:
    return any("ADJF" in p.tag.grammemes for p in parses(fold(word)))


def _agreed(words: list[str], wanted: set[str]) -> list[str] | None:
    """The adjectives ``words`` in the ``wanted`` form (one pymorphy3 cannot inflect stays
    as written); None when one is no adjective."""
    out: list[str] = []
    for word in words:
        adjective = next((p for p in parses(fold(word)) if "ADJF" in p.tag.grammemes), None)
        if adjective is None:
            return None
        form = adjective.inflect(wanted)
        out.append(form.word if form is not None else word)
    return out


@lru_cache(maxsize=2_000)
def _counted(phrase: str) -> tuple[tuple[str, ...], Decimal, tuple[str, ...]] | None:
    """``phrase`` (number words or a decimal fraction in digits, adjectives, the counted
    noun) read: the number words in the nominative (or the digits), their value, and the
    words after them agreed with that value."""
    words = phrase.split()
    if len(words) < 2:
        return None
    numerals: list[str] = []
    total = Decimal(0)
    if _FRACTION.fullmatch(words[0]):
        numerals, total, words = [words[0]], Decimal(words[0].replace(",", ".")), words[1:]
        # a sum with its kopecks («714,00 руб», «81,50 руб»; «1,5 млн») is no count
        if total == total.to_integral_value() or not known_word(words[-1]) or _money(words[-1]):
            return None
        # a unit written with capitals is an abbreviation that keeps its form («3,5 кВт»,
        # «1,5 МРОТ»), and a point stays the source's separator («1.5 года»)
        if not words[-1].islower() or "." in numerals[0]:
            return None
    elif any(ch.isdigit() for ch in phrase):
        return None
    else:
        while words and (read := _numeral(words[0])) is not None:
            numerals.append(read[0])
            total += read[1]
            words = words[1:]
    counted = _noun(words[-1]) if words else None
    if not numerals or counted is None or total <= 0:
        return None
    gender = str(counted.tag.gender or "masc")
    if total != total.to_integral_value():
        return _fraction(numerals, total, words, counted, gender)
    whole = int(total)
    last = whole % 100 if whole % 100 < 20 else whole % 10
    if gender == "femn":
        numerals[-1] = _FEMININE_FORMS.get(numerals[-1], numerals[-1])
    adjectives = _agreed(words[:-1], {"nomn", "sing", gender} if last == 1 else {"gent", "plur"})
    agreed = counted.make_agree_with_number(whole)
    if agreed is None or adjectives is None:
        return None
    noun_word = agreed.word
    if {"gent", "plur"} <= agreed.tag.grammemes and _genitive_plural(words[-1]):
        # the source's own plural genitive: «лет», never the dictionary's «годов»
        noun_word = words[-1]
    return tuple(numerals), total, (*adjectives, noun_word)


def _fraction(
    numerals: list[str],
    total: Decimal,
    words: list[str],
    counted: pymorphy3.analyzer.Parse,
    gender: str,
) -> tuple[tuple[str, ...], Decimal, tuple[str, ...]] | None:
    """A fraction's count: the noun in the genitive singular («полтора месяца», «1,5
    месяца», «0,5 года»); its adjectives in the genitive plural after «полтора»
    («полтора календарных месяца») and singular after digits («0,5 календарного года»)."""
    if gender == "femn":
        numerals[-1] = _FEMININE_FORMS.get(numerals[-1], numerals[-1])
    digits = numerals[0][:1].isdigit()
    adjectives = _agreed(words[:-1], {"gent", "sing", gender} if digits else {"gent", "plur"})
    noun = counted.inflect({"gent", "sing"})
    if noun is None or adjectives is None:
        return None
    return tuple(numerals), total, (*adjectives, noun.word)


def _shown(total: Decimal) -> str:
    """A count in digits: thousands spaced, a fraction with a decimal comma («1,5»)."""
    if total == total.to_integral_value():
        return f"{int(total):,}".replace(",", " ")
    return f"{total.normalize():f}".replace(".", ",")


def count_in_nominative(phrase: str) -> str | None:
    """``phrase`` — number words, adjectives, then the counted noun («двух месяцев»,
    «девяноста календарных дней», «одного рабочего дня», «полутора месяцев», «двух раз») —
    in the nominative: «два месяца», «девяносто календарных дней», «один рабочий день»,
    «полтора месяца», «два раза»; a decimal fraction keeps its digits («1,5 месяцев» ->
    «1,5 месяца»). None when it is not such a phrase (digits of a whole number, no number
    word first, no noun last)."""
    read = _counted(phrase)
    return " ".join([*read[0], *read[2]]) if read is not None else None


def count_in_digits(phrase: str) -> str | None:
    """The same count in digits, the words after it agreed with the number: «двух
    месяцев» -> «2 месяца», «девяноста календарных дней» -> «90 календарных дней», «пяти
    лет» -> «5 лет», «полутора месяцев» -> «1,5 месяца». None when ``phrase`` is not such a
    count."""
    read = _counted(phrase)
    return " ".join([_shown(read[1]), *read[2]]) if read is not None else None


def _genitive_plural(word: str) -> bool:
    """``word`` reads as a noun in the genitive plural («лет», «месяцев», «дней»)."""
    return any({"NOUN", "gent", "plur"} <= parse.tag.grammemes for parse in parses(fold(word)))


@cache
def _number_forms() -> frozenset[str]:
    """Every form of the number words (``NUMERALS``' lemmas, «полтора» among them, by
    pymorphy3's lexemes): a quick test before a word is parsed."""
    forms: set[str] = set()
    for word in NUMERALS:
        for parse in parses(word):
            if parse.normal_form == word and {"NUMR", "ADJF"} & parse.tag.grammemes:
                forms |= {fold(form.word) for form in parse.lexeme}
    return frozenset(forms)


def worded_counts(text: str) -> list[Decimal]:
    """The counts ``text`` writes in words before a counted noun («в течение двух
    месяцев», «девяноста календарных дней» -> 2, 90); number words followed by no noun
    («одна из сторон», «двух» alone) are not counts."""
    words = list(_WORD.finditer(text))
    forms = _number_forms()
    found: list[Decimal] = []
    i = 0
    while i < len(words):
        if fold(words[i].group(0)) not in forms or _numeral(words[i].group(0)) is None:
            i += 1
            continue
        j = i + 1
        while j < len(words) and _adjacent(text, words[j - 1], words[j]):
            if _numeral(words[j].group(0)) is None and not _adjective(words[j].group(0)):
                break
            j += 1
        # the stretch i..j-1 is number words and adjectives; the word at j the noun
        if j < len(words) and _adjacent(text, words[j - 1], words[j]) and _noun_first(words[j]):
            phrase = " ".join(w.group(0) for w in words[i : j + 1])
            read = _counted(phrase)
            if read is not None:
                found.append(Decimal(read[1]))
        i = j
    return found


def _noun_first(word: re.Match[str]) -> bool:
    """The word's likeliest reading is a noun («месяцев», not the preposition «из»)."""
    readings = parses(fold(word.group(0)))
    return bool(readings) and "NOUN" in readings[0].tag.grammemes


def _adjacent(text: str, before: re.Match[str], after: re.Match[str]) -> bool:
    """Only spaces part the two words (no punctuation, no line of another clause)."""
    return not text[before.end() : after.start()].strip()
