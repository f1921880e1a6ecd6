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
    """The user's cards, newest upload first; one of an older ``CARD_VERSION`` is rebuilt
    once and stored.

    The order decides between documents the question's words tie on, so it is the
    documents' upload order (ties within a second by document id), never the store's
    listing order, which follows each card's last write: a card rebuild, a re-ingestion
    or the backend would otherwise change which document answers."""
    cards = await documents.cards.list(user_id, limit=limit)
    out: list[DocumentCard] = []
    for card in cards:
        if card.version < CARD_VERSION:
            doc = await documents.get(user_id, card.document_id)
            if doc is not None:
                card = await asyncio.to_thread(build_card, doc.id, doc.title, doc.text)
                await documents.cards.put(user_id, card)
                # the document is listed by its own heading, as a new upload would be
                await documents.retitle(user_id, doc.id, card.title)
        out.append(card)
    uploaded = {info.id: info.created_at for info in await documents.inventory(user_id, limit)}
    out.sort(key=lambda c: c.document_id)
    out.sort(key=lambda c: uploaded.get(c.document_id, ""), reverse=True)
    return out
