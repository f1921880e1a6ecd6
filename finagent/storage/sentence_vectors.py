"""Sentence vectors of user documents in the LangGraph store, one namespace per user."""

from __future__ import annotations

from collections.abc import Iterable

from langgraph.store.base import BaseStore

from finagent.cards.sentence_vectors import SentenceVectors
from finagent.storage.namespaces import label

_ROOT = "document_sentence_vectors"


def _namespace(user_id: str) -> tuple[str, str]:
    return (_ROOT, label(user_id))


class SentenceVectorStore:
    """Put, get and delete the sentence vectors of one user's documents."""

    def __init__(self, store: BaseStore) -> None:
        self._store = store

    async def put(self, user_id: str, record: SentenceVectors) -> None:
        await self._store.aput(_namespace(user_id), record.document_id, record.model_dump())

    async def get(self, user_id: str, document_id: str) -> SentenceVectors | None:
        item = await self._store.aget(_namespace(user_id), document_id)
        return SentenceVectors.model_validate(item.value) if item else None

    async def get_many(self, user_id: str, document_ids: Iterable[str]) -> list[SentenceVectors]:
        out = []
        for document_id in dict.fromkeys(document_ids):
            record = await self.get(user_id, document_id)
            if record is not None:
                out.append(record)
        return out

    async def delete(self, user_id: str, document_id: str) -> None:
        await self._store.adelete(_namespace(user_id), document_id)
