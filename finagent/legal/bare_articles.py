"""Articles a question names by their number alone: «по 119», «по 174 статье», «145-й статьи».

:func:`finagent.legal.references.find_references` wants the article word before the number
(«ст. 119», «статья 174»); a hurried question puts the word after the number («по 122
статье», «по 145-й статье») or leaves it out («штраф по 119», «освобождение по 145 на
сколько?»). This reading is for questions only: in a passage «по 20» is a value, not an
article. A number is a Tax Code article only when nothing makes it something else:

- another code is named after it («по 81 статье ТК РФ»: the Labour Code's);
- it is a point of the article after it («пункту 1 статьи 126»), or a count of articles
  («какие 2 статьи»: a plural adjective before it);
- a bare «по N» counts something: a unit or a noun follows it («по 3 этапу», «по 100
  рублей», «по 20 %»), a rate per unit of time («по 20 в год»), or another number after a
  conjunction and then such a word («по 13 или 15 процентов»);
- it ends a range («с 1 по 22 число», «с 10.03 по 20.03»), is a date («20.03») or an
  ordinal day («по 90-й день»), or is a chapter («глава … по 26.2»).

The words read (the article's, a point's, a chapter's) are lemmas in
``data/bare_articles.yaml``; «Налоговом кодексе» is the Tax Code by the reference reader's
own code names (:func:`finagent.legal.references.code_at`).
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from finagent.language.lemmas import best_parse, lemma
from finagent.language.periods import UNITS
from finagent.legal.references import code_at
from finagent.yaml_data import load_yaml

_NUM = r"\d{1,3}(?:\.\d{1,2})?"
# letters after a hyphen or glued to the digits: an ordinal's ending («145-й», «145й») when
# :func:`_ordinal_ending` says so, else part of a document number («47-к»)
_SUFFIX = r"(?:-?(?P<suffix>[а-яё]{1,3})(?![а-яё]))?"
# a number and the word after it («174 статье», «119 ст.»), read by its lemma
_NUMBER_WORD = re.compile(
    rf"(?<![\d.,])(?P<article>{_NUM}){_SUFFIX}\s+(?P<word>[а-яё]+)\.?(?!\s*\d)",
    re.IGNORECASE,
)
# «по 119», «по 145-й» (two digits at least: «по 3 в месяц» is a value) with what
# follows it read by :func:`_free_after`
_BARE = re.compile(
    rf"(?<![\w.])по\s+(?P<article>\d{{2,3}}(?:\.\d{{1,2}})?){_SUFFIX}(?![\w%.,-]*\d)",
    re.IGNORECASE,
)
# «с 1 по 22», «с 10.03 по 20.03»: the end of a range
_RANGE_START = re.compile(r"(?:^|\s)с\s+\d+(?:\.\d+)*(?:-?[а-яё]{1,3})?\s*$", re.IGNORECASE)
_WORD = re.compile(r"[А-Яа-яЁёA-Za-z]+")
_NEXT_WORD = re.compile(r"\s*([А-Яа-яЁёA-Za-z]+)")
_NEXT_NUMBER = re.compile(r"\s*\d[\d.,]*")
# what a value's number is followed by: a noun, an adjective of a noun, a number word
_VALUE_POS = frozenset({"NOUN", "ADJF", "ADJS", "NUMR", "PRTF"})
# a count's determiner before the number («какие 2 статьи», «эти 3 статьи»)
_DETERMINER_POS = frozenset({"ADJF", "PRTF"})


@cache
def _ordinal_endings() -> frozenset[str]:
    """The last one to three letters of every form of the ordinals (pymorphy3 lexemes of
    «первый», «второй», «третий»): «й», «го», «му», «ая», «ью» ..."""
    tails: set[str] = set()
    for word in ("первый", "второй", "третий"):
        for form in best_parse(word).lexeme:
            tails.update(form.word[-n:] for n in (1, 2, 3))
    return frozenset(tails)


def _ordinal_ending(m: re.Match[str]) -> bool:
    """No letters after the number, or an ordinal's ending."""
    suffix = m.group("suffix")
    return suffix is None or suffix.lower().replace("ё", "е") in _ordinal_endings()


@cache
def _lexicon() -> dict[str, frozenset[str]]:
    text = resources.files("finagent.legal").joinpath("data/bare_articles.yaml")
    data = load_yaml(text.read_text("utf-8"))
    return {key: frozenset(str(w) for w in words) for key, words in data.items()}


def _is(word: str, kind: str) -> bool:
    """The word (as written or by its lemma) is one of the lexicon's ``kind``."""
    words = _lexicon()[kind]
    return word.lower() in words or lemma(word) in words


def _article_word(word: str) -> bool:
    return _is(word, "article_words")


def _other_code_after(text: str, end: int) -> bool:
    """A code other than the Tax Code is named at ``end`` («ТК РФ», «Гражданского кодекса»)."""
    code = code_at(text, end)
    return code is not None and code != "nk"


def _free_after(text: str, end: int) -> bool:
    """After the number comes the end, a punctuation mark, the Tax Code's name, the article
    word or a word that is no noun (a verb, a preposition, «сколько»): nothing the number
    counts."""
    rest = text[end:]
    stripped = rest.lstrip()
    if not stripped or stripped[0] in "?!.,;:—–)":
        return True
    if stripped[0] in "%₽$€-/":
        return False
    code = code_at(text, end)
    if code is not None:
        return code == "nk"
    m = _NEXT_WORD.match(text, end)
    if m is None:
        return False
    word = m.group(1)
    if _article_word(word):  # «по 81 ст. ТК РФ»: the point of the abbreviation first
        after = m.end() + (text[m.end() : m.end() + 1] == ".")
        return not _other_code_after(text, after)
    pos = best_parse(word.lower()).tag.POS
    if pos == "CONJ":  # «по 13 или 15 процентов»: what follows the other number decides
        number = _NEXT_NUMBER.match(text, m.end())
        return _free_after(text, number.end()) if number else True
    if pos == "PREP" and _is(word, "rate_prepositions"):  # «по 20 в год»: a rate per unit
        unit = _NEXT_WORD.match(text, m.end())
        return unit is None or lemma(unit.group(1)) not in UNITS
    return pos not in _VALUE_POS


def _words_before(text: str, at: int) -> list[str]:
    return _WORD.findall(text[:at])


def _point_or_count(text: str, at: int) -> bool:
    """The number at ``at`` is a point of the article after it («пункту 1 статьи 126») or
    a count of articles («какие 2 статьи»)."""
    before = _words_before(text, at)
    if not before:
        return False
    last = before[-1]
    if _is(last, "point_words"):
        return True
    parse = best_parse(last.lower())
    return parse.tag.POS in _DETERMINER_POS and "plur" in parse.tag


def _chapter(text: str, at: int) -> bool:
    """A chapter word stands before the number with no article word after it."""
    for word in reversed(_words_before(text, at)):
        if _article_word(word):
            return False
        if _is(word, "chapter_words"):
            return True
    return False


def bare_articles(question: str) -> list[str]:
    """The article numbers ``question`` names without the article word before them, in
    order («штраф по 119, а по 122 статье?» -> ["119", "122"])."""
    found: list[tuple[int, str]] = []
    worded: set[int] = set()
    for m in _NUMBER_WORD.finditer(question):
        if not _article_word(m.group("word")) or not _ordinal_ending(m):
            continue
        worded.add(m.start("article"))
        if _point_or_count(question, m.start()) or _other_code_after(question, m.end()):
            continue
        found.append((m.start(), m.group("article")))
    for m in _BARE.finditer(question):
        number_at = m.start("article")
        article = m.group("article")
        if number_at in worded or re.search(r"\.0", article):  # «20.03» is a date
            continue
        if not _ordinal_ending(m):  # «по 47-к»: a document's number
            continue
        if _RANGE_START.search(question[: m.start()]) or not _free_after(question, m.end()):
            continue
        if _chapter(question, number_at):
            continue
        found.append((number_at, article))
    return [article for _, article in sorted(found)]
