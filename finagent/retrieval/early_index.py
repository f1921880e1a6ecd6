"""The index of a question opened while the command still imports its code.

``finagent ask`` spends about a second importing LangGraph and LangChain, holding the GIL
on one core, before the composition root opens the index; loading a Qdrant Edge shard is
mostly disk reads in native code that release the GIL. ``EarlyIndex`` builds the index
(``build_index``, the root's own builder) and loads the knowledge-base shard (the Tax Code
and the KB, which every answer searches first) in a background thread started before
those imports; ``Root`` takes the index over (``Root(settings, early=...)``) and owns it
from then on. Only the embedded index is opened early: a Qdrant server's client is
Python work that would only compete with the imports for the GIL.

A shard that cannot be opened early (missing, held by another process) is left to its
first use, which creates it or fails with the error it always gave.
"""

from __future__ import annotations

import asyncio
import threading

from finagent.config import Settings
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.factory import build_index
from finagent.retrieval.index import VectorIndex

# ``Retriever.collection(KB)``'s suffix; the retriever module is too slow to import here
KB_SUFFIX = "kb"


class EarlyIndex:
    """``build_index(settings)`` with its knowledge-base shard loaded in a thread."""

    def __init__(self, settings: Settings) -> None:
        self._collection = f"{settings.collection_prefix}_{KB_SUFFIX}"
        self._index = build_index(settings)
        self._taken = False
        self._thread = threading.Thread(target=self._load, name="finagent-early-index")
        self._thread.start()

    def _load(self) -> None:
        if isinstance(self._index, EdgeIndex):
            self._index.preopen(self._collection)

    def take(self) -> VectorIndex:
        """The index once its shard has loaded (blocks until then); the caller owns it and
        closes it. Taken at most once."""
        if self._taken:
            raise RuntimeError("the early index was taken already")
        self._thread.join()
        self._taken = True
        return self._index

    def discard(self) -> None:
        """Wait for the loading thread and, if nobody took the index (the command failed
        before its root opened), close its shard: no thread or open shard is left behind."""
        self._thread.join()
        if not self._taken:
            self._taken = True
            asyncio.run(self._index.close())


def start_early_index(settings: Settings) -> EarlyIndex | None:
    """An ``EarlyIndex`` for the embedded index, None for a Qdrant server (nothing to gain)."""
    if settings.qdrant_url:
        return None
    return EarlyIndex(settings)
