"""The action a deadline question asks: a report filed or a tax paid.

A knowledge-base list or a Code point often sets both deadlines in one sentence
(«организации — не позднее 25 марта, налог уплачивается до 28 марта»), and a question
asks one of them («когда сдавать декларацию», «до какого числа перечислить налог»). The
actions are lemma sets (``data/asked_actions.yaml``). Of a date or period question asking
one action, the values of the sentence's segments (split at «;» and «,») that name only
the other action (or, naming none, listed after a lead-in naming it: «Отчёт подаётся:
организации — до …») are not the asked ones: :func:`of_asked_action` leaves them out,
when some value remains. A question naming both actions, or several parts, is left alone.

:func:`prefer_asked_action`: when every value of the asked type the best Code or
knowledge-base sentence states is another action's («Авансы уплачиваются не позднее
28-го …» for «до какого числа подать уведомление»), a near one (within :data:`MARGIN`
logit units, not a worked example) naming the asked action (with its list's lead-in)
and stating a value of the asked type in a segment of that action comes first.
"""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

from finagent.answering.asked_values import asked_values
from finagent.answering.evidence import LEGAL_SOURCES, Candidate, first_near, promoted
from finagent.answering.ranker import type_match
from finagent.answering.sentence_profile import profile
from finagent.language.cues import cue_lemmas
from finagent.language.lemmas import breach_act
from finagent.question.model import Question
from finagent.question.tables import SANCTIONS
from finagent.yaml_data import load_yaml

_FILE = "asked_actions.yaml"
_DEADLINES = frozenset({"date", "period"})
_SEGMENTS = re.compile(r"[;,]")
MARGIN = 2.0  # logit units of the learned ranker


@cache
def _actions() -> dict[str, frozenset[str]]:
    text = resources.files("finagent.answering").joinpath("data", _FILE).read_text("utf-8")
    return {key: frozenset(str(w) for w in words) for key, words in load_yaml(text).items()}


def actions_named(text: str) -> frozenset[str]:
    """The actions (``file``, ``pay``) whose words the text names; a breach's negated noun
    names its action too («неперечисление», «непредставление», «несдача»)."""
    lemmas = set(cue_lemmas(text))
    lemmas |= {act for lm in lemmas if (act := breach_act(lm))}
    return frozenset(key for key, words in _actions().items() if words & lemmas)


def asked_action(question: Question) -> str | None:
    """The one action a deadline question of one part asks; None otherwise."""
    if question.answer_type not in _DEADLINES or len(question.parts) > 1:
        return None
    named = actions_named(question.text)
    return next(iter(named)) if len(named) == 1 else None


def _kept(action: str, quote: str, values: tuple[str, ...]) -> tuple[str, ...]:
    """The values not stated in a segment naming only another action than ``action``."""
    # a list after a lead-in («Отчёт подаётся: организации — до …, налог уплачивается до
    # …») speaks of the lead-in's action where a segment names none
    lead_in, colon, listed = quote.partition(":")
    inherited = actions_named(lead_in) if colon else frozenset()
    segments = [lead_in, *_SEGMENTS.split(listed)] if colon else _SEGMENTS.split(quote)
    other = [
        segment
        for segment in segments
        if (named := actions_named(segment) or inherited) and action not in named
    ]
    # a value read across a comma («15-го числа месяца, следующего за кварталом») stands
    # where its first words do
    return tuple(
        v for v in values if not any(v.split(",")[0].strip() in segment for segment in other)
    )


def of_asked_action(question: Question, quote: str, values: tuple[str, ...]) -> tuple[str, ...]:
    """Of a sentence's values, those not stated in a segment naming only another action
    than the asked one; all of them when none would remain or no one action is asked."""
    action = asked_action(question)
    if action is None or len(values) < 2:
        return values
    return _kept(action, quote, values) or values


def prefer_asked_action(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a near sentence naming the asked action first, when every value of
    the asked type the best states is another action's (above)."""
    action = asked_action(question)
    if action is None or not ranked or ranked[0].chunk.source == "user_docs":
        return ranked
    top = ranked[0]
    values = asked_values(profile(top.sentence), question)
    # a list item's action is its lead-in's («Авансы уплачиваются …: - за полугодие — …»)
    if not values or _kept(action, top.ranked_text, values):
        return ranked

    def names_asked(candidate: Candidate) -> bool:
        if action not in actions_named(candidate.ranked_text):
            return False
        found = asked_values(profile(candidate.sentence), question)
        return bool(found and _kept(action, candidate.sentence, found))

    best = first_near(ranked, MARGIN, names_asked)
    return promoted(ranked, best) if best is not None else ranked


def breach_action(question: Question) -> str | None:
    """The one action whose breach a sanction question of one part names («налоговый
    агент не перечислил НДФЛ — какой штраф?»: paying); None otherwise."""
    if len(question.parts) > 1 or not SANCTIONS & set(question.lemmas):
        return None
    named = actions_named(question.text)
    return next(iter(named)) if len(named) == 1 else None


def prefer_breach_action(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a near sanction of the asked breach first: when the best Code or
    knowledge-base sentence names only another action's breach («Непредставление …
    расчета …» for «не перечислил налог — какой штраф?»), the first within :data:`MARGIN`
    that names the asked action and states a value of the asked type comes first. A best
    sentence naming no action, or the asked one, stays."""
    action = breach_action(question)
    if action is None or not ranked or ranked[0].chunk.source not in LEGAL_SOURCES:
        return ranked
    named = actions_named(ranked[0].ranked_text)
    if not named or action in named:
        return ranked

    def names_asked(candidate: Candidate) -> bool:
        return (
            candidate.chunk.source in LEGAL_SOURCES
            and action in actions_named(candidate.ranked_text)
            and type_match(profile(candidate.sentence), question)
        )

    best = first_near(ranked, MARGIN, names_asked)
    return promoted(ranked, best) if best is not None else ranked
