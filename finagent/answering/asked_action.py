"""The action a deadline question asks: a report filed or a tax paid.

A knowledge-base list or a Code point often sets both deadlines in one sentence
(«организации — не позднее 25 марта, налог уплачивается до 28 марта»), and a question
asks one of them («когда сдавать декларацию», «до какого числа перечислить налог»). The
actions are lemma sets (:mod:`finagent.question.acts`). Of a date or period question asking
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

from finagent.answering.asked_values import asked_values
from finagent.answering.evidence import LEGAL_SOURCES, Candidate, first_near, promoted
from finagent.answering.ranker import type_match
from finagent.answering.sentence_profile import profile
from finagent.question.acts import actions_named, asked_action, only_action
from finagent.question.model import Question
from finagent.question.tables import SANCTIONS

__all__ = [
    "actions_named",
    "asked_action",
    "breach_action",
    "of_asked_action",
    "prefer_asked_action",
    "prefer_breach_action",
]

_SEGMENTS = re.compile(r"[;,]")
MARGIN = 2.0  # logit units of the learned ranker


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
    return only_action(actions_named(question.text))


def procedure_action(question: Question) -> str | None:
    """The one action a «how» question of one part asks («как уплачивается сбор за
    квартал?»: paying; «как сдают отчёт?»: filing); None otherwise, and for a sanction."""
    if question.answer_type != "procedure" or len(question.parts) > 1:
        return None
    if SANCTIONS & set(question.lemmas):
        return None
    return only_action(actions_named(question.text))


def prefer_breach_action(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a near sanction of the asked breach first: when the best Code or
    knowledge-base sentence names only another action's breach («Непредставление …
    расчета …» for «не перечислил налог — какой штраф?»), the first within :data:`MARGIN`
    that names the asked action and states a value of the asked type comes first. A best
    sentence naming no action, or the asked one, stays."""
    return _asked_named_first(question, ranked, breach_action(question))


def prefer_procedure_action(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with a near sentence of the asked action first for a «how» question: the
    return's term («Декларация подаётся … не позднее 25-го числа …») does not tell how the
    tax is paid («как уплачивается налог за квартал?»), the sentence naming the payment
    does («Налог уплачивается равными долями …»). As :func:`prefer_breach_action`, but a
    «how» asks no value type: the near sentence naming the asked action needs none. A best
    sentence naming no action, or the asked one, stays."""
    return _asked_named_first(question, ranked, procedure_action(question), typed=False)


def _asked_named_first(
    question: Question, ranked: list[Candidate], action: str | None, *, typed: bool = True
) -> list[Candidate]:
    """The first near Code or knowledge-base sentence naming ``action`` (and, ``typed``,
    stating a value of the asked type), when the best sentence names only another action."""
    if action is None or not ranked or ranked[0].chunk.source not in LEGAL_SOURCES:
        return ranked
    named = actions_named(ranked[0].ranked_text)
    if not named or action in named:
        return ranked

    def names_asked(candidate: Candidate) -> bool:
        return (
            candidate.chunk.source in LEGAL_SOURCES
            and action in actions_named(candidate.ranked_text)
            and (not typed or type_match(profile(candidate.sentence), question))
        )

    best = first_near(ranked, MARGIN, names_asked)
    return promoted(ranked, best) if best is not None else ranked
