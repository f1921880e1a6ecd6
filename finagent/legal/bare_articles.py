"""Articles a question names by their number alone: «по 119», «по 174 статье», «145-й статьи».

:func:`finagent.legal.references.find_references` wants the article word before the number
(«ст. 119», «статья 174»); a hurried question puts the word after the number («по 122
статье», «по 145-й статье») or leaves it out («штраф по 119», «освобождение по 145 на
сколько?»). This reading is for questions only: in a passage «по 20» is a value, not an
article. A bare «по N» is an article when nothing makes it a value or a range: no unit
or noun follows it («по 3 этапу», «по 100 рублей», «по 20 %»), it ends no range («с 1 по
22 число»), and it is no ordinal day or period («по 90-й день»).
"""

from __future__ import annotations

import re

from finagent.language.lemmas import best_parse

_NUM = r"\d{1,3}(?:\.\d{1,2})?"
_ENDING = r"(?:-?(?:й|я|ой|ей|ю|ая|ую))?"
# «по 174 статье», «145-й статьи», «статьёй» after the number
# («пункту 1 статьи 126»: the number before the word is a point of the article after it)
_BEFORE_WORD = re.compile(
    rf"(?<![\d.,])(?P<article>{_NUM}){_ENDING}\s+стать(?:я|и|е|ю|ей|ёй)\b(?!\s*\d)",
    re.IGNORECASE,
)
_POINT_BEFORE = re.compile(r"(?:пункт\w*|подпункт\w*|п\.|подп\.|пп\.)\s*$", re.IGNORECASE)
# «по 119», «по 145-й» (two digits at least: «по 3 в месяц» is a value) with what
# follows it read by :func:`_free_after`
_BARE = re.compile(
    rf"(?<![\w.])по\s+(?P<article>\d{{2,3}}(?:\.\d{{1,2}})?){_ENDING}(?![\w%.,-]*\d)", re.IGNORECASE
)
# «с 1 по 22»: the end of a range
_RANGE_START = re.compile(r"(?:^|\s)с\s+\d+(?:-?(?:го|е|й))?\s*$", re.IGNORECASE)
_NEXT_WORD = re.compile(r"\s*([А-Яа-яЁёA-Za-z]+)")
_CODE_WORDS = frozenset({"нк", "ст", "налогового", "налоговому", "кодекса", "кодексу"})
# what a value's number is followed by: a noun, an adjective of a noun, a number word
_VALUE_POS = frozenset({"NOUN", "ADJF", "ADJS", "NUMR", "PRTF"})


def _free_after(text: str, end: int) -> bool:
    """After the number comes the end, a punctuation mark, the Code's name or a word that
    is no noun (a verb, a preposition, «сколько»): nothing the number counts."""
    rest = text[end:]
    stripped = rest.lstrip()
    if not stripped or stripped[0] in "?!.,;:—–)":
        return True
    if stripped[0] in "%₽$€-/":
        return False
    m = _NEXT_WORD.match(rest)
    if m is None:
        return False
    word = m.group(1).lower()
    if word in _CODE_WORDS:
        return True
    return best_parse(word).tag.POS not in _VALUE_POS


def bare_articles(question: str) -> list[str]:
    """The article numbers ``question`` names without the article word before them, in
    order («штраф по 119, а по 122 статье?» -> ["119", "122"])."""
    found: list[tuple[int, str]] = [
        (m.start(), m.group("article"))
        for m in _BEFORE_WORD.finditer(question)
        if not _POINT_BEFORE.search(question[: m.start()])
    ]
    taken = {start for start, _ in found}
    for m in _BARE.finditer(question):
        number_at = m.start("article")
        if any(number_at <= s < m.end() for s in taken):
            continue
        if _BEFORE_WORD.match(question, number_at):
            continue
        if _RANGE_START.search(question[: m.start()]) or not _free_after(question, m.end()):
            continue
        found.append((number_at, m.group("article")))
    return [article for _, article in sorted(found)]
