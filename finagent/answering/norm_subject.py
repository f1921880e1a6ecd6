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
keeps its document). Only the dense search's points are looked at: the Code's own
lexical search finds a point because it names the question's rare words, so its naming
them says nothing of the subject (a fine of another party's duty, a per-metre base).
"""

from __future__ import annotations

from finagent.answering.asked_values import states_asked
from finagent.answering.evidence import Candidate, promoted
from finagent.answering.sentence_profile import profile
from finagent.language.corpus_lemmas import corpus_lemmas
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
    covered = set().union(*(_words(c) for c in stating)) & content
    unmatched = {w for w in content - covered if _rare(w)}
    if not unmatched:
        return ranked, norms
    best_cover = corpus_lemmas().weight(_words(stating[0]) & content)
    dense = [c for c in norms if c.chunk.metadata.get(NORM_ONLY) == SEMANTIC_LEG]
    chunks = list(dict.fromkeys(c.chunk.id for c in dense))[:LOOKED_AT]
    for candidate in norms:
        if candidate.chunk.id not in chunks:
            continue
        words = _words(candidate)
        if not words & unmatched or corpus_lemmas().weight(words & content) <= best_cover:
            continue
        if not states_asked(profile(candidate.sentence), question):
            continue
        rest = [c for c in norms if c is not candidate]
        # first, scored at least as the former first (``promoted`` compares with
        # ``ranked[0]``, so the candidate must not be put there before it is called)
        return promoted(ranked, candidate), rest
    return ranked, norms
