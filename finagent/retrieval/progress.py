"""Ingestion progress in chunks (what costs time), with throughput and an ETA.

An ingestion command opens :func:`chunk_progress`; the retriever and the law ingestor
report every embedded batch to the open bar. The bar is drawn on stderr when it is a
terminal (tqdm: ``chunk/s`` and the remaining time); otherwise, given a ``plain`` stream,
a line at each quarter of the work says how many chunks are done and how long is left.
"""

from __future__ import annotations

import os
import shutil
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TextIO

from tqdm import tqdm


def bar_size(stream: TextIO) -> tuple[int, int] | None:
    """(columns, rows) for the bar on ``stream``: None (tqdm asks the terminal) unless the
    terminal reports a size of 0, as a fresh pseudo-terminal and some CI runners' and
    containers' terminals do; tqdm would then draw nothing at all (it hides a bar below
    the last of 0 rows), so ``COLUMNS``/``LINES`` or 80 x 24 are used instead."""
    try:
        size = os.get_terminal_size(stream.fileno())
    except (AttributeError, OSError, ValueError):
        return None
    if size.columns > 0 and size.lines > 0:
        return None
    # shutil reads COLUMNS/LINES, then stdout, and falls back when they report 0 too
    fallback = shutil.get_terminal_size((80, 24))
    return fallback.columns - 1, fallback.lines  # one short, as tqdm does: no wrapped line


_current: ContextVar[ChunkProgress | None] = ContextVar("finagent_chunk_progress", default=None)


class ChunkProgress:
    """A tqdm bar counting chunks; the total grows as files are chunked."""

    def __init__(
        self,
        desc: str,
        show: bool | None = None,
        plain: TextIO | None = None,
        unit: str = "chunk",
    ) -> None:
        visible = sys.stderr.isatty() if show is None else show
        size = bar_size(sys.stderr) if visible else None
        self.bar = tqdm(
            total=0,
            desc=desc,
            unit=unit,
            disable=not visible,
            smoothing=0.05,
            leave=True,
            ncols=size[0] if size else None,
            nrows=size[1] if size else None,
        )
        self.plain = None if visible else plain
        self._quarters = 0  # quarters of the work already reported on ``plain``
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
        if self.plain is not None and self.total:
            self._plain_line()

    def _plain_line(self) -> None:
        """A line when the work crosses a quarter it has not reported; none when all that is
        known is done (the total may grow with the next file, and the caller reports the end)."""
        quarters = 4 * self.done // self.total
        if self.done >= self.total or quarters <= self._quarters:
            return
        self._quarters = quarters
        eta = self.eta_s()
        left = "" if eta is None else f", осталось ≈ {eta:.0f} с"
        assert self.plain is not None
        self.plain.write(f"  … {self.done}/{self.total}{left}\n")
        self.plain.flush()

    def eta_s(self) -> float | None:
        """Seconds left at the rate so far (None before the first batch is done)."""
        if self._started is None or self.done == 0:
            return None
        rate = self.done / max(time.monotonic() - self._started, 1e-9)
        return (self.total - self.done) / rate

    def close(self) -> None:
        self.bar.close()


@contextmanager
def chunk_progress(
    desc: str, show: bool | None = None, plain: TextIO | None = None, unit: str = "chunk"
) -> Iterator[ChunkProgress]:
    """Open a bar for the work in this context (nested calls reuse the outer bar)."""
    outer = _current.get()
    if outer is not None:
        yield outer
        return
    progress = ChunkProgress(desc, show, plain, unit)
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
