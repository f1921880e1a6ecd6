"""Fair query embedding: what a text may cost, and how many queries a user may embed at once.

- ``cap_text``: the embedder reads at most ``max_tokens`` tokens (e5-small: 512); anything
  beyond is cut before the model (or the endpoint) sees it, so no question costs more than
  a short paragraph, whatever its length.
- ``UserGate``: at most ``limit`` query embeddings per user at a time. The user comes from
  ``embedding_user`` (set by ``Agent.run`` and the retriever's callers) or the running
  LangGraph API run's configuration; one user's burst
  of long questions then queues behind itself, not in front of everyone else.
"""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from contextvars import ContextVar

# Characters read at most, before any tokenizer: 512 tokens of Russian prose are about
# 2 000 characters (4 per token), so a cap of 2 048 drops nothing the model would read.
MAX_EMBED_CHARS = 2048
E5_MAX_TOKENS = 512
QUERIES_PER_USER = 1
# Questions longer than this (about 100 tokens) are embedded in their own lane: a 512-token
# text costs the model a few hundred times a short question.
SHORT_QUERY_CHARS = 400

embedding_user: ContextVar[str | None] = ContextVar("embedding_user", default=None)


def current_embedding_user() -> str | None:
    """``embedding_user``, else the user of the LangGraph run being executed (a run
    started by the LangGraph API: its token's user, or the configured ``user_id``)."""
    user = embedding_user.get()
    if user is not None:
        return user
    from langchain_core.runnables.config import var_child_runnable_config

    configurable = (var_child_runnable_config.get() or {}).get("configurable") or {}
    found = configurable.get("langgraph_auth_user_id") or configurable.get("user_id")
    return found if isinstance(found, str) and found else None


def cap_text(
    text: str,
    max_chars: int = MAX_EMBED_CHARS,
    count_tokens: Callable[[str], int] | None = None,
    max_tokens: int = E5_MAX_TOKENS,
) -> str:
    """``text`` cut to ``max_chars`` characters and, given a tokenizer, to the longest
    prefix of at most ``max_tokens`` tokens (special tokens and prefix included)."""
    text = text[:max_chars]
    if count_tokens is None or count_tokens(text) <= max_tokens:
        return text
    low, high = 0, len(text)  # low fits, high does not
    while high - low > 1:
        mid = (low + high) // 2
        if count_tokens(text[:mid]) <= max_tokens:
            low = mid
        else:
            high = mid
    return text[:low]


class UserGate:
    """At most ``limit`` concurrent holders per user; no limit without a user.

    Semaphores are kept per event loop (tests and CLI commands run several loops over one
    embedder) and dropped when no one holds or waits for them.
    """

    def __init__(self, limit: int = QUERIES_PER_USER) -> None:
        self.limit = max(1, limit)
        self._loops: weakref.WeakKeyDictionary[
            asyncio.AbstractEventLoop, dict[str | None, tuple[asyncio.Semaphore, int]]
        ] = weakref.WeakKeyDictionary()

    def _users(self) -> dict[str | None, tuple[asyncio.Semaphore, int]]:
        loop = asyncio.get_running_loop()
        users = self._loops.get(loop)
        if users is None:
            users = self._loops[loop] = {}
        return users

    def busy(self, user: str | None) -> int:
        """Holders and waiters of ``user`` on this loop."""
        entry = self._users().get(user)
        return entry[1] if entry else 0

    @asynccontextmanager
    async def slot(self, user: str | None) -> AsyncIterator[None]:
        if user is None:  # no user named (e.g. a bare retriever call): not limited
            yield
            return
        users = self._users()
        semaphore, count = users.get(user) or (asyncio.Semaphore(self.limit), 0)
        users[user] = (semaphore, count + 1)
        try:
            async with semaphore:
                yield
        finally:
            semaphore, count = users[user]
            if count <= 1:
                del users[user]
            else:
                users[user] = (semaphore, count - 1)


class QuestionsFirst:
    """Questions' embeddings go before ingestion's: an ingestion batch starts only when no
    question embedding runs or waits (per event loop).

    A question therefore waits for at most the one small ingestion batch already running;
    ingestion resumes as soon as the questions are done.
    """

    def __init__(self) -> None:
        self._loops: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _Foreground] = (
            weakref.WeakKeyDictionary()
        )

    def _state(self) -> _Foreground:
        loop = asyncio.get_running_loop()
        state = self._loops.get(loop)
        if state is None:
            state = self._loops[loop] = _Foreground()
        return state

    def active(self) -> int:
        """Question embeddings running or waiting on this loop."""
        return self._state().count

    def held_back(self) -> int:
        """Ingestion batches waiting for the questions on this loop."""
        return self._state().held

    @asynccontextmanager
    async def question(self) -> AsyncIterator[None]:
        """Hold while a question's embedding waits and runs."""
        state = self._state()
        state.count += 1
        state.idle.clear()
        try:
            yield
        finally:
            state.count -= 1
            if state.count == 0:
                state.idle.set()

    async def background_turn(self) -> None:
        """Return once no question embedding runs or waits (call before each batch)."""
        state = self._state()
        if not state.count:
            return
        state.held += 1
        try:
            while state.count:
                await state.idle.wait()
        finally:
            state.held -= 1


class _Foreground:
    def __init__(self) -> None:
        self.count = 0
        self.held = 0
        self.idle = asyncio.Event()
        self.idle.set()


# Set while an ingestion embeds its chunks: the embedder then runs the batch in the
# ingestion lane, after the questions (``QuestionsFirst``).
background_embedding: ContextVar[bool] = ContextVar("background_embedding", default=False)
