"""Whether a question asks a market quantity's future: a forecast no source states.

A market quantity (the key rate, an exchange rate, prices, inflation, ``market`` of
``data/forecast.yaml``) is the subject or the object of the question's verb — a noun of
its phrase in the nominative or the accusative, governed by no preposition and no noun
before it («курс доллара», «ключевую ставку»; not «по ключевой ставке», «за покупку
иностранной валюты», «за 2 500 евро») unless by a forecast («прогноз инфляции»); the key
rate may be named by its adjective alone, the noun left out («ЦБ снизит ключевую?»:
``elliptic``). It is a forecast when the question speaks of the future — a verb in the
future tense («снизит», «будет», «укрепится») or a word of a coming time or of a forecast
(«на следующем заседании», «прогноз»: ``later``) — and names nothing that sets the
quantity: a law, a contract, a tax (``rule_set``: «изменится ли цена по договору»,
«вырастет ли ставка НДС» ask a rule). The price of a deal's thing named next in the
genitive is the deal's («цена аренды»), not the market's.

:mod:`finagent.question.polar` reads no verdict into such a question;
:mod:`finagent.answering.forecast` declines it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from importlib import resources

from finagent.language.cues import cue_lemmas, find_cue
from finagent.language.lemmas import can_be, future_verb, part_of_speech
from finagent.yaml_data import load_yaml

_FILE = "forecast.yaml"
# a market word after these (past its adjectives) is their complement, not a verb's subject
_GOVERNORS = frozenset({"PREP", "NOUN"})
_MODIFIERS = frozenset({"ADJF", "PRTF"})
# what may follow an elliptic adjective for its noun to be left out («ключевую на …»)
_NOUN_LIKE = frozenset({"NOUN", "ADJF", "PRTF"})


@cache
def _table() -> dict[str, tuple[str, ...]]:
    text = resources.files("finagent.question").joinpath("data", _FILE).read_text("utf-8")
    return {key: tuple(str(w) for w in words) for key, words in load_yaml(text).items()}


def table(key: str) -> tuple[str, ...]:
    """A list of ``data/forecast.yaml``."""
    return _table()[key]


def market_phrases() -> tuple[str, ...]:
    """The market quantities: the ``market`` phrases and the ``exchange_rate`` currencies."""
    return _table()["market"] + _table()["exchange_rate"]


@cache
def _market_lemmas() -> frozenset[str]:
    """Every lemma of the market phrases."""
    return frozenset(lm for phrase in market_phrases() for lm in cue_lemmas(phrase))


@dataclass(frozen=True)
class MarketWord:
    """A market quantity the question names as a verb's subject or object."""

    phrase: str  # the ``market`` phrase (or the ``elliptic`` adjective's) that names it
    at: int  # where its words start in the question


def _free(words: Sequence[str], at: int) -> bool:
    """No preposition and no noun governs the phrase at ``at`` (past its adjectives), and
    no figure counts it («за 2 500 евро» is a sum of money, not the currency's rate)."""
    before = at - 1
    while before >= 0 and part_of_speech(words[before]) in _MODIFIERS:
        before -= 1
    if before < 0:
        return True
    word = words[before]
    counted = any(ch.isdigit() for ch in word) or part_of_speech(word) == "NUMR"
    return not counted and part_of_speech(word) not in _GOVERNORS


def _forecast_of(lemmas: Sequence[str], words: Sequence[str], at: int) -> bool:
    """The phrase at ``at`` is what a forecast noun before it (past its adjectives) is of:
    «прогноз инфляции», «прогноз курса рубля»."""
    before = at - 1
    while before >= 0 and part_of_speech(words[before]) in _MODIFIERS:
        before -= 1
    return before >= 0 and lemmas[before] in _table()["forecast_nouns"]


def _subject_case(word: str) -> bool:
    return can_be(word, "nomn") or can_be(word, "accs")


def market_subjects(lemmas: Sequence[str], words: Sequence[str]) -> list[MarketWord]:
    """The market quantities (``market`` of ``data/forecast.yaml``) that a verb's subject or
    object can be: a noun of its phrase in the nominative or the accusative, governed by no
    preposition and no noun before it and its adjectives («курс доллара», «ключевую
    ставку»; not «по ключевой ставке», «за покупку иностранной валюты»); or an ``elliptic``
    adjective standing for its phrase, no noun or adjective after it («снизит ключевую на
    заседании»). ``words`` are aligned with ``lemmas``; none are read otherwise."""
    if len(words) != len(lemmas):
        return []
    read = list(lemmas)
    found: list[MarketWord] = []
    for phrase in market_phrases():
        size = len(cue_lemmas(phrase))
        at = find_cue(read, phrase)
        while at >= 0:
            span = words[at : at + size]
            priced = lemmas[at + size - 1] in _table()["priced"]
            if (
                (_free(words, at) or _forecast_of(lemmas, words, at))
                and not (priced and _of_a_thing(lemmas, words, at + size))
                and any(
                    part_of_speech(w) == "NOUN"
                    and (_subject_case(w) or _forecast_of(lemmas, words, at))
                    for w in span
                )
            ):
                found.append(MarketWord(phrase, at))
            at = find_cue(read, phrase, at + 1)
    for adjective, phrase in (item.split(":", 1) for item in _table()["elliptic"]):
        for at, lm in enumerate(lemmas):
            nxt = words[at + 1] if at + 1 < len(words) else ""
            if (
                lm == adjective
                and part_of_speech(words[at]) == "ADJF"
                and not (nxt.isalpha() and part_of_speech(nxt) in _NOUN_LIKE)
                and _subject_case(words[at])
                and _free(words, at)
            ):
                found.append(MarketWord(phrase.strip(), at))
    return sorted(found, key=lambda m: m.at)


def _of_a_thing(lemmas: Sequence[str], words: Sequence[str], after: int) -> bool:
    """A thing named next in the genitive, its adjectives aside, that is no market quantity
    itself («цена аренды», «цена выставочного места»: a deal's price, which its clause
    sets; not «курс доллара», «цена нефти»)."""
    while after < len(words) and part_of_speech(words[after]) in _MODIFIERS:
        after += 1  # «цена выставочного места»
    if after >= len(words):
        return False
    word = words[after]
    return (
        part_of_speech(word) == "NOUN"
        and can_be(word, "gent")
        and lemmas[after] not in _market_lemmas()
    )


def rule_named(lemmas: Sequence[str]) -> bool:
    """The question names what sets a quantity: a law, a contract, a tax (``rule_set``)."""
    return bool(set(lemmas) & set(_table()["rule_set"]))


def speaks_of_future(lemmas: Sequence[str], words: Sequence[str]) -> bool:
    """A verb in the future tense, or a word of a coming time or a forecast (``later``)."""
    return any(future_verb(w) for w in words) or bool(set(lemmas) & set(_table()["later"]))


def asks_forecast(lemmas: Sequence[str], words: Sequence[str]) -> bool:
    """A market quantity's future (see the module's docstring): the future spoken of, a
    market quantity as a verb's subject or object, and nothing named that sets it."""
    if len(words) != len(lemmas) or rule_named(lemmas):
        return False
    return speaks_of_future(lemmas, words) and bool(market_subjects(lemmas, words))
