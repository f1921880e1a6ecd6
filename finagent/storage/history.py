"""Chat history per user and chat in the LangGraph store.

One store item per exchange: the question and the answer (whose text ends with its source
list) are written by a single ``aput``, one row on SQLite and on PostgreSQL, so a crash
leaves either the whole exchange or nothing. Items written before this layout held one
turn each; they are still read. This store is the one conversation memory
(docs/storage.md): the last turns are read with a bounded, newest-first query.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from langgraph.store.base import BaseStore, Item

from finagent.redaction import redact_json
from finagent.state import Turn
from finagent.storage.namespaces import label, unlabel

_ROOT = "chats"
#: Items read beyond the needed ones per page: exchanges stored within one timestamp tick.
PAGE_MARGIN = 8


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
        """Write ``turns`` (a question and its answer, redacted) as one item: all or nothing."""
        if not turns:
            return
        key = f"{time.time_ns():020d}-{uuid.uuid4().hex[:8]}"  # sorts by time
        value = redact_json({"turns": [t.model_dump(mode="json") for t in turns]})
        await self._store.aput(_namespace(user_id, chat_id), key, value, index=False)

    async def last(self, user_id: str, chat_id: str, limit: int) -> list[Turn]:
        """The chat's last ``limit`` turns, oldest first (reads about ``limit`` items)."""
        if limit <= 0:
            return []
        # every item holds at least one turn: the newest ``limit`` items are enough
        items = await self._newest(_namespace(user_id, chat_id), limit)
        turns: list[Turn] = []
        for item in reversed(items):  # newest first, until enough turns are read
            turns[:0] = _turns_of(item.value)
            if len(turns) >= limit:
                break
        return turns[-limit:]

    async def _newest(self, namespace: tuple[str, ...], count: int) -> list[Item]:
        """The ``count`` newest items by key (= creation order), oldest first.

        The SQLite and PostgreSQL stores list items newest ``updated_at`` first, page by
        page; items are never updated, so that is creation order up to ties within one
        timestamp tick (a second on SQLite). Pages are read until no unread item can be
        newer than the ones kept: the oldest kept one is strictly newer than the last read.
        """
        page = count + PAGE_MARGIN
        seen: list[Item] = []
        while True:
            items = await self._store.asearch(namespace, limit=page, offset=len(seen))
            seen.extend(items)
            kept = sorted(seen, key=lambda item: item.key)[-count:]
            if len(items) < page or min(i.updated_at for i in kept) > items[-1].updated_at:
                return kept

    async def chats(self, user_id: str, limit: int = 200) -> list[str]:
        """The ids of ``user_id``'s chats (only theirs: the namespace starts with the user)."""
        spaces = await self._store.alist_namespaces(
            prefix=(_ROOT, label(user_id)), max_depth=3, limit=limit
        )
        return [unlabel(ns[2]) for ns in spaces if len(ns) == 3]
