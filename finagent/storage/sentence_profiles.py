"""Sentence profiles of user documents in the LangGraph store, one namespace per user.

A record holds what :func:`finagent.answering.sentence_profile.profile` computes for each
sentence of one document, made at ingestion (``finagent.answering.stored_profiles``
makes and reads them; this layer only keeps them). A record is one store item, written
whole or not at all; one made by other code (another ``fingerprint``) is never used, and
the answer that finds it so makes it again.
"""

from __future__ import annotations

from typing import Any, Protocol

from langgraph.store.base import BaseStore
from pydantic import BaseModel

from finagent.storage.document_records import DocumentRecordStore

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


class SentenceProfileStore(DocumentRecordStore[ProfileRecord]):
    """Put, get and delete the sentence profiles of one user's documents."""

    def __init__(self, store: BaseStore) -> None:
        super().__init__(store, _ROOT, ProfileRecord)
