"""Whether a user's document is a record of a kind the cards do not type
(:data:`finagent.cards.doc_types.RECORD_KINDS`: a charter, a declaration, a payment order):
its heading names the kind, or, a card with no kind at all, its words speak of it."""

from __future__ import annotations

from collections.abc import Sequence

from finagent.cards.doc_types import RECORD_KINDS, DocType
from finagent.cards.model import DocumentCard
from finagent.language.cues import cue_lemmas, find_cue


def record_held(card: DocumentCard, cue: str) -> bool:
    """The card's heading (title, kind name, kind cues) holds the record kind's ``cue``; or
    the card has no kind and its words hold the cue."""
    heading = " ".join([card.title, card.doc_type_name or "", *card.kind_cues])
    if find_cue(cue_lemmas(heading), cue) >= 0:
        return True
    untyped = card.doc_type is None and not card.kind_cues
    return untyped and set(cue_lemmas(cue)) <= set(card.vocabulary)


def record_kind_named(lemmas: Sequence[str], card: DocumentCard) -> DocType | None:
    """The record kind the question (its ``lemmas``) names by a cue that the card's own
    heading holds («по уставу» of a card titled «Устав»), else None. Only the heading
    counts here: a question's kind word names the document that calls itself so."""
    heading = cue_lemmas(" ".join([card.title, card.doc_type_name or "", *card.kind_cues]))
    for kind in RECORD_KINDS:
        asked = any(find_cue(lemmas, cue) >= 0 for cue in kind.cues)
        if asked and any(find_cue(heading, cue) >= 0 for cue in kind.cues):
            return kind
    return None
