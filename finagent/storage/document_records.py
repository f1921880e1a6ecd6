"""One pydantic record per user document in the LangGraph store, one namespace per user."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Generic, TypeVar

from langgraph.store.base import BaseStore
from pydantic import BaseModel

from finagent.storage.namespaces import label

RecordT = TypeVar("RecordT", bound=BaseModel)


class DocumentRecordStore(Generic[RecordT]):
    """Put, get and delete records of one kind (``model`` under ``root``) of one user's
    documents; a record is one store item, written whole or not at all."""

    def __init__(self, store: BaseStore, root: str, model: type[RecordT]) -> None:
        self._store = store
        self._root = root
        self._model = model

    def _namespace(self, user_id: str) -> tuple[str, str]:
        return (self._root, label(user_id))

    async def put(self, user_id: str, record: RecordT) -> None:
        document_id = record.document_id  # type: ignore[attr-defined]
        await self._store.aput(self._namespace(user_id), document_id, record.model_dump())

    async def get(self, user_id: str, document_id: str) -> RecordT | None:
        item = await self._store.aget(self._namespace(user_id), document_id)
        return self._model.model_validate(item.value) if item else None

    async def get_many(self, user_id: str, document_ids: Iterable[str]) -> list[RecordT]:
        out = []
        for document_id in dict.fromkeys(document_ids):
            record = await self.get(user_id, document_id)
            if record is not None:
                out.append(record)
        return out

    async def delete(self, user_id: str, document_id: str) -> None:
        await self._store.adelete(self._namespace(user_id), document_id)
