"""A count in a unit: a sentence that states one before a near one that states none.

The learned ranker was fit on values of the answer types (rates, sums, dates, periods);
a count in a unit of measure («на сколько квадратных метров уменьшают…» — «20 кв. м») is
none of them, so a sentence close to the question in words but stating no such count
(«Ставки устанавливают муниципалитеты…») may rank first. For a question asking a count
in a unit, when the best Code or knowledge-base candidate states none
(:mod:`asked_values`) or is a worked example's, the best candidate within
:data:`MARGIN` that states one comes first, a rule before an example's figures. (Applied
to every value type, the same rule lost more than it won on the dev rounds: there the
ranker's weights hold.)
"""

from __future__ import annotations

from finagent.answering.asked_values import states_asked
from finagent.answering.evidence import Candidate, promoted
from finagent.answering.sentence_profile import profile
from finagent.question.model import Question

MARGIN = 2.0  # logit units of the learned ranker


def prefer_stated_value(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the best near candidate stating an asked value first (see above)."""
    if not ranked or not ranked[0].learned or ranked[0].chunk.source == "user_docs":
        return ranked
    if not question.unit:
        return ranked
    top = ranked[0]
    if states_asked(profile(top.sentence), question) and not top.example:
        return ranked
    near = [
        c
        for c in ranked[1:]
        if c.score >= top.score - MARGIN
        and c.chunk.source != "user_docs"
        and not (top.example and c.example)
        and states_asked(profile(c.sentence), question)
    ]
    if not near:
        return ranked
    best = min(near, key=lambda c: (c.example, -c.score))
    return promoted(ranked, best)
