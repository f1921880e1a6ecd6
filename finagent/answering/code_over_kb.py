"""The cited Code point over a knowledge-base sentence that restates or skirts it.

A knowledge-base article retells the Code in its own words and adds examples, other
years and neighbouring rules; the learned ranker often prefers its short, plain sentences
(«- за 2026 год — 57 390 руб.») to the Code point among the same candidates that states
the asked rule («…не более 321 818 рублей за расчетный период 2026 года»). When the best
candidate is a knowledge-base sentence, a sentence of the Code within :data:`MARGIN` of it
leads instead when it states a value of the asked type and either

- restates the knowledge-base sentence: the two share a value, or the knowledge-base
  sentence cites the Code point's article («ст. 164 НК РФ»), or
- names more of the question's subject (its content lemmas and the official terms of its
  slang, the sentence read with its list lead-in) than the knowledge-base sentence does.

A question about the asker's own practice or policy («в нашей компании», «по учётной
политике») is the knowledge base's to answer: its order is left alone.
"""

from __future__ import annotations

import re

from finagent.answering.asked_values import asked_values, number_of
from finagent.answering.evidence import Candidate
from finagent.answering.general_rule import special_case
from finagent.answering.ranker import asked_conditions, type_match
from finagent.answering.sentence_profile import SentenceProfile, profile
from finagent.language.cues import cue_lemmas, has_any
from finagent.language.glossary import glossary_terms
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS

MARGIN = 3.0  # logit units of the learned ranker, as across articles (general_rule)
# the asker's own practice or policy: the company's rules, not the Code's
OWN_PRACTICE = ("наш", "у нас", "учётная политика", "локальный акт")
TIE = 0.01  # ahead of the knowledge-base sentence, not level with it
_ARTICLE = re.compile(r"\bст(?:\.|атьи|атья|атье|атьей)\s*(\d+(?:\.\d+)?)", re.I)


def _subject(question: Question) -> frozenset[str]:
    official = {lm for term in glossary_terms(question.text) for lm in cue_lemmas(term)}
    return frozenset((set(question.topic) | official) - STOP_LEMMAS)


def _words(candidate: Candidate) -> SentenceProfile:
    return profile(candidate.ranked_text)


def _article(candidate: Candidate) -> str:
    return str(candidate.chunk.metadata.get("article") or "")


def _numbers(candidate: Candidate, question: Question) -> set[str]:
    values = asked_values(profile(candidate.sentence), question)
    return {n for n in (number_of(v) for v in values) if n}


def _restates(kb: Candidate, law: Candidate, question: Question) -> bool:
    """The Code sentence states every asked value of the knowledge-base sentence: the
    knowledge base retells it (a window of a long Code sentence stating only some of them,
    «30 процентов, 1 000 рублей» without the «5 процентов» the retelling states, is not the
    same rule)."""
    ours = _numbers(kb, question)
    return bool(ours) and ours <= _numbers(law, question)


def prefer_code_point(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the Code's sentence first when the best one is a knowledge-base
    sentence restating or skirting it (see the module's docstring)."""
    if not ranked or ranked[0].chunk.source != "kb":
        return ranked
    lemmas = list(question.lemmas)
    if has_any(lemmas, OWN_PRACTICE):
        return ranked
    top = ranked[0]
    subject = _subject(question)
    named = len(_words(top).lemmas & subject)

    asked = asked_conditions(lemmas)

    def better(c: Candidate) -> bool:
        # the same values in a special case («управляющим товарищем …») or with fewer of
        # the question's words («расчета 6-НДФЛ» for a declaration) are another rule
        if special_case(c, question, asked) or len(_words(c).lemmas & subject) < named:
            return False
        return _restates(top, c, question)

    rivals = [
        c
        for c in ranked[1:]
        if c.chunk.source == "law"
        and c.score >= top.score - MARGIN
        and type_match(profile(c.sentence), question)
        and better(c)
    ]
    if not rivals:
        return ranked
    # of the Code's sentences, the one naming most of the question's subject («2026 года»,
    # «рекламного характера»), then the ranker's
    best = max(rivals, key=lambda c: (len(_words(c).lemmas & subject), c.score))
    best.score = max(best.score, top.score + TIE)
    return [best, *(c for c in ranked if c is not best)]
