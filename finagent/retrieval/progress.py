"""Ingestion progress in chunks (what costs time), with throughput and an ETA.

An ingestion command opens :func:`chunk_progress`; the retriever and the law ingestor
report every embedded batch to the open bar. The bar is drawn on stderr when it is a
terminal (tqdm: ``chunk/s`` and the remaining time).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from tqdm import tqdm

_current: ContextVar[ChunkProgress | None] = ContextVar("finagent_chunk_progress", default=None)


class ChunkProgress:
    """A tqdm bar counting chunks; the total grows as files are chunked."""

    def __init__(self, desc: str, show: bool | None = None) -> None:
        visible = sys.stderr.isatty() if show is None else show
        self.bar = tqdm(
            total=0, desc=desc, unit="chunk", disable=not visible, smoothing=0.05, leave=True
        )
        self.done = 0
        self.total = 0
        self.stage = "queued"
        self._started: float | None = None  # when the first chunk was expected

    def expect(self, chunks: int) -> None:
        """``chunks`` more will be embedded (extends the total and the ETA)."""
        self.total += chunks
        if self._started is None:
            self._started = time.monotonic()
        self.bar.total = self.total
        self.bar.refresh()

    def advance(self, chunks: int) -> None:
        self.done += chunks
        self.bar.update(chunks)

    def eta_s(self) -> float | None:
        """Seconds left at the rate so far (None before the first batch is done)."""
        if self._started is None or self.done == 0:
            return None
        rate = self.done / max(time.monotonic() - self._started, 1e-9)
        return (self.total - self.done) / rate

    def close(self) -> None:
        self.bar.close()


@contextmanager
def chunk_progress(desc: str, show: bool | None = None) -> Iterator[ChunkProgress]:
    """Open a bar for the work in this context (nested calls reuse the outer bar)."""
    outer = _current.get()
    if outer is not None:
        yield outer
        return
    progress = ChunkProgress(desc, show)
    token = _current.set(progress)
    try:
        yield progress
    finally:
        _current.reset(token)
        progress.close()


def current() -> ChunkProgress | None:
    return _current.get()


def set_stage(stage: str) -> None:
    """Name what the open bar's work is doing now (parsing, chunking, embedding)."""
    bar = _current.get()
    if bar is not None:
        bar.stage = stage
