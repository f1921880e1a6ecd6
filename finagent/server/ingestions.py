"""Uploads being ingested by the service: queued per user, bounded overall, cancellable.

Each user's files are ingested one at a time, in order, and at most ``concurrency`` files
are ingested at once for all users; questions never wait in this queue. Every ingestion
keeps a progress bar (stage, chunks done of total, ETA) that only its user can read, and
all of them are cancelled when the service stops.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from finagent.retrieval.progress import ChunkProgress, chunk_progress

T = TypeVar("T")


@dataclass(eq=False)
class _Entry:
    filename: str
    bar: ChunkProgress | None = None
    task: asyncio.Task[Any] | None = field(default=None, repr=False)

    def view(self) -> dict[str, Any]:
        bar = self.bar
        eta = bar.eta_s() if bar is not None else None
        return {
            "file": self.filename,
            "stage": bar.stage if bar is not None else "queued",
            "chunks_done": bar.done if bar is not None else 0,
            "chunks_total": bar.total if bar is not None else 0,
            "eta_s": round(eta, 1) if eta is not None else None,
        }


class Ingestions:
    """The service's ingestion queue (one per app, used on its event loop)."""

    def __init__(self, concurrency: int) -> None:
        self._concurrency = max(1, concurrency)
        self._slots: asyncio.Semaphore | None = None
        self._users: dict[str, asyncio.Lock] = {}
        self._entries: dict[str, list[_Entry]] = {}
        self._closed = False

    async def run(self, user: str, filename: str, work: Callable[[], Awaitable[T]]) -> T:
        """Run ``work`` (one file's ingestion) in ``user``'s turn; cancelled on close."""
        if self._closed:
            raise asyncio.CancelledError("the service is stopping")
        if self._slots is None:
            self._slots = asyncio.Semaphore(self._concurrency)
        entry = _Entry(filename, task=asyncio.current_task())
        self._entries.setdefault(user, []).append(entry)
        lock = self._users.setdefault(user, asyncio.Lock())
        try:
            async with lock, self._slots:
                with chunk_progress(filename, show=False) as bar:
                    entry.bar = bar
                    bar.stage = "started"
                    return await work()
        finally:
            entries = self._entries[user]
            entries.remove(entry)
            if not entries:
                del self._entries[user]
                if not lock.locked():
                    self._users.pop(user, None)

    def of(self, user: str) -> list[dict[str, Any]]:
        """``user``'s ingestions in progress or queued, oldest first."""
        return [entry.view() for entry in self._entries.get(user, [])]

    def cancel_all(self) -> int:
        """Cancel every ingestion (the service is stopping); the number cancelled."""
        self._closed = True
        tasks = [e.task for es in self._entries.values() for e in es if e.task is not None]
        for task in tasks:
            task.cancel()
        return len(tasks)
