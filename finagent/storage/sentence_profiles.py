"""Sentence profiles of user documents in the LangGraph store, one namespace per user.

A record holds what :func:`finagent.answering.sentence_profile.profile` computes for each
sentence of one document, made at ingestion (``finagent.answering.stored_profiles``
makes and reads them; this layer only keeps them). A record is one store item, written
whole or not at all; one made by other code (another ``fingerprint``) is never used, and
the answer that finds it so makes it again.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, Protocol

from langgraph.store.base import BaseStore
from pydantic import BaseModel

from finagent.storage.namespaces import label

_ROOT = "document_sentence_profiles"


class ProfileRecord(BaseModel):
    """The profiles of one document's sentences, one row per sentence."""

    document_id: str
    fingerprint: str  # the profiling code's: a record made by other code is not used
    sentences: list[str]
    rows: list[list[Any]]


class Profiler(Protocol):
    """Makes a document's record and tells whether a stored one is still current."""

    def record(self, document_id: str, text: str) -> ProfileRecord: ...

    def current(self, record: ProfileRecord) -> bool: ...


def _namespace(user_id: str) -> tuple[str, str]:
    return (_ROOT, label(user_id))


class SentenceProfileStore:
    """Put, get and delete the sentence profiles of one user's documents."""

    def __init__(self, store: BaseStore) -> None:
        self._store = store

    async def put(self, user_id: str, record: ProfileRecord) -> None:
        await self._store.aput(_namespace(user_id), record.document_id, record.model_dump())

    async def get(self, user_id: str, document_id: str) -> ProfileRecord | None:
        item = await self._store.aget(_namespace(user_id), document_id)
        return ProfileRecord.model_validate(item.value) if item else None

    async def get_many(self, user_id: str, document_ids: Iterable[str]) -> list[ProfileRecord]:
        out = []
        for document_id in dict.fromkeys(document_ids):
            record = await self.get(user_id, document_id)
            if record is not None:
                out.append(record)
        return out

    async def delete(self, user_id: str, document_id: str) -> None:
        await self._store.adelete(_namespace(user_id), document_id)
