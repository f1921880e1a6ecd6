"""Sentence vectors of user documents in the LangGraph store, one namespace per user."""

from __future__ import annotations

from langgraph.store.base import BaseStore

from finagent.cards.sentence_vectors import SentenceVectors
from finagent.storage.document_records import DocumentRecordStore

_ROOT = "document_sentence_vectors"


class SentenceVectorStore(DocumentRecordStore[SentenceVectors]):
    """Put, get and delete the sentence vectors of one user's documents."""

    def __init__(self, store: BaseStore) -> None:
        super().__init__(store, _ROOT, SentenceVectors)
