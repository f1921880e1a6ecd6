"""The conditional clauses of a question: «если управляющий опоздает в декабре 2026, какая
будет неустойка?» names, in its condition, the case a rule is applied to; the period it
names there is the event's, not the period a value is asked for.

Its opposite: «какой штраф в итоге начислила ИФНС?» asks how a case turned out, a fact
that a rule or a warning («может быть начислен штраф») does not state."""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from importlib import resources

from finagent.language.cues import find_cue
from finagent.language.lemmas import done_participle, lemma
from finagent.language.spans import Span
from finagent.yaml_data import load_yaml

# a condition runs from its conjunction up to the end of its clause
_CONDITION = re.compile(
    r"(?<![\w-])(?:если|в\s+случае|при\s+условии)(?![\w-])[^,;?.!—]*", re.IGNORECASE
)


def condition_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the conditional clauses of ``text``."""
    return [match.span() for match in _CONDITION.finditer(text)]


def in_condition(text: str, span: Span) -> bool:
    """Whether a mention of ``text`` lies in one of its conditional clauses."""
    return any(start <= span.start < end for start, end in condition_spans(text))


@cache
def _table() -> dict[str, list[str]]:
    path = resources.files("finagent.question").joinpath("data/realised.yaml")
    table = load_yaml(path.read_text("utf-8")) or {}
    return {str(key): [str(w) for w in words] for key, words in table.items()}


@cache
def realised_words(key: str) -> frozenset[str]:
    """One lemma list of ``data/realised.yaml`` as a set (``obligation``, ``rule``,
    ``mention``)."""
    return frozenset(_table()[key])


def asks_realised(lemmas: Sequence[str]) -> bool:
    """Whether the question's lemmas ask how a case turned out («в итоге», «фактически»,
    «по факту», «уже»): read with an act done in its asking clause, a realised fact."""
    return any(find_cue(lemmas, cue) >= 0 for cue in _table()["realised"])


def asks_event(lemmas: Sequence[str]) -> bool:
    """Whether the question names an act a contract only schedules and a record states:
    a payment or a registration («заплатили», «пришла оплата», «зарегистрировал»)."""
    return bool((realised_words("pay") | realised_words("event")) & set(lemmas))


def done_in_passive(clause: Sequence[str]) -> bool:
    """The words of an asking clause state an act done in the passive voice, by a short
    participle in the past («сколько уже выплачено», «нам выдан кредит»); an obligation
    («в какой срок мы обязаны выкупить») is a rule, not an act done."""
    if any(lemma(word) in realised_words("obligation") for word in clause):
        return False
    return any(done_participle(word) for word in clause)
