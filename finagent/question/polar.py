"""Whether a question asks yes or no («НДС по договору есть?», «капают ли проценты?»).

A question is *polar* when it has «ли» or «или нет», or ends with «?» after a predicate,
and names no interrogative that asks a value, a manner or a reason (``data/polar.yaml``).
The composer then leads with the verdict a document's clause settles
(:mod:`finagent.answering.polar_answer`).

A question about what no document can state is not polar in that sense: advice («стоит ли
нам расторгнуть …») or an event after the documents — a perfective verb in the future
with no condition («продлит ли арендодатель договор?», not «вернут ли залог, если …»), or
a word of later time («подписали ли потом …»). Its lead states no verdict. So is a
forecast (:mod:`finagent.question.forecast`): a market quantity (the key rate, an exchange
rate, prices, inflation) as the subject of a future verb, with no law, contract or tax
named that sets it («повысится ли ключевая ставка», «укрепится ли рубль»); a reflexive or
indefinite-personal future verb asks a rule's effect only of what a rule sets («зачтётся
ли аванс»).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

from finagent.language.cues import find_cue
from finagent.language.lemmas import can_be, future_verb, part_of_speech, rule_effect_verb
from finagent.question.forecast import asks_forecast
from finagent.yaml_data import load_yaml

_FILE = "polar.yaml"
_PARTICLE = "ли"
_ENDS = frozenset({".", "!", "?", "…"})
# «капают», «платим», «обязан», «можно»: a predicate the question asks of
_PREDICATES = frozenset({"VERB", "INFN", "PRTS", "ADJS", "PRED"})


@cache
def _table() -> dict[str, tuple[str, ...]]:
    text = resources.files("finagent.question").joinpath("data", _FILE).read_text("utf-8")
    return {key: tuple(str(w) for w in words) for key, words in load_yaml(text).items()}


def _last_sentence(words: Sequence[str]) -> int:
    """Where the question's last sentence starts («Ограничена ли …? Если да, назовите
    сумму.» asks the sum)."""
    ends = [i for i, w in enumerate(words[:-1]) if w in _ENDS]
    return ends[-1] + 1 if ends else 0


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
    if asks_forecast(lemmas, words):
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
