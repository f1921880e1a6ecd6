"""Which edition of a contract a question asks: as amended, or as first signed.

A supplementary agreement, a protocol of disagreements or a termination agreement changes
the contract it names. «Теперь», «новый», «в итоге», «после допсоглашения», a verb of
change («поднимается», «изменится») ask the terms as amended; «до допсоглашения»,
«первоначально», «прежний», «при утверждении» the terms before («при заключении договора»
is when a payment falls due, not an edition). The documents of one contract are linked by
their cards: an amending document's heading names the contract's number
(``DocumentCard.references``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from finagent.cards.doc_types import ABOUT_ANOTHER, BY_KEY
from finagent.cards.model import DocumentCard
from finagent.language.cues import find_cue, has_any
from finagent.question.documents import number_key
from finagent.question.model import DocumentMatch

Revision = Literal["amended", "original"]
REVISION_REASON = "редакция"  # the document is of the edition the question asks

_AMENDED = (
    "теперь",
    "новый",
    "в итоге",
    "в новой редакции",
    "с учётом изменений",
    "актуальный",
    "подниматься",
    "повышаться",
    "увеличиваться",
    "уменьшаться",
    "снижаться",
    "меняться",
    "измениться",
    "изменяться",
    "поменяться",
)
_ORIGINAL = (
    "первоначальный",
    "первоначально",
    "изначально",
    "изначальный",
    "прежний",
    "при утверждении",
)
_BEFORE, _AFTER = "до", "после"
# the words that name an amending document: «допсоглашение», «протокол разногласий» …
_AMENDING_CUES = tuple(cue for key in ABOUT_ANOTHER for cue in BY_KEY[key].cues)
_REACH = 3  # «после подписания допсоглашения», «до дополнительного соглашения»


def _around_amending(lemmas: Sequence[str], preposition: str) -> bool:
    """«до допника», «после дополнительного соглашения № 1»: the preposition governs a word
    naming an amending document within a few words."""
    at = find_cue(lemmas, preposition)
    while at >= 0:
        window = lemmas[at + 1 : at + 1 + _REACH + 1]
        if any(find_cue(window, cue) >= 0 for cue in _AMENDING_CUES):
            return True
        at = find_cue(lemmas, preposition, at + 1)
    return False


def asked_revision(lemmas: Sequence[str]) -> Revision | None:
    """The edition the question asks, or None when it says nothing of one."""
    if _around_amending(lemmas, _BEFORE) or has_any(lemmas, _ORIGINAL):
        return "original"
    if _around_amending(lemmas, _AFTER) or has_any(lemmas, _AMENDED):
        return "amended"
    return None


def amends(amending: DocumentCard, base: DocumentCard) -> bool:
    """Whether ``amending`` (a supplementary agreement, protocol of disagreements or
    termination agreement) names ``base`` as the contract it changes."""
    if amending.doc_type not in ABOUT_ANOTHER or base.doc_type in ABOUT_ANOTHER:
        return False
    if not base.number or amending.document_id == base.document_id:
        return False
    return number_key(base.number) in {number_key(r) for r in amending.references}


def with_revisions(
    matches: list[DocumentMatch], cards: Sequence[DocumentCard], revision: Revision | None
) -> list[DocumentMatch]:
    """The named documents with their contract's other editions weighed: a document that
    amends a named contract is named by the contract's reasons too (its terms are the
    contract's terms), and the edition the question asks gets one reason more. Without an
    asked edition the amended one comes first (it states the terms in force)."""
    by_id = {card.document_id: card for card in cards}
    found = {m.document_id: m for m in matches}
    for match in matches:
        base = by_id.get(match.document_id)
        if base is None:
            continue
        for card in cards:
            if not amends(card, base):
                continue
            own = found.get(card.document_id)
            reasons = list(dict.fromkeys([*(own.reasons if own else []), *match.reasons]))
            if own is None:
                own = DocumentMatch(document_id=card.document_id, title=card.title, reasons=[])
                found[card.document_id] = own
            own.reasons = reasons
            if revision is not None:
                asked = own if revision == "amended" else match
                if REVISION_REASON not in asked.reasons:
                    asked.reasons.append(REVISION_REASON)
    amending = {i for i, card in by_id.items() if card.doc_type in ABOUT_ANOTHER}
    prefer_amended = revision != "original"
    return sorted(
        found.values(),
        key=lambda m: (-len(m.reasons), (m.document_id not in amending) == prefer_amended),
    )
