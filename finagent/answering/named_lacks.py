"""A held document the question names as its source that speaks of what is asked but
states no value of it.

«Какие доли у участников по уставу?» of a charter that says the capital «состоит из
номинальной стоимости долей участников» and never how large each share is: the best
sentence of the charter stating a value of the asked type («резервный фонд в размере 5 %
уставного капитала») names none of the asked words, while other sentences of the charter
name several of them without a value. The value is of something else; the charter does not
state the asked one, and a value from another document is no answer either (the question
named its source). The answer abstains, naming the document.

The check is narrow: the question names the document by its kind (with or without its
heading, number, party or person), not by words alone; the thing asked is a noun of its
own («доли»), not the kind of value («к какой дате», «в какой срок»: a clause may state
a date of the asked work in other words, «окончание работ» for «завершить работы»); it
asks at least ``MIN_ASKED`` words beyond the document's title and the value's kind; some
sentence of the document names the asked noun and at least ``MIN_ASKED`` of those words;
the quoted sentence (and its section heading) names none of them.
"""

from __future__ import annotations

from collections.abc import Sequence

from finagent.answering import messages
from finagent.answering.abstention import Abstention
from finagent.answering.document_choice import decided_documents, retrieved_ids
from finagent.answering.document_sentences import (
    asked_lemmas,
    section_headings,
    shared_words,
    value_level,
)
from finagent.answering.evidence import Candidate
from finagent.answering.sentence_profile import profile
from finagent.cards.model import DocumentCard
from finagent.language.lemmas import in_nominative
from finagent.question.model import Question
from finagent.state import Chunk

MIN_ASKED = 2
# reasons that name a document as the question's source, not only words it happens to use
_SOURCE_REASONS = frozenset({"тип", "заголовок", "номер", "контрагент", "лицо"})


def named_document_lacks(
    question: Question,
    ranked: Sequence[Candidate],
    cards: Sequence[DocumentCard],
    chunks: Sequence[Chunk],
) -> Abstention | None:
    """The abstention when the named document's quoted value is of another thing (see
    above), else None; ``ranked``: the candidate sentences best first."""
    if not ranked or ranked[0].chunk.source != "user_docs" or not question.attributes:
        return None
    top = ranked[0]
    decided = decided_documents(question, cards, retrieved_ids(chunks))
    named = {
        d.document_id
        for d in question.documents
        if d.document_id in decided and "тип" in d.reasons and _SOURCE_REASONS & set(d.reasons)
    }
    if top.chunk.document_id not in named:
        return None
    title = profile(top.chunk.title or "").lemmas
    asked = asked_lemmas(question, cards) - title
    head = question.attributes[0].head
    # the asked thing is a noun of its own («доли»), not the kind of value («к какой дате»)
    if head not in asked or len(asked) < MIN_ASKED:
        return None
    if not value_level(question, profile(top.sentence), top.sentence):
        return None
    if shared_words(asked, profile(top.sentence).lemmas) or shared_words(asked, _heading_of(top)):
        return None
    own = [c for c in ranked if c.chunk.document_id == top.chunk.document_id]
    if not any(_names_asked(head, asked, profile(c.sentence).lemmas) for c in own):
        return None
    document = top.chunk.title or ""
    attribute = in_nominative(question.attributes[0].text)
    return Abstention(
        "document",
        messages.ABSTAIN_NAMED_VALUE.format(document=document, attribute=attribute),
        messages.ABSTAIN_NAMED_VALUE_MISSING.format(document=document, attribute=attribute),
    )


def _names_asked(head: str, asked: set[str], lemmas: frozenset[str]) -> bool:
    """The sentence names the asked noun and at least ``MIN_ASKED`` of the asked words."""
    return head in lemmas and shared_words(asked, lemmas) >= MIN_ASKED


def _heading_of(candidate: Candidate) -> frozenset[str]:
    """The lemmas of the section heading the candidate stands under in its passage."""
    text = " ".join(candidate.chunk.text.split())
    at = text.find(" ".join(candidate.sentence.split())[:60])
    starts, titles = section_headings(candidate.chunk.text)
    before = [t for s, t in zip(starts, titles, strict=True) if 0 <= s <= at]
    return profile(before[-1]).lemmas if at >= 0 and before else frozenset()
