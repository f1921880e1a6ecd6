"""Whether a question asks yes or no («НДС по договору есть?», «капают ли проценты?»).

A question is *polar* when it has «ли» or «или нет», or ends with «?» after a predicate,
and names no interrogative that asks a value, a manner or a reason (``data/polar.yaml``).
The composer then leads with the verdict a document's clause settles
(:mod:`finagent.answering.polar_answer`).

A question about what no document can state is not polar in that sense: advice («стоит ли
нам расторгнуть …») or an event after the documents — a perfective verb in the future
with no condition («продлит ли арендодатель договор?», not «вернут ли залог, если …»), or
a word of later time («подписали ли потом …»). Its lead states no verdict. So is a
forecast: a market quantity (the key rate, an exchange rate, prices, inflation) as the
subject of a future verb, with no law, contract or tax named that sets it («повысится ли
ключевая ставка», «укрепится ли рубль»); a reflexive or indefinite-personal future verb
asks a rule's effect only of what a rule sets («зачтётся ли аванс»).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

from finagent.language.cues import cue_lemmas, find_cue
from finagent.language.lemmas import can_be, future_verb, part_of_speech, rule_effect_verb
from finagent.yaml_data import load_yaml

_FILE = "polar.yaml"
_PARTICLE = "ли"
_ENDS = frozenset({".", "!", "?", "…"})
# «капают», «платим», «обязан», «можно»: a predicate the question asks of
_PREDICATES = frozenset({"VERB", "INFN", "PRTS", "ADJS", "PRED"})
# a market word after these (past its adjectives) is their complement, not a verb's subject
_GOVERNORS = frozenset({"PREP", "NOUN"})
_MODIFIERS = frozenset({"ADJF", "PRTF"})


@cache
def _table() -> dict[str, tuple[str, ...]]:
    text = resources.files("finagent.question").joinpath("data", _FILE).read_text("utf-8")
    return {key: tuple(str(w) for w in words) for key, words in load_yaml(text).items()}


@cache
def _market_lemmas() -> frozenset[str]:
    """Every lemma of the ``market`` phrases."""
    return frozenset(lm for phrase in _table()["market"] for lm in cue_lemmas(phrase))


def _last_sentence(words: Sequence[str]) -> int:
    """Where the question's last sentence starts («Ограничена ли …? Если да, назовите
    сумму.» asks the sum)."""
    ends = [i for i, w in enumerate(words[:-1]) if w in _ENDS]
    return ends[-1] + 1 if ends else 0


def _market_subject(lemmas: Sequence[str], words: Sequence[str]) -> bool:
    """A market quantity (``market`` of ``data/polar.yaml``) that a verb's subject or
    object can be: a noun of its phrase in the nominative or the accusative, governed by
    no preposition and no noun before it and its adjectives («курс доллара», «ключевую
    ставку»; not «по ключевой ставке», «за покупку иностранной валюты»)."""
    read = list(lemmas)
    for phrase in _table()["market"]:
        size = len(cue_lemmas(phrase))
        at = find_cue(read, phrase)
        while at >= 0:
            span = words[at : at + size]
            before = at - 1
            while before >= 0 and part_of_speech(words[before]) in _MODIFIERS:
                before -= 1
            free = before < 0 or part_of_speech(words[before]) not in _GOVERNORS
            priced = lemmas[at + size - 1] in _table()["priced"]
            if (
                free
                and not (priced and _of_a_thing(lemmas, words, at + size))
                and any(
                    part_of_speech(w) == "NOUN" and (can_be(w, "nomn") or can_be(w, "accs"))
                    for w in span
                )
            ):
                return True
            at = find_cue(read, phrase, at + 1)
    return False


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


def _forecast(lemmas: Sequence[str], words: Sequence[str]) -> bool:
    """A market quantity's future (see the module's docstring): a future verb, a market
    quantity as its subject or object, and nothing named that sets it."""
    if len(words) != len(lemmas) or set(lemmas) & set(_table()["rule_set"]):
        return False
    return any(future_verb(w) for w in words) and _market_subject(lemmas, words)


def _beyond_documents(lemmas: Sequence[str], words: Sequence[str]) -> bool:
    """Advice, a later event, a forecast or a future event with no condition (see the
    module's docstring): what no document's clause settles."""
    table = _table()
    if any(find_cue(list(lemmas), cue) >= 0 for cue in table["advice"]):
        return True
    # «позже» as written: its lemma «поздний» also reads a deadline («не позднее 5-го»)
    if (set(lemmas) | {w.lower() for w in words}) & set(table["later"]):
        return True
    # «снизится ли ставка, если инфляция замедлится?»: a condition makes no forecast a rule
    if _forecast(lemmas, words):
        return True
    if set(lemmas) & set(table["condition"]) or len(words) != len(lemmas):
        return False
    return any(
        # «займу» is a loan's case before it is «занять»; «зачтут ли аванс в цену?»,
        # «зачтётся?» ask what a clause does, not what someone will decide
        lm != "быть"
        and future_verb(w)
        and can_be(w, "perf")
        and not can_be(w, "NOUN")
        and not rule_effect_verb(w)
        for w, lm in zip(words, lemmas, strict=True)
    )


def asks_polar(text: str, lemmas: Sequence[str], words: Sequence[str]) -> bool:
    """Whether the question asks yes or no (see the module's docstring): no value asked
    in any of its sentences, and its last sentence in a polar form. ``words`` are the
    tokens as written, aligned with ``lemmas`` (empty: the «?» form is not read)."""
    table = _table()
    # a value asked anywhere («Какое вознаграждение …? Есть ли минимум?») is asked first
    if set(lemmas) & set(table["value_words"]):
        return False
    if len(words) == len(lemmas):
        start = _last_sentence(words)
        words, lemmas = words[start:], lemmas[start:]
    if _beyond_documents(lemmas, words):
        return False
    if _PARTICLE in lemmas or any(find_cue(list(lemmas), p) >= 0 for p in table["either"]):
        return True
    if not text.rstrip().endswith("?") or len(words) != len(lemmas):
        return False
    # a capitalised word past the first is a name («в ЛЦ Мигалово»), whatever its parse
    return any(
        w.isalpha() and (i == 0 or w[:1].islower()) and part_of_speech(w) in _PREDICATES
        for i, w in enumerate(words)
    )
