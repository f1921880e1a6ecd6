"""The row of the value the question gives: «с какого дохода действует ставка 22 %?».

A question may name one value to point at the rule it asks another value of: the rate of
a bracket to ask its threshold («с какого годового дохода начинает действовать ставка
НДФЛ 22 %?» — «свыше 50 млн руб. — 22 %»), a tariff to ask its base. The given value is
of another kind than the asked one (a share given, a sum asked, or the other way). Among
the Code and knowledge-base candidates near the best that state a value of the asked
type, one that also states every given value comes first when the best states none of
them: a sentence on another rule («годовой доход самозанятого не должен превышать
2,4 млн руб.») does not answer what the given value points at.
"""

from __future__ import annotations

from finagent.answering.asked_values import states_asked, value_type
from finagent.answering.evidence import Candidate, first_near, promoted
from finagent.answering.sentence_profile import SentenceProfile, profile
from finagent.question.model import Question

MARGIN = 1.0  # logit units of the learned ranker
# the profile's value kinds a question may give to point at a rule, by the asked type
# they differ from: a share points at a sum's rule and a sum at a share's
_GIVEN_KINDS = {"limit": ("percents",), "amount": ("percents",), "rate": ("money",)}


def _figures(values: tuple[str, ...]) -> set[str]:
    """The numbers of values, written one way («22 %» and «22%» alike)."""
    return {"".join(ch for ch in v if ch.isdigit() or ch in ",.").strip(",.") for v in values}


def _given(question: Question) -> set[str]:
    kinds = _GIVEN_KINDS.get(value_type(question), ())
    p = profile(question.text)
    return {f for kind in kinds for f in _figures(getattr(p, kind)) if f}


def _states(p: SentenceProfile, kinds: tuple[str, ...], given: set[str]) -> bool:
    return given <= {f for kind in kinds for f in _figures(getattr(p, kind))}


def prefer_given_value(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the near candidate stating the question's given value first."""
    if not ranked or ranked[0].chunk.source == "user_docs":
        return ranked
    given = _given(question)
    if not given:
        return ranked
    kinds = _GIVEN_KINDS[value_type(question)]
    top = ranked[0]
    if _states(profile(top.sentence), kinds, given):
        return ranked
    best = first_near(
        ranked,
        MARGIN,
        lambda c: _states(p := profile(c.sentence), kinds, given) and states_asked(p, question),
    )
    return promoted(ranked, best) if best is not None else ranked
