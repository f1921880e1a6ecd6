"""The rule before its worked example.

A knowledge-base article states a rule («первое нарушение — штраф 20 % от суммы расчёта»)
and then works it through («Пример: фотограф получил 15 000 руб. … Штраф — 3 000 руб.»).
The example shares the question's words and states figures of the asked kind, so it often
ranks first, but its figures are the example's, not the answer. When the best candidate is
a sentence of a worked example (``Candidate.example``) and a sentence of the same source
that is not one ranks close to it, that sentence comes first: for a value question, the
best one stating a value of each asked type the example states, else (the rule and its
deadline are two sentences) the best one stating the primary asked type; for any other
question (a list, a procedure), the best one.
"""

from __future__ import annotations

from collections.abc import Sequence

from finagent.answering.evidence import Candidate, promoted
from finagent.answering.sentence_profile import profile, states_type
from finagent.question.model import Question

# how far below the example the rule may rank: logit units of the learned ranker, or
# similarity units of the extractive ranking (its sentences differ by a few hundredths)
LEARNED_MARGIN = 2.0
SIMILARITY_MARGIN = 0.05
VALUE_TYPES = frozenset({"rate", "amount", "limit", "date", "period"})


def _states(candidate: Candidate, answer_type: str) -> bool:
    p = profile(candidate.sentence)
    if states_type(p, answer_type, days=True):
        return True
    # a sanction («какой штраф») is a sum or a share of the amount it is charged on
    return answer_type == "amount" and bool(p.percents)


def _needed(question: Question, example: Candidate) -> list[str]:
    """The asked value types the rule must state: those the example states (a question
    asking a limit and a period whose example states both wants a rule stating both),
    else the primary one."""
    asked: list[str] = [t for t in question.answer_types if t in VALUE_TYPES]
    stated = [t for t in asked if _states(example, t)]
    return stated or asked[:1]


def _rule(
    ranked: list[Candidate], top: Candidate, margin: float, needed: Sequence[str]
) -> Candidate | None:
    """The best sentence of the example's source within ``margin`` that is no example and
    states a value of each ``needed`` type."""
    return next(
        (
            c
            for c in ranked[1:]
            if c.number == top.number
            and c.score >= top.score - margin
            and not c.example
            and all(_states(c, t) for t in needed)
        ),
        None,
    )


def prefer_rule(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the rule a worked example illustrates first (see above)."""
    if not ranked or not ranked[0].example:
        return ranked
    top = ranked[0]
    margin = LEARNED_MARGIN if top.learned else SIMILARITY_MARGIN
    needed = _needed(question, top)
    primary = [t for t in question.answer_types if t in VALUE_TYPES][:1]
    # no rule sentence states every value the example does (a rule and its deadline are
    # often two sentences): the best one stating the primary asked value still comes first
    rule = _rule(ranked, top, margin, needed) or _rule(ranked, top, margin, primary)
    if rule is None:
        return ranked
    return promoted(ranked, rule)
