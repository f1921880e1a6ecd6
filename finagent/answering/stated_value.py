"""A count in a unit: a sentence that states one before a near one that states none.

The learned ranker was fit on values of the answer types (rates, sums, dates, periods);
a count in a unit of measure («на сколько квадратных метров уменьшают…» — «20 кв. м») or of
the noun «сколько» counts («сколько раз в год пересматривают ставку» — «8 раз в год») is
none of them, so a sentence close to the question in words but stating no such count
(«Ставки устанавливают муниципалитеты…») may rank first. For a question asking a count
in a unit, when the best Code or knowledge-base candidate states none
(:mod:`asked_values`) or is a worked example's, the best candidate within
:data:`MARGIN` that states one comes first, a rule before an example's figures. (Applied
to every value type, the same rule lost more than it won on the dev rounds: there the
ranker's weights hold.)
"""

from __future__ import annotations

from finagent.answering.answer_kinds import asked_count, states_asked_count
from finagent.answering.asked_values import states_asked, value_type
from finagent.answering.evidence import Candidate, promoted
from finagent.answering.sentence_profile import profile
from finagent.question.model import Question

MARGIN = 2.0  # logit units of the learned ranker
# the answer types a count asked by «сколько <noun>» is typed as (as the lead reads them)
_COUNTED = frozenset({"amount", "limit"})


def prefer_stated_value(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the best near candidate stating an asked value first (see above)."""
    if not ranked or not ranked[0].learned or ranked[0].chunk.source == "user_docs":
        return ranked
    counted = asked_count(question) is not None and value_type(question) in _COUNTED
    if not question.unit and not counted:
        return ranked

    def states(sentence: str) -> bool:
        if question.unit:
            return states_asked(profile(sentence), question)
        return states_asked_count(question, sentence)

    top = ranked[0]
    if states(top.sentence) and not top.example:
        return ranked
    near = [
        c
        for c in ranked[1:]
        if c.score >= top.score - MARGIN
        and c.chunk.source != "user_docs"
        and not (top.example and c.example)
        and states(c.sentence)
    ]
    if not near:
        return ranked
    best = min(near, key=lambda c: (c.example, -c.score))
    return promoted(ranked, best)
