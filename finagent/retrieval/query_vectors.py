"""Query vectors computed during a turn, shared between the router and the searches.

The orchestrate node embeds the routing text once (e5 ``query:`` vector); the search
nodes of the same turn take it from here and pass it to the retriever instead of
embedding the same text again. A small LRU keyed by (model id, whitespace-normalised
text): vectors are a pure function of the text, so sharing between users leaks nothing.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Iterable

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
        self._lock = threading.Lock()

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
