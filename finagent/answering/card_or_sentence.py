"""A card field's value or a clause of the same document: which one leads the answer.

A card answers a field question from the sentence its fact came from. When the field is of
a kind that cannot state the value the question asks first — a role the question mentions
while it asks a term («какой гарантийный срок даёт поставщик?») — a clause of the same
document that states a value of the asked type and names clearly more of the question's
words answers instead. A field of the asked kind keeps the lead: its facts are typed and
told apart by the question's qualifiers, which a clause's word overlap is not.
"""

from __future__ import annotations

from collections.abc import Sequence

from finagent.answering.card_evidence import CardAnswer
from finagent.answering.document_sentences import (
    asked_lemmas,
    shared_words,
    value_level,
)
from finagent.answering.evidence import Candidate
from finagent.answering.extractive import clean_sentence
from finagent.answering.sentence_profile import profile
from finagent.cards.fields import BY_KEY as FIELD_BY_KEY
from finagent.cards.model import DocumentCard
from finagent.language.cues import cue_lemmas
from finagent.question.model import Question

MARGIN = 1.0  # shared question words a clause needs beyond the card's sentence
# the answer types a field of each kind states (a penalty's field states its rate or sum)
_STATES = {
    "party": {"party"},
    "amount": {"amount", "limit", "rate"},
    "rate": {"rate", "limit", "amount"},
    "date": {"date", "period"},
    "term": {"period", "date"},
}


def _flat(text: str) -> str:
    return " ".join(text.split())


def clause_answers_instead(
    question: Question,
    answers: Sequence[CardAnswer],
    ranked: Sequence[Candidate],
    cards: Sequence[DocumentCard],
) -> bool:
    """Whether the best-ranked clause, not the card's one field, should lead."""
    if len(answers) != 1:
        return False  # several fields asked: the card states each
    answer = answers[0]
    kind = FIELD_BY_KEY[answer.key].kind if answer.key in FIELD_BY_KEY else "amount"
    if question.answer_type in _STATES.get(kind, {question.answer_type}):
        return False
    top = next((c for c in ranked if clean_sentence(c.sentence)), None)
    if top is None or top.chunk.source != "user_docs":
        return False
    if top.chunk.document_id != answer.document_id:
        return False
    text = _flat(top.sentence)
    if value_level(question, profile(text), text) < 1:
        return False
    quoted = [_flat(v.sentence) for v in answer.values]
    if any(text in q or q in text for q in quoted):
        return False
    cues = FIELD_BY_KEY[answer.key].cues if answer.key in FIELD_BY_KEY else ()
    naming = {lm for cue in cues for lm in cue_lemmas(cue)}
    naming |= profile(answer.title).lemmas
    asked = asked_lemmas(question, cards) - naming
    if not asked:
        return False
    clause = shared_words(asked, profile(text).lemmas)
    card = max(shared_words(asked, profile(q).lemmas) for q in quoted)
    return clause >= card + MARGIN
