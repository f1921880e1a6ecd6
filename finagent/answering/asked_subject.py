"""A limit or an amount of the asked subject, not of its neighbour.

A passage states several limits side by side, each for its own subject: «за обучение
детей — до 110 000 руб. на каждого ребёнка» beside «за собственное обучение … — в рамках
общего лимита 150 000 руб.», «страховое возмещение — до 1,4 млн руб. … в одном банке»
beside «необлагаемый лимит: 210 000 руб.». The words they share with the question are
much the same; the phrases are not: the subject is named by words in a row («за обучение
ребёнка», «в одном банке»). Among the candidates near the best that state a value of the
asked type, the one sharing more of the question's word pairs (lemmas in a row) comes
first.
"""

from __future__ import annotations

from itertools import pairwise

from finagent.answering.asked_values import states_asked
from finagent.answering.evidence import Candidate, promoted
from finagent.answering.sentence_profile import profile
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS

ANSWER_TYPES = frozenset({"limit", "amount"})
MARGIN = 2.0  # logit units of the learned ranker


def _pairs(sequence: tuple[str, ...] | list[str]) -> set[tuple[str, str]]:
    """Word pairs in a row with at least one content word («за обучение», «один банк»)."""
    words = [w for w in sequence if any(ch.isalpha() for ch in w)]
    return {(a, b) for a, b in pairwise(words) if a not in STOP_LEMMAS or b not in STOP_LEMMAS}


def prefer_asked_subject(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the value of the question's own subject first (see above)."""
    if question.answer_type not in ANSWER_TYPES or not ranked:
        return ranked
    top = ranked[0]
    if top.chunk.source == "user_docs":
        return ranked
    asked = _pairs(question.lemmas)
    near = [
        c
        for c in ranked
        if c.score >= top.score - MARGIN and states_asked(profile(c.sentence), question)
    ]
    if len(near) < 2 or top not in near:
        return ranked
    shared = {id(c): len(_pairs(profile(c.sentence).sequence) & asked) for c in near}
    best = max(near, key=lambda c: shared[id(c)])  # the first of equals: the better scored
    if best is top or shared[id(best)] <= shared[id(top)]:
        return ranked
    return promoted(ranked, best)
