"""Chat history per user and chat in the LangGraph store.

One store item per exchange: the question and the answer (whose text ends with its source
list) are written by a single ``aput``, one row on SQLite and on PostgreSQL, so a crash
leaves either the whole exchange or nothing. Items written before this layout held one
turn each; they are still read.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from langgraph.store.base import BaseStore

from finagent.state import Turn
from finagent.storage.namespaces import label, unlabel

_ROOT = "chats"


def _namespace(user_id: str, chat_id: str) -> tuple[str, str, str]:
    return (_ROOT, label(user_id), label(chat_id))


def _turns_of(value: dict[str, Any]) -> list[Turn]:
    """The turns of one stored item: an exchange (``turns``) or a single legacy turn."""
    if "turns" in value:
        return [Turn.model_validate(t) for t in value["turns"]]
    return [Turn.model_validate(value)]


class ChatHistory:
    """Append-only exchanges under ("chats", user_id, chat_id): a chat id never crosses users."""

    def __init__(self, store: BaseStore) -> None:
        self._store = store

    async def append(self, user_id: str, chat_id: str, turns: list[Turn]) -> None:
        """Write ``turns`` (a question and its answer) as one item: all or nothing."""
        if not turns:
            return
        key = f"{time.time_ns():020d}-{uuid.uuid4().hex[:8]}"  # sorts by time
        value = {"turns": [t.model_dump() for t in turns]}
        await self._store.aput(_namespace(user_id, chat_id), key, value, index=False)

    async def last(self, user_id: str, chat_id: str, limit: int) -> list[Turn]:
        if limit <= 0:
            return []
        items = await self._store.asearch(_namespace(user_id, chat_id), limit=10_000)
        items.sort(key=lambda item: item.key)
        turns: list[Turn] = []
        for item in reversed(items):  # newest first, until enough turns are read
            turns[:0] = _turns_of(item.value)
            if len(turns) >= limit:
                break
        return turns[-limit:]

    async def chats(self, user_id: str, limit: int = 200) -> list[str]:
        """The ids of ``user_id``'s chats (only theirs: the namespace starts with the user)."""
        spaces = await self._store.alist_namespaces(
            prefix=(_ROOT, label(user_id)), max_depth=3, limit=limit
        )
        return [unlabel(ns[2]) for ns in spaces if len(ns) == 3]
