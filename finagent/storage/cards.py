"""Document cards in the LangGraph store, one namespace per user beside their documents."""

from __future__ import annotations

from datetime import datetime

from langgraph.store.base import BaseStore, Item

from finagent.cards.model import DocumentCard
from finagent.storage.namespaces import label

_ROOT = "document_cards"


def _namespace(user_id: str) -> tuple[str, str]:
    return (_ROOT, label(user_id))


class CardStore:
    """Put, get, list and delete the cards of one user's documents (SQLite or PostgreSQL).

    A turn reads the user's cards more than once (routing, the answer): a card is
    validated once per stored version (its key and ``updated_at``) and shared after that;
    cards are read-only."""

    def __init__(self, store: BaseStore) -> None:
        self._store = store
        self._validated: dict[tuple[tuple[str, ...], str], tuple[datetime, DocumentCard]] = {}

    async def put(self, user_id: str, card: DocumentCard) -> None:
        await self._store.aput(_namespace(user_id), card.document_id, card.model_dump(mode="json"))

    async def get(self, user_id: str, document_id: str) -> DocumentCard | None:
        item = await self._store.aget(_namespace(user_id), document_id)
        return DocumentCard.model_validate(item.value) if item else None

    async def list(self, user_id: str, limit: int = 1000) -> list[DocumentCard]:
        items = await self._store.asearch(_namespace(user_id), limit=limit)
        return [self._card(item) for item in items]

    def _card(self, item: Item) -> DocumentCard:
        key = (item.namespace, item.key)
        held = self._validated.get(key)
        if held is not None and held[0] == item.updated_at:
            return held[1]
        card = DocumentCard.model_validate(item.value)
        self._validated[key] = (item.updated_at, card)
        return card

    async def delete(self, user_id: str, document_id: str) -> None:
        await self._store.adelete(_namespace(user_id), document_id)
        self._validated.pop((_namespace(user_id), document_id), None)
