"""Labels of the semantic classifier that the question's own words rule out.

The classifier is trained on whole sentences and spreads probability over labels whose
signal words a question lacks. Two labels need words of their own:

- ``smalltalk`` for a question that asks a value (an amount, rate, date, period or
  limit), unless it is addressed to the assistant («сколько тебе лет»): «Сколько у нас
  человек в штате?» is about the user's affairs, never a greeting;
- ``rates`` (the Bank of Russia's live data) for a question that names no rate, currency
  or exchange word: «предельная база по взносам на 2025 год» is a knowledge question.

A ruled-out label's probability is spread over the others (renormalised).
"""

from __future__ import annotations

import re
from dataclasses import replace

from finagent.language.lemmas import second_person
from finagent.routing.classifier import Prediction
from finagent.routing.rules import CURRENCY, KEY_RATE
from finagent.text_normalize import normalize

VALUE_TYPES = frozenset({"amount", "rate", "period", "date", "limit"})
# the words of a live-rate question besides the currencies: «ставка», «ключевая», «курс»
_RATE_WORDS = re.compile(r"ставк|ключев|курс|рефинансир|инфляц")
_WORD = re.compile(r"[A-Za-zА-Яа-яЁё]+")


def _rates_possible(text: str) -> bool:
    folded = normalize(text)
    return bool(
        _RATE_WORDS.search(folded)
        or re.search(KEY_RATE, folded)
        or any(re.search(p, folded) for p in CURRENCY)
    )


def _addressed_to_assistant(text: str) -> bool:
    return any(second_person(word) for word in _WORD.findall(text))


def ruled_out(text: str, answer_type: str | None) -> set[str]:
    """The labels the words of ``text`` rule out; ``answer_type``: the typed question's."""
    labels = set()
    if answer_type in VALUE_TYPES and not _addressed_to_assistant(text):
        labels.add("smalltalk")
    if not _rates_possible(text):
        labels.add("rates")
    return labels


def plausible(prediction: Prediction, text: str, answer_type: str | None) -> Prediction:
    """``prediction`` without the labels ``text`` rules out, renormalised."""
    out = ruled_out(text, answer_type) & set(prediction.scores)
    if not out or out >= set(prediction.scores):
        return prediction
    kept = {k: v for k, v in prediction.scores.items() if k not in out}
    total = sum(kept.values())
    if total <= 0:
        return prediction
    # a ruled-out label stays in the scores at 0, so the debug still lists every label
    scores = {k: (kept[k] / total if k in kept else 0.0) for k in prediction.scores}
    label = max(scores, key=lambda k: scores[k])
    return replace(prediction, label=label, probability=scores[label], scores=scores)
