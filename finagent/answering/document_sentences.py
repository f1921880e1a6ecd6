"""Sentences of the user's documents for a question no card field answers.

The learned ranker is trained on Tax Code and knowledge-base sentences; in a contract it
prefers a letterhead line or a heading as readily as a clause. For a question about the
user's documents the sentence to quote is the one of the named document (else any user
document) that states a value of the asked type and shares most content words with the
question; the ranker's score only breaks ties.
"""

from __future__ import annotations

from finagent.answering.evidence import Candidate
from finagent.answering.sentence_profile import profile, states_type
from finagent.question.model import Question

_MIN_WORDS = 4  # «18-Н · тел. …», «ДОГОВОР № 5»: fragments, not clauses


def _clause(sentence: str) -> bool:
    """A sentence of the text, not a fragment or a heading in capitals."""
    words = [word for word in sentence.split() if any(ch.isalpha() for ch in word)]
    letters = [ch for ch in sentence if ch.isalpha()]
    capitals = sum(ch.isupper() for ch in letters) > 0.6 * len(letters)
    return len(words) >= _MIN_WORDS and not capitals


def rerank_document_sentences(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the user's document sentences that answer the question first, when the
    question names a document or only documents were found; else unchanged."""
    most = max((len(d.reasons) for d in question.documents), default=0)
    # «доверенность на Зуева»: the power of attorney (type and person), not an act naming him
    named = {d.document_id for d in question.documents if len(d.reasons) == most}
    own = [c for c in ranked if c.chunk.source == "user_docs"]
    if not own or (not named and len(own) < len(ranked)):
        return ranked
    if named and any(c.chunk.document_id in named for c in own):
        own = [c for c in own if c.chunk.document_id in named]
    topic = set(question.topic)

    def key(candidate: Candidate) -> tuple[bool, bool, int, float]:
        p = profile(candidate.sentence)
        # the words that name the document («субаренда», «помещение») tell no clause apart
        naming = profile(candidate.chunk.title or "").lemmas
        return (
            _clause(candidate.sentence),
            states_type(p, question.answer_type),
            len((topic - naming) & p.lemmas),
            candidate.score,
        )

    first = sorted(own, key=key, reverse=True)
    chosen = {id(c) for c in first}
    return first + [c for c in ranked if id(c) not in chosen]
