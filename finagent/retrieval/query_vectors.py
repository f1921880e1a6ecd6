"""Query vectors computed during a turn, shared between the router and the searches.

The orchestrate node embeds the routing text once (e5 ``query:`` vector); the search
nodes of the same turn take it from here and pass it to the retriever instead of
embedding the same text again. A small LRU keyed by (model id, whitespace-normalised
text): vectors are a pure function of the text, so sharing between users leaks nothing.

An embedding may be started before its vector is needed (``begin``: the orchestrate node
starts the question's at the top of the turn, so it runs in the model's worker thread
while the question is read); ``settled`` waits for the ones under way.
"""

from __future__ import annotations

import asyncio
import threading
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

MAX_ENTRIES = 256


def _key(model_id: str, text: str) -> tuple[str, str]:
    return model_id, " ".join(text.split())


class QueryVectors:
    """Bounded in-memory map text -> query vector."""

    def __init__(self, model_id: str, max_entries: int = MAX_ENTRIES) -> None:
        self.model_id = model_id
        self.max_entries = max_entries
        self._items: OrderedDict[tuple[str, str], np.ndarray] = OrderedDict()
        self._pending: dict[tuple[str, str], asyncio.Task[Any]] = {}
        self._lock = threading.Lock()

    def begin(self, texts: Sequence[str], task: asyncio.Task[Any]) -> None:
        """Record ``task`` as the embedding under way of ``texts`` (it ``put``s them)."""
        keys = [_key(self.model_id, text) for text in texts]
        with self._lock:
            for key in keys:
                self._pending[key] = task
        task.add_done_callback(lambda done: self._settle(keys, done))

    def _settle(self, keys: list[tuple[str, str]], task: asyncio.Task[Any]) -> None:
        with self._lock:
            for key in keys:
                if self._pending.get(key) is task:
                    del self._pending[key]
        if not task.cancelled():
            task.exception()  # retrieved here: a waiter finds the vectors missing instead

    async def settled(self, texts: Iterable[str]) -> None:
        """Wait for the embeddings of ``texts`` under way on this event loop (never raises:
        a failed one leaves its vectors missing)."""
        loop = asyncio.get_running_loop()
        with self._lock:
            tasks = {self._pending.get(_key(self.model_id, text)) for text in texts}
        waiting = [t for t in tasks if t is not None and t.get_loop() is loop]
        if waiting:
            await asyncio.wait(waiting)

    def put(self, text: str, vector: np.ndarray) -> None:
        with self._lock:
            key = _key(self.model_id, text)
            self._items[key] = np.asarray(vector, dtype=np.float32)
            self._items.move_to_end(key)
            while len(self._items) > self.max_entries:
                self._items.popitem(last=False)

    def lookup(self, texts: Iterable[str]) -> dict[str, np.ndarray]:
        """The known vectors among ``texts`` (keyed by the text as given, stripped)."""
        found: dict[str, np.ndarray] = {}
        with self._lock:
            for text in texts:
                vector = self._items.get(_key(self.model_id, text))
                if vector is not None:
                    found[text.strip()] = vector
        return found
