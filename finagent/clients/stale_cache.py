"""Per-entry TTL cache that keeps the last good value, so a caller can serve it marked
stale when the live service fails."""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Generic, TypeVar

from cachetools import LRUCache

from finagent.observability import get_logger

log = get_logger("finagent.clients")
K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


@dataclass(frozen=True)
class CacheHit(Generic[V]):
    """A cached or freshly fetched value; ``stale`` when served after a failed refresh."""

    value: V
    fetched_at: datetime
    stale: bool = False


@dataclass
class _Entry(Generic[V]):
    value: V
    fetched_at: datetime
    expires_at: float


class StaleCache(Generic[K, V]):
    """Per-entry TTL cache that keeps expired values as a stale fallback.

    ``clock`` (monotonic seconds) is injectable for tests. Expired entries are not
    dropped until the LRU bound ``maxsize`` pushes them out.
    """

    def __init__(self, maxsize: int = 1024, clock: Callable[[], float] = time.monotonic) -> None:
        self._entries: LRUCache[K, _Entry[V]] = LRUCache(maxsize=maxsize)
        self._clock = clock

    def put(self, key: K, value: V, ttl_s: float) -> CacheHit[V]:
        entry = _Entry(value, datetime.now(UTC), self._clock() + ttl_s)
        self._entries[key] = entry
        return CacheHit(value, entry.fetched_at, stale=False)

    def get_fresh(self, key: K) -> CacheHit[V] | None:
        entry = self._entries.get(key)
        if entry is None or entry.expires_at <= self._clock():
            return None
        return CacheHit(entry.value, entry.fetched_at, stale=False)

    def get_stale(self, key: K) -> CacheHit[V] | None:
        """The last good value whatever its age, marked stale."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        return CacheHit(entry.value, entry.fetched_at, stale=True)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)
