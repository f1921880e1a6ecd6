"""Cards built by an older card builder are rebuilt from their stored text when read, and
their documents retitled by the card's title (the document's own heading)."""

from __future__ import annotations

import asyncio

from finagent.cards.build import build_card
from finagent.cards.model import CARD_VERSION, DocumentCard
from finagent.storage.documents import DocumentStore


async def current_cards(
    documents: DocumentStore, user_id: str, limit: int = 1000
) -> list[DocumentCard]:
    """The user's cards; one of an older ``CARD_VERSION`` is rebuilt once and stored.
    The store lists cards (and documents) newest stored first, so the stale ones are
    rebuilt oldest first: every later listing keeps the order of the uploads, which
    decides between documents the question's words tie on (a bump of the card version
    reversed it)."""
    cards = await documents.cards.list(user_id, limit=limit)
    out: list[DocumentCard] = []
    for card in reversed(cards):
        if card.version < CARD_VERSION:
            doc = await documents.get(user_id, card.document_id)
            if doc is not None:
                card = await asyncio.to_thread(build_card, doc.id, doc.title, doc.text)
                await documents.cards.put(user_id, card)
                # the document is listed by its own heading, as a new upload would be
                await documents.retitle(user_id, doc.id, card.title)
        out.append(card)
    return out[::-1]
