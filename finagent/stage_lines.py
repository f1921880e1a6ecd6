"""Plain progress lines for a long command: what it does now, then what it did and how long.

Light to import (standard library only) so a command can print its first line before it
loads anything heavy. The lines go to one stream (stderr by default); the chunk counts and
the ETA within a step come from :mod:`finagent.retrieval.progress`.
"""

from __future__ import annotations

import sys
import time
from typing import TextIO


def seconds_ru(seconds: float) -> str:
    """``1,4 с`` (a decimal comma, as Russian text writes it)."""
    return f"{seconds:.1f} с".replace(".", ",")


class StageLines:
    """Numbered steps: ``begin`` prints what starts, ``end`` what it produced and its time."""

    def __init__(self, stream: TextIO | None = None, enabled: bool = True) -> None:
        self.stream = stream if stream is not None else sys.stderr
        self.enabled = enabled
        self.started = time.monotonic()
        self._step_started = self.started
        self._step = ""
        self.open = False  # a step has begun and not ended

    def say(self, text: str) -> None:
        """One line, written at once (no buffering between steps)."""
        if self.enabled:
            self.stream.write(text + "\n")
            self.stream.flush()

    def begin(self, step: str) -> None:
        self._step = step
        self._step_started = time.monotonic()
        self.open = True
        self.say(f"{step}…")

    def end(self, result: str = "готово") -> None:
        took = seconds_ru(time.monotonic() - self._step_started)
        self.open = False
        self.say(f"  {self._step}: {result} ({took})")

    def total(self) -> str:
        """Time since the first line."""
        return seconds_ru(time.monotonic() - self.started)
