"""The cited Code point over a knowledge-base sentence that retells it.

A knowledge-base article retells the Code in its own words; the learned ranker often
prefers its short, plain sentences («штраф составляет 200 руб. за каждый непредставленный
документ») to the Code point among the same candidates that states the same rule («…влечет
взыскание штрафа в размере 200 рублей за каждый непредставленный документ»). Readers
trust the Code. When the best candidate is a knowledge-base sentence, a sentence of the
Code within :data:`MARGIN` of it leads instead when it

- states a value of the asked type, and every asked value of the knowledge-base sentence
  (compared as numbers: a window of a long Code sentence stating only some of them is
  not the same rule),
  or, for a question asking a day of the month («до какого числа»), the recurring day
  the knowledge base's list of one year's calendar dates applies (:func:`_general_day`);
- is no special case the question leaves unasked (:func:`general_rule.special_case`);
- names at least as many of the question's subject lemmas (with the official terms of
  its slang, a list item read with its lead-in): the same figures in a neighbouring rule
  («расчет 6-НДФЛ» for a declaration) are another rule.

The knowledge-base sentence stays the next candidate, quoted as the second source. A
question about the asker's own practice or policy («в нашей компании», «по учётной
политике») is the knowledge base's to answer: its order is left alone.

Tried and left out (docs/direct-answers.md, round 3 of stop 34): a Code sentence naming
more of the question's words with no shared value (long Code sentences win by length),
and a shared value or a citation «ст. N» alone.
"""

from __future__ import annotations

from finagent.answering.asked_values import asked_values, asks_day, number_of, value_type
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
_SUMS = frozenset({"amount", "limit"})


def _subject(question: Question) -> frozenset[str]:
    official = {lm for term in glossary_terms(question.text) for lm in cue_lemmas(term)}
    return frozenset((set(question.topic) | official) - STOP_LEMMAS)


def _words(candidate: Candidate) -> SentenceProfile:
    return profile(candidate.ranked_text)


def _numbers(candidate: Candidate, question: Question) -> set[str]:
    """The numbers of the asked values the sentence states; for a sum, its shares too (a
    sanction's «5 %, не более 30 % и не менее 1 000 руб.» is one rule: the Code point
    stating only the 1 000 руб. of another offence does not restate it)."""
    p = profile(candidate.sentence)
    values = asked_values(p, question)
    if value_type(question) in _SUMS:
        values = (*values, *asked_values(p, question, "rate"))
    return {n for n in (number_of(v) for v in values) if n}


def _restates(kb: Candidate, law: Candidate, question: Question) -> bool:
    """The Code sentence states every asked value of the knowledge-base sentence: the
    knowledge base retells it (a window of a long Code sentence stating only some of them,
    «30 процентов, 1 000 рублей» without the «5 процентов» the retelling states, is not the
    same rule)."""
    ours = _numbers(kb, question)
    return bool(ours) and ours <= _numbers(law, question)


def _general_day(kb: Candidate, law: Candidate, question: Question) -> bool:
    """For a question asking a day of the month («до какого числа»), the Code states the
    recurring day («не позднее 25-го числа месяца») that the knowledge base's list of one
    year's calendar dates applies («до 25 апреля 2025 года; … до 27 октября (25 октября
    пришлось на субботу)»): the Code's day is among the list's days, and the list states
    calendar dates only."""
    if not asks_day(question):
        return False
    ours, theirs = profile(kb.sentence), profile(law.sentence)
    if not ours.dates or ours.days or not theirs.days:
        return False
    listed = {number_of(d) for d in ours.dates}
    return {number_of(d) for d in theirs.days} <= listed


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
        return _restates(top, c, question) or _general_day(top, c, question)

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
