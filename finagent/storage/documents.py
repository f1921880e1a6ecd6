"""User documents in the LangGraph store: one namespace per user, so isolation is structural."""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime

from langgraph.store.base import BaseStore
from pydantic import BaseModel

from finagent.routing.inventory import describe
from finagent.storage.cards import CardStore
from finagent.storage.namespaces import label
from finagent.storage.sentence_profiles import SentenceProfileStore
from finagent.storage.sentence_vectors import SentenceVectorStore

_ROOT = "documents"
_INDEX_ROOT = "document_index"  # DocumentInfo without the text: what routing reads each turn


class StoredDocument(BaseModel):
    id: str
    user_id: str
    title: str
    filename: str
    text: str
    size: int  # characters
    created_at: str
    sha256: str
    # read from the title and the opening of the text at ingestion (routing inventory)
    doc_type: str | None = None
    counterparty: str | None = None
    doc_date: str | None = None


class DocumentInfo(BaseModel):
    id: str
    title: str
    filename: str
    size: int
    created_at: str
    doc_type: str | None = None
    counterparty: str | None = None
    doc_date: str | None = None


def document_id_for(user_id: str, text: str) -> str:
    """Content-derived id: the same file re-ingested by the same user keeps its id."""
    digest = hashlib.sha256(f"{user_id}\0{text}".encode()).hexdigest()
    return "doc_" + digest[:16]


def _namespace(user_id: str) -> tuple[str, str]:
    return (_ROOT, label(user_id))


def _index_namespace(user_id: str) -> tuple[str, str]:
    return (_INDEX_ROOT, label(user_id))


def _info(doc: StoredDocument) -> DocumentInfo:
    return DocumentInfo.model_validate(doc.model_dump(exclude={"text"}))


class DocumentStore:
    """Full texts of user documents (title, user, size, created) in a LangGraph store."""

    def __init__(self, store: BaseStore) -> None:
        self._store = store
        self.cards = CardStore(store)  # each document's card, in the same store and user
        # each document's sentence vectors (whole-document answers), beside its card
        self.sentence_vectors = SentenceVectorStore(store)
        # and the profiles of those sentences (lemmas, values), made once at ingestion
        self.sentence_profiles = SentenceProfileStore(store)

    async def put(self, user_id: str, title: str, filename: str, text: str) -> StoredDocument:
        doc_id = document_id_for(user_id, text)
        existing = await self.get(user_id, doc_id)
        if existing is not None:
            return existing
        described = describe(title, text[:600])
        doc = StoredDocument(
            id=doc_id,
            user_id=user_id,
            title=title,
            filename=filename,
            text=text,
            size=len(text),
            created_at=datetime.now(UTC).isoformat(timespec="seconds"),
            sha256=hashlib.sha256(text.encode()).hexdigest(),
            doc_type=described.doc_type,
            counterparty=described.counterparty,
            doc_date=described.date,
        )
        await self._store.aput(_namespace(user_id), doc_id, doc.model_dump())
        await self._store.aput(_index_namespace(user_id), doc_id, _info(doc).model_dump())
        return doc

    async def retitle(self, user_id: str, doc_id: str, title: str) -> None:
        """Give a stored document a new title (re-ingestion by a newer title reader)."""
        doc = await self.get(user_id, doc_id)
        if doc is None or doc.title == title:
            return
        described = describe(title, doc.text[:600])
        doc.title = title
        doc.doc_type, doc.counterparty = described.doc_type, described.counterparty
        doc.doc_date = described.date
        await self._store.aput(_namespace(user_id), doc_id, doc.model_dump())
        await self._store.aput(_index_namespace(user_id), doc_id, _info(doc).model_dump())

    async def get(self, user_id: str, doc_id: str) -> StoredDocument | None:
        item = await self._store.aget(_namespace(user_id), doc_id)
        return StoredDocument.model_validate(item.value) if item else None

    async def get_many(
        self, user_id: str, doc_ids: list[str]
    ) -> tuple[list[StoredDocument], list[str]]:
        """Documents of this user among ``doc_ids`` and the ids not found for this user."""
        found: list[StoredDocument] = []
        missing: list[str] = []
        for doc_id in dict.fromkeys(doc_ids):
            doc = await self.get(user_id, doc_id)
            if doc is None:
                missing.append(doc_id)
            else:
                found.append(doc)
        return found, missing

    async def inventory(self, user_id: str, limit: int = 1000) -> list[DocumentInfo]:
        """Titles, types, counterparties and dates without the texts (read every turn).

        Documents stored before the index existed are indexed on first read."""
        items = await self._store.asearch(_index_namespace(user_id), limit=limit)
        if items:
            return [DocumentInfo.model_validate(item.value) for item in items]
        full = await self._store.asearch(_namespace(user_id), limit=limit)
        infos = []
        for item in full:
            doc = StoredDocument.model_validate(item.value)
            if doc.doc_type is None and doc.counterparty is None and doc.doc_date is None:
                described = describe(doc.title, doc.text[:600])
                doc.doc_type, doc.counterparty = described.doc_type, described.counterparty
                doc.doc_date = described.date
            info = _info(doc)
            await self._store.aput(_index_namespace(user_id), doc.id, info.model_dump())
            infos.append(info)
        return infos

    async def list(self, user_id: str, limit: int = 1000) -> list[DocumentInfo]:
        items = await self._store.asearch(_namespace(user_id), limit=limit)
        return [DocumentInfo.model_validate(item.value) for item in items]

    async def delete(self, user_id: str, doc_id: str) -> None:
        await self._store.adelete(_namespace(user_id), doc_id)
        await self._store.adelete(_index_namespace(user_id), doc_id)
        await self.cards.delete(user_id, doc_id)
        await self.sentence_vectors.delete(user_id, doc_id)
        await self.sentence_profiles.delete(user_id, doc_id)
