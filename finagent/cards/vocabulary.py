"""A document's vocabulary: the lemmas it uses, so that a question can be matched to the
documents that speak of what it names («Тайга.Смета», «паллето-место», «на Промышленной»)."""

from __future__ import annotations

import re

from finagent.language.form_codes import is_form_code
from finagent.language.lemmas import lemma, word_parts
from finagent.language.text import Analysed

_MIN_LETTERS = 3
# a word of the text as written between spaces and punctuation that ends it
_CHUNK = re.compile(r"[^\s,;:«»()\[\]?!|*\"'`]+")
_ENDING = ".,;:»)-–—"
# «23-я», «16-го», «5-ти»: an ordinal or a numeral's ending, not a code
_ORDINAL = re.compile(r"^\d+-?[а-яё]{1,3}$", re.IGNORECASE)
_NUMBER_SIGN = re.compile(r"(?:№|\bN)\s*$")
_MIN_CODE = 3
MAX_CODES = 300


def vocabulary_of(analysed: Analysed) -> list[str]:
    """Sorted lemmas of the words (and of the parts of compound words) of the text."""
    found: set[str] = set()
    for sentence in analysed.sentences:
        for token in sentence.tokens:
            if sum(ch.isalpha() for ch in token.text) < _MIN_LETTERS:
                continue
            for part in word_parts(token.text):
                term = token.lemma if part == token.text else lemma(part)
                if len(term) >= _MIN_LETTERS and any(ch.isalpha() for ch in term):
                    found.add(term)
    return sorted(found)


def code_like(chunk: str) -> bool:
    """A word that names one thing by a code: a digit with a letter («HT-520», «R750»,
    «ОЦ-0913/2026») or digits joined by two signs («12-19/47»); not a plain number, a
    range or a fraction («1-3», «2025-2026», «1/3»), a date or a clause («09.10.2026»,
    «3.1»), an ordinal («23-я») or a unified form's code («ОС-1», «6-НДФЛ»)."""
    if len(chunk) < _MIN_CODE or "." in chunk or not any(ch.isdigit() for ch in chunk):
        return False
    if _ORDINAL.match(chunk) or is_form_code(chunk):
        return False
    if any(ch.isalpha() for ch in chunk):
        return True
    return sum(ch in "-–/" for ch in chunk) >= 2  # «1/3», «6/2020»: a fraction, a date


def written_codes(text: str) -> list[str]:
    """The codes ``text`` writes (``code_like``), as written, in order, once each; not a
    number after its sign («№ 12-19/47»: the cards read numbers as numbers)."""
    found: dict[str, None] = {}
    for match in _CHUNK.finditer(text):
        chunk = match.group().rstrip(_ENDING)
        before = text[max(0, match.start() - 3) : match.start()]
        if code_like(chunk) and not _NUMBER_SIGN.search(before):
            found.setdefault(chunk, None)
    return list(found)
