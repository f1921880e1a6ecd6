"""A Code point found by the Code's own search that names the asked subject the
retrieved passages do not.

The fused search fills its places with passages that share the question's everyday
words; the Code point that answers it is often found only by the dense search of the
Code alone (:meth:`finagent.retrieval.retriever.Retriever.code_extra`), and such a passage
is quoted only as «Норма НК РФ». When the question's subject is a word no value-stating
candidate of the retrieved passages contains («подарок» for «какая сумма подарка
работнику не облагается НДФЛ», while the passages found speak of employer's
contributions and travel allowances), the retrieved values answer another subject. Only a
rare word names a subject: one that at most :data:`RARE_UNITS` articles of the Code and
the knowledge base use (:mod:`finagent.language.corpus_lemmas`); «сумма», «учет», «доля»
name nothing. A sentence of such a Code point that states a value of the asked type and
names that word comes first, provided the question's words it names weigh more (inverse
article frequency) than those the best value-stating candidate names; the best candidate
must itself be of the Code or the knowledge base (a question about the user's documents
keeps its document). A question word is covered by itself, a word of its root or a
synonym («повторное нарушение» covers «повторно»); the weight to beat is the best rule's,
not a worked example's, whose computed figures share the question's words by chance.
Only the dense search's points are looked at: the Code's own
lexical search finds a point because it names the question's rare words, so its naming
them says nothing of the subject (a fine of another party's duty, a per-metre base).
"""

from __future__ import annotations

from collections.abc import Iterable

from finagent.answering.asked_values import states_asked
from finagent.answering.evidence import Candidate, promoted
from finagent.answering.ranker import type_match
from finagent.answering.sentence_profile import profile
from finagent.language.corpus_lemmas import corpus_lemmas
from finagent.language.dates import WRITTEN_YEAR
from finagent.language.synonyms import names_lemma
from finagent.question.conditions import in_condition
from finagent.question.content import content_lemmas
from finagent.question.model import Question
from finagent.retrieval.retriever import NORM_ONLY, SEMANTIC_LEG

ANSWER_TYPES = frozenset({"limit", "amount", "rate", "period"})
LOOKED_AT = 3  # the Code's own best points considered, in its order
RARE_UNITS = 10  # a word so few articles use names a subject


def _rare(word: str) -> bool:
    return corpus_lemmas().df(word) <= RARE_UNITS


def _words(candidate: Candidate) -> frozenset[str]:
    return profile(candidate.ranked_text).lemmas


def prefer_norm_subject(
    question: Question, ranked: list[Candidate], norms: list[Candidate]
) -> tuple[list[Candidate], list[Candidate]]:
    """``ranked`` with a Code point's sentence of the unmatched subject first, and
    ``norms`` without it (see above)."""
    if question.answer_type not in ANSWER_TYPES or not ranked or not norms:
        return ranked, norms
    if ranked[0].chunk.source == "user_docs" or question.several:
        return ranked, norms
    content = content_lemmas(question)
    stating = [c for c in ranked if states_asked(profile(c.sentence), question)]
    if not content or not stating:
        return ranked, norms
    # a word is covered by itself, a word of its root or a synonym («повторное нарушение»
    # covers «повторно»)
    named = set().union(*(_words(c) for c in stating))
    unmatched = {w for w in content if _rare(w) and not names_lemma(w, named)}
    if not unmatched:
        return ranked, norms
    # the weight to beat is the best rule's: a worked example's figures are the example's
    # («(120 000 − 4 200) × 13 % = 15 054 руб.» shares «удерживается», «НДФЛ» with the
    # question), and a rule of a sanction states a sum or a share of the tax («штраф 20 %
    # от суммы расчёта»: :func:`finagent.answering.ranker.type_match`)
    rules = [c for c in ranked if not c.example and type_match(profile(c.sentence), question)]
    best_cover = corpus_lemmas().weight(_words(rules[0]) & content) if rules else 0.0
    dense = [c for c in norms if c.chunk.metadata.get(NORM_ONLY) == SEMANTIC_LEG]
    chunks = list(dict.fromkeys(c.chunk.id for c in dense))[:LOOKED_AT]

    def names_subject(candidate: Candidate) -> bool:
        words = _words(candidate)
        return bool(words & unmatched) and corpus_lemmas().weight(words & content) > best_cover

    eligible = (c for c in norms if c.chunk.id in chunks and names_subject(c))
    return _first_stating_first(question, ranked, norms, eligible)


def _first_stating_first(
    question: Question,
    ranked: list[Candidate],
    norms: list[Candidate],
    eligible: Iterable[Candidate],
) -> tuple[list[Candidate], list[Candidate]]:
    """``ranked`` with the first of ``eligible`` that states a value of the asked type first
    (scored at least as the former first: ``promoted`` compares with ``ranked[0]``, so the
    candidate must not be put there before it is called), and ``norms`` without it."""
    for candidate in eligible:
        if states_asked(profile(candidate.sentence), question):
            return promoted(ranked, candidate), [c for c in norms if c is not candidate]
    return ranked, norms


# a figure set per year: the year's own value is asked (finagent.answering.year_coverage)
YEAR_TYPES = frozenset({"limit", "amount", "rate"})


def _asked_years(question: Question) -> set[int]:
    """The years the question asks a figure for («за 2027 год»), none in a condition."""
    return {y.year for y in question.years if not in_condition(question.text, y)}


def _names_year(candidate: Candidate, years: set[int]) -> bool:
    return bool(years & {int(y) for y in WRITTEN_YEAR.findall(candidate.sentence)})


def _passage_words(candidate: Candidate) -> frozenset[str]:
    """The lemmas of the candidate's passage and its title: a window cut from a long point
    («…57 390 рублей за расчетный период 2026 года, …») names its subject only there."""
    chunk = candidate.chunk
    return profile(f"{chunk.title or ''}\n{chunk.text}").lemmas


def prefer_norm_year(
    question: Question, ranked: list[Candidate], norms: list[Candidate]
) -> tuple[list[Candidate], list[Candidate]]:
    """``ranked`` with a Code point's sentence that states the asked year's figure first,
    when no retrieved passage's value-stating sentence names that year, and ``norms``
    without it.

    A figure the Code sets per year lists the years in one sentence («… 57 390 рублей за
    расчетный период 2026 года, 61 154 рублей за расчетный период 2027 года»); the
    knowledge base may stop a year earlier and the fused search find only its article, so
    its figures are of other years. The Code's own search's point (either leg) whose
    sentence states a value of the asked type and names the asked year, and whose passage
    names a content word of the question, is the answer for that year; the user's
    documents keep their own sentences."""
    if question.answer_type not in YEAR_TYPES or not ranked or not norms or question.several:
        return ranked, norms
    years = _asked_years(question)
    if not years or ranked[0].chunk.source == "user_docs":
        return ranked, norms
    stating = [c for c in ranked if states_asked(profile(c.sentence), question)]
    if any(_names_year(c, years) for c in stating):
        return ranked, norms
    content = content_lemmas(question)
    eligible = (c for c in norms if _names_year(c, years) and _passage_words(c) & content)
    return _first_stating_first(question, ranked, norms, eligible)
