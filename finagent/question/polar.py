"""Whether a question asks yes or no («НДС по договору есть?», «капают ли проценты?»).

A question is *polar* when it has «ли» or «или нет», or ends with «?» after a predicate,
and names no interrogative that asks a value, a manner or a reason (``data/polar.yaml``).
The composer then leads with the verdict a document's clause settles
(:mod:`finagent.answering.polar_answer`).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from importlib import resources

from finagent.language.cues import find_cue
from finagent.language.lemmas import part_of_speech
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
    if _PARTICLE in lemmas or any(find_cue(list(lemmas), p) >= 0 for p in table["either"]):
        return True
    if not text.rstrip().endswith("?") or len(words) != len(lemmas):
        return False
    # a capitalised word past the first is a name («в ЛЦ Мигалово»), whatever its parse
    return any(
        w.isalpha() and (i == 0 or w[:1].islower()) and part_of_speech(w) in _PREDICATES
        for i, w in enumerate(words)
    )
