"""What a question asks about and whom it names, read from its words (pymorphy3 tags).

- the asked attributes: the noun a question word («какой», «каков», «сколько») or a
  request («подскажите», «назовите») governs, with its genitive complements («вес груза»,
  «фонд оплаты труда») and the nouns coordinated with it («страховая сумма и франшиза»),
  and the relative adjectives before it that name its kind («кадастровая стоимость»; not
  a scope such as «общая», «месячная»: ``SCOPE_ADJECTIVES``); «кто» with the noun it
  names, directly or through a copula («кто главный бухгалтер», «кто является
  поручителем»), asks that role or position, and so does «как зовут» with its object
  («как зовут главного бухгалтера»); a capitalised noun there is a name, not a
  role («кто Соколов»); a possessor between them is read past («какой у нас лимит»),
  and so is a clipped scope adjective («какая макс цена»: ``data/clipped_words.yaml``);
  a question word that ends its clause («ОГРН у поставщика какой?», «а ставка по
  кредиту какая?») governs the clause's first common noun in the nominative before it,
  read past a preposition and its object;
- the proper names: capitalised words inside a sentence (organisations, people, places,
  streets), not abbreviations.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from importlib import resources

from pydantic import BaseModel

from finagent.language.lemmas import (
    best_parse,
    can_be,
    classifying_adjective,
    genitive,
    known_word,
    part_of_speech,
    role_in_nominative,
    verb_form_of,
)
from finagent.question.tables import SCOPE_ADJECTIVES
from finagent.yaml_data import load_yaml

_QUESTION_WORDS = frozenset({"какой", "каков", "каковой", "сколько"})
_REQUESTS = frozenset(
    {"подсказать", "сказать", "назвать", "указать", "сообщить", "уточнить", "прислать"}
)
# between the question word and its noun: «какая кадастровая стоимость», «какой был остаток»
_MODIFIERS = frozenset({"ADJF", "PRTF", "ADVB", "PRCL", "NUMR"})
# «кто» names a role through these («кто является поручителем», «кто выступает гарантом»)
_WHO = "кто"
_COPULAS = frozenset({"быть", "являться", "выступать"})
# «как зовут», «как звать», «как величают» ask the name of the one the role names
_HOW = "как"
_CALLED = frozenset({"звать", "величать", "именовать"})
_MAX_GAP = 4
# «сколько стоит X»: X is what the price is of
_HOW_MUCH = "сколько"
_COST = "стоить"
# a question with a verb or «ли» is no noun phrase alone
_VERBS = frozenset({"VERB", "INFN", "PRTS", "GRND"})
_POLAR = "ли"
_LATIN = re.compile(r"[A-Za-z]+(?:-[A-Za-z]+)*")
_MAX_COMPLEMENTS = 2


class AskedAttribute(BaseModel):
    """«вес груза»: the head lemma («вес») and the lemmas of head and complements."""

    head: str
    lemmas: list[str]
    text: str  # as written in the question
    # lemmas of the relative adjectives before the head that name its kind («кадастровый»)
    qualifiers: list[str] = []
    role: bool = False  # asked with «кто»: a role or position («главный бухгалтер»)


@cache
def _clipped_scopes() -> frozenset[str]:
    """Clipped scope adjectives («макс», «мин»): ``data/clipped_words.yaml``."""
    path = resources.files("finagent.question").joinpath("data/clipped_words.yaml")
    table = load_yaml(path.read_text("utf-8")) or {}
    return frozenset(str(w).lower() for w in table.get("scope_adjectives", ()))


def _clipped(words: Sequence[str], at: int) -> bool:
    """A word cut short by a period before a lowercase word («доп. мощность», «ориент.
    срок»): an abbreviated modifier of the noun that follows, not the asked noun."""
    if at + 2 >= len(words) or words[at + 1] != "." or not words[at].isalpha():
        return False
    after = words[at + 2]
    return after[:1].isalpha() and after[:1].islower()


def _noun(word: str) -> bool:
    """A noun; a word in Latin letters where the noun stands («какой e-mail», «какой VIN»)
    is a borrowed noun pymorphy3 does not tag."""
    return part_of_speech(word) == "NOUN" or (len(word) > 1 and _LATIN.fullmatch(word) is not None)


def _head_after(
    words: Sequence[str], lemmas: Sequence[str], start: int, links: frozenset[str] = frozenset()
) -> int:
    """The noun a question word at ``start - 1`` governs, or -1; ``links``: lemmas of
    verbs that may stand between them besides «быть»."""
    at = start
    while at < min(start + _MAX_GAP, len(words)):
        if _clipped(words, at):  # «сколько доп. мощности»: a word cut short, then its noun
            at += 2
            continue
        if words[at].lower() in _clipped_scopes():  # «какая макс цена»: a scope, clipped
            at += 1
            continue
        if _noun(words[at]):
            return at
        if _possessor(words, lemmas, at):  # «какой у нас лимит», «кто у них бухгалтер»
            at += 2
            continue
        if part_of_speech(words[at]) not in _MODIFIERS and lemmas[at] not in {"быть", *links}:
            return -1
        at += 1
    return -1


def _head_before(words: Sequence[str], lemmas: Sequence[str], at: int) -> int:
    """The noun a question word at ``at`` that ends its clause governs («ОГРН у
    поставщика какой?»): the first noun in the nominative from the clause's start, past a
    preposition and its object and past a name; -1 when the clause goes on after it or
    has no such noun."""
    after = at + 1
    if after < len(words) and (words[after][:1].isalnum() or words[after] in ("«", '"')):
        return -1
    start = at
    # a slash inside an abbreviation («в с/ф 87», «по р/с») is no clause's boundary
    while start > 0 and (words[start - 1][:1].isalnum() or words[start - 1] in '«»"-/'):
        start -= 1
    i = start
    while i < at:
        word = words[i]
        if part_of_speech(word) == "PREP":  # «у поставщика», «по договору аренды»
            i += 1
            while i < at and not _noun(words[i]):
                i += 1
            i += 1
            # its genitive complements («по договору поставки»), not an abbreviation
            while i < at and not words[i].isupper() and genitive(words[i]):
                i += 1
            continue
        # a name is not the value («у Зуева оклад какой?»); an abbreviation is («ОГРН»)
        name = word[:1].isupper() and not word.isupper()
        if _noun(word) and not name and can_be(word, "nomn"):
            return i
        i += 1
    return -1


def _possessor(words: Sequence[str], lemmas: Sequence[str], at: int) -> bool:
    """«у нас», «у них»: a possessor between a question word and its noun."""
    return lemmas[at] == "у" and at + 1 < len(words) and part_of_speech(words[at + 1]) == "NPRO"


def _role_after_who(words: Sequence[str], lemmas: Sequence[str], start: int) -> int:
    """The role «кто» at ``start - 1`` names («кто главный бухгалтер»), or -1: a common
    noun, not a name."""
    at = _head_after(words, lemmas, start, _COPULAS)
    if at < 0 or words[at][:1].isupper():
        return -1
    # «главного бухгалтера»: pymorphy3 reads «главного» as the noun «главное» first; an
    # adjective's reading before a common noun is the role's modifier
    following = at + 1
    if (
        following < len(words)
        and can_be(words[at], "ADJF")
        and _noun(words[following])
        and not words[following][:1].isupper()
    ):
        return following
    return at


def _qualifiers(words: Sequence[str], lemmas: Sequence[str], at: int) -> list[int]:
    """Positions of the relative adjectives right before the head at ``at`` that name its
    kind."""
    found: list[int] = []
    start = at - 1
    while start >= 0 and part_of_speech(words[start]) == "ADJF":
        if classifying_adjective(words[start]) and lemmas[start] not in SCOPE_ADJECTIVES:
            found.insert(0, start)
        start -= 1
    return found


def _attribute(words: Sequence[str], lemmas: Sequence[str], at: int) -> tuple[AskedAttribute, int]:
    """The attribute headed at ``at`` and the index after it."""
    end = at + 1
    complements = 0
    while end < len(words) and complements < _MAX_COMPLEMENTS:
        word = words[end]
        # «номер свидетельства»: pymorphy3 reads «свидетельства» as a plural nominative
        # first; after a noun, a reading in the genitive is the complement's
        of_head = not complements and not word[:1].isupper() and can_be(word, "gent")
        if not (genitive(word) or of_head) or part_of_speech(word) not in ("NOUN", "ADJF"):
            break
        complements += part_of_speech(word) == "NOUN"
        end += 1
    qualifiers = _qualifiers(words, lemmas, at)
    start = qualifiers[0] if qualifiers else at
    attribute = AskedAttribute(
        head=lemmas[at],
        lemmas=list(lemmas[at:end]),
        text=" ".join(words[start:end]),
        qualifiers=[lemmas[i] for i in qualifiers],
    )
    return attribute, end


def asked_attributes(words: Sequence[str], lemmas: Sequence[str]) -> list[AskedAttribute]:
    """The attributes asked, in order (``words`` and ``lemmas`` are parallel)."""
    found: list[AskedAttribute] = []
    i = 0
    while i < len(words):
        requested = lemmas[i] in _REQUESTS and part_of_speech(words[i]) == "VERB"
        # «как зовут главного бухгалтера»: a person's name asked by the role they hold
        named = lemmas[i] == _HOW and i + 1 < len(words) and lemmas[i + 1] in _CALLED
        who = lemmas[i] == _WHO or named
        if named:
            i += 1
        if lemmas[i] not in _QUESTION_WORDS and not requested and not who:
            i += 1
            continue
        at = _role_after_who(words, lemmas, i + 1) if who else _head_after(words, lemmas, i + 1)
        if at < 0 and not who and not requested and not found:
            at = _head_before(words, lemmas, i)
            if at >= 0:  # read once: its clause is behind it
                attribute, _ = _attribute(words[:i], lemmas[:i], at)
                found.append(attribute)
                i += 1
                continue
        while at >= 0:
            attribute, end = _attribute(words, lemmas, at)
            attribute.role = who
            if named:  # «как зовут главного бухгалтера»: named «главный бухгалтер»
                first = at - 1 if at - 1 > i and can_be(words[at - 1], "ADJF") else at
                role = role_in_nominative(list(words[first : at + 1]))
                attribute.text = " ".join([role, *words[at + 1 : end]])
            found.append(attribute)
            i = end
            # «страховая сумма и франшиза»: a coordinated noun is asked too
            if end < len(words) and lemmas[end] == "и":
                at = _head_after(words, lemmas, end + 1)
            else:
                at = -1
        i += 1
    return found


def priced_thing(words: Sequence[str], lemmas: Sequence[str]) -> AskedAttribute | None:
    """What «сколько стоит» asks the price of («сколько стоит люкс», «сколько в месяц
    стоят услуги связи», «сколько будет стоить доставка»): the noun the verb «стоить» (in
    any form) after «сколько» governs, not a name
    (a name is checked as a name), a pronoun («сколько он стоил») or a word the dictionary
    does not know; None when the question asks no price that way."""
    if _HOW_MUCH not in lemmas:
        return None
    asked = lemmas.index(_HOW_MUCH)
    for at in range(asked + 1, len(words)):
        # by any reading: «стоят» is read «стоять» first, «будет стоить» has an infinitive
        if not verb_form_of(words[at], _COST):
            continue
        # «сколько стоить будет доставка»: the future's «будет» between the verb and its noun
        head = _head_after(words, lemmas, at + 1)
        if head < 0 or (words[head][:1].isupper() and not words[head].isupper()):
            return None
        # a word the dictionary does not know («юробслуживание») may be a clipped compound
        # the documents write in full: no check for it; an abbreviation («КАСКО») is checked
        if not words[head].isupper() and not known_word(words[head]):
            return None
        attribute, _ = _attribute(words, lemmas, head)
        return attribute
    return None


def leading_attribute(words: Sequence[str], lemmas: Sequence[str]) -> AskedAttribute | None:
    """What a question made of a noun phrase alone asks («кадастровая стоимость склада на
    Лесной?», «ИНН арендодателя?»): with no question word, no verb and no «ли», the noun it
    opens with, past its adjectives, in the nominative and not a name; None otherwise."""
    if _QUESTION_WORDS & set(lemmas) or {_WHO, _POLAR} & set(lemmas):
        return None
    if any(part_of_speech(word) in _VERBS for word in words):
        return None
    at = 0
    while at < len(words) and part_of_speech(words[at]) == "ADJF":
        at += 1
    if at >= len(words) or not _noun(words[at]) or not can_be(words[at], "nomn"):
        return None
    if words[at][:1].isupper() and not words[at].isupper():
        return None
    attribute, _ = _attribute(words, lemmas, at)
    return attribute


def _surname_first(word: str) -> bool:
    """pymorphy3's most probable reading of the word is a surname."""
    return "Surn" in best_parse(word).tag


def proper_names(sentences: Sequence[Sequence[str]]) -> list[str]:
    """Capitalised words that do not open their sentence, as written, and an opening word
    pymorphy3 reads first as a surname («Ильиной сколько начислили …»: a sentence's capital
    is no evidence either way); abbreviations («НДС», «ООО», «КПП») are not names."""
    names: list[str] = []
    for words in sentences:
        opened = False
        for word in words:
            if not any(ch.isalpha() for ch in word):
                continue
            if word[0].isupper() and not word.isupper() and (opened or _surname_first(word)):
                names.append(word)
            opened = True
    return list(dict.fromkeys(names))
