"""Document cards in the LangGraph store, one namespace per user beside their documents."""

from __future__ import annotations

from langgraph.store.base import BaseStore

from finagent.cards.model import DocumentCard
from finagent.storage.namespaces import label

_ROOT = "document_cards"


def _namespace(user_id: str) -> tuple[str, str]:
    return (_ROOT, label(user_id))


class CardStore:
    """Put, get, list and delete the cards of one user's documents (SQLite or PostgreSQL)."""

    def __init__(self, store: BaseStore) -> None:
        self._store = store

    async def put(self, user_id: str, card: DocumentCard) -> None:
        await self._store.aput(_namespace(user_id), card.document_id, card.model_dump(mode="json"))

    async def get(self, user_id: str, document_id: str) -> DocumentCard | None:
        item = await self._store.aget(_namespace(user_id), document_id)
        return DocumentCard.model_validate(item.value) if item else None

    async def list(self, user_id: str, limit: int = 1000) -> list[DocumentCard]:
        items = await self._store.asearch(_namespace(user_id), limit=limit)
        return [DocumentCard.model_validate(item.value) for item in items]

    async def delete(self, user_id: str, document_id: str) -> None:
        await self._store.adelete(_namespace(user_id), document_id)
