"""Chat history per user and chat in the LangGraph store."""

from __future__ import annotations

import time

from langgraph.store.base import BaseStore

from finagent.state import Turn
from finagent.storage.namespaces import label

_ROOT = "chats"


def _namespace(user_id: str, chat_id: str) -> tuple[str, str, str]:
    return (_ROOT, label(user_id), label(chat_id))


class ChatHistory:
    """Append-only turns under ("chats", user_id, chat_id): a chat id never crosses users."""

    def __init__(self, store: BaseStore) -> None:
        self._store = store

    async def append(self, user_id: str, chat_id: str, turns: list[Turn]) -> None:
        for offset, turn in enumerate(turns):
            key = f"{time.time_ns() + offset:020d}"
            await self._store.aput(_namespace(user_id, chat_id), key, turn.model_dump())

    async def last(self, user_id: str, chat_id: str, limit: int) -> list[Turn]:
        if limit <= 0:
            return []
        items = await self._store.asearch(_namespace(user_id, chat_id), limit=10_000)
        items.sort(key=lambda item: item.key)
        return [Turn.model_validate(item.value) for item in items[-limit:]]
