"""Which of the user's documents answers: the named ones told apart by the question's words.

A counterparty or a product may be named by several documents (the licence and the
sublease with one company, the claim letter and the delivery note of one supplier); a
role word («поставщик») or nothing at all may name a document weakly. Then the question's
other content words decide: each is weighed by how few of the user's documents use it
(card vocabulary), so a word every document has tells none apart, and the document whose
vocabulary holds the most weight is the one asked about.

- named by a number, a counterparty or a person: of those named by the most reasons, the
  ones no other fits clearly better (by ``MARGIN``: a word used by it alone);
- named by its kind («в счёте», «по договору аренды») or a subject word of its heading
  («по кредитному договору»): those no other of them fits clearly better (several
  contracts are all named by «договор»);
- named only by a role word («поставщика»), which many documents hold: those, unless
  another document fits the words better by at least ``MARGIN`` (a word used only by it);
- named by nothing: the first retrieved document, unless another fits better by
  ``MARGIN``; decided (its sentences alone compete) only when it fits better than every
  other by ``MARGIN`` or another does.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from finagent.cards.model import DocumentCard
from finagent.question.documents import PRECISE, strength
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS
from finagent.state import Chunk

# a word used by one document of the user's, against one used by all of them, is worth
# about this much more than a tie
MARGIN = 1.0


def _weights(question: Question, cards: Sequence[DocumentCard]) -> dict[str, float]:
    """Each content lemma of the question the user's documents use, by its rarity among
    them (log of documents per document using it: 0 for a word all of them use)."""
    vocabularies = [set(card.vocabulary) for card in cards]
    total = len(vocabularies)
    out = {}
    for lm in dict.fromkeys(question.topic):
        if lm in STOP_LEMMAS:
            continue
        used = sum(lm in v for v in vocabularies)
        if used:
            out[lm] = math.log(total / used)
    return out


def fits(question: Question, cards: Sequence[DocumentCard]) -> dict[str, float]:
    """How well each document's vocabulary holds the question's distinctive words."""
    weights = _weights(question, cards)
    return {
        card.document_id: sum(w for lm, w in weights.items() if lm in set(card.vocabulary))
        for card in cards
    }


def retrieved_ids(chunks: Sequence[Chunk]) -> list[str]:
    """The user's documents of the retrieved passages, in retrieval order."""
    return list(
        dict.fromkeys(c.document_id for c in chunks if c.source == "user_docs" and c.document_id)
    )


def _best(ids: Sequence[str], fit: dict[str, float]) -> list[str]:
    """Those no other fits clearly better (by ``MARGIN``)."""
    top = max((fit.get(i, 0.0) for i in ids), default=0.0)
    return [i for i in ids if fit.get(i, 0.0) > top - MARGIN]


def first_tier(question: Question, retrieved: Sequence[str] = ()) -> list[str]:
    """The documents named most precisely, by the most reasons, else the first retrieved
    one."""
    most = max((strength(d.reasons) for d in question.documents), default=(0, 0, 0, 0))
    named = [d.document_id for d in question.documents if strength(d.reasons) == most]
    return named or list(retrieved[:1])


def chosen_documents(
    question: Question, cards: Sequence[DocumentCard], retrieved: Sequence[str] = ()
) -> list[str]:
    """The documents the answer is read from (empty when none is named and none
    retrieved); ``retrieved``: the user's documents in retrieval order."""
    return decided_documents(question, cards, retrieved) or first_tier(question, retrieved)


def decided_documents(
    question: Question, cards: Sequence[DocumentCard], retrieved: Sequence[str] = ()
) -> list[str]:
    """The documents the question's names or words decide on; empty when it is only the
    first retrieved one (then every retrieved document's sentences compete)."""
    base = first_tier(question, retrieved)
    if not cards or not base:
        return base if question.documents else []
    fit = fits(question, cards)
    reasons = {r for d in question.documents for r in d.reasons}
    if reasons & PRECISE:
        return _best(base, fit)
    if reasons & {"тип", "заголовок"}:
        # a kind several documents share («договор на юридические услуги» among three
        # contracts): the question's other words tell them apart
        return _best(base, fit)
    held = {card.document_id for card in cards}
    rival = max(held - set(base), key=lambda i: (fit[i], i), default=None)
    floor = max(fit.get(i, 0.0) for i in base)
    if rival is not None and fit[rival] >= floor + MARGIN:
        return [rival]
    if question.documents:
        return base
    # named by nothing, the first retrieved one is decided when the question's words fit it
    # clearly better than every other document («второй платёж на эскроу»: «эскроу» is the
    # shared-construction contract's alone, «платёж» the power supply contract's too)
    if rival is not None and floor >= fit[rival] + MARGIN:
        return base
    return []
