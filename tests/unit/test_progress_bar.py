"""The chunk bar on a real pseudo-terminal: drawn even when the terminal reports a width of
0 columns (a fresh pty does, as some CI runners' and containers' terminals do), following
the terminal otherwise."""

from __future__ import annotations

import fcntl
import os
import pty
import select
import struct
import sys
import termios
from collections.abc import Iterator
from typing import TextIO

import pytest

from finagent.retrieval.progress import ChunkProgress, bar_size


@pytest.fixture
def terminal() -> Iterator[tuple[int, TextIO]]:
    """(master fd, the slave side as a text stream): a pty of 0 x 0 until resized."""
    master, slave = pty.openpty()
    stream = os.fdopen(slave, "w", encoding="utf-8", buffering=1)
    try:
        yield master, stream
    finally:
        stream.close()
        os.close(master)


def _resize(stream: TextIO, columns: int) -> None:
    fcntl.ioctl(stream.fileno(), termios.TIOCSWINSZ, struct.pack("HHHH", 24, columns, 0, 0))


def _read(master: int) -> str:
    chunks = []
    while True:
        ready, _, _ = select.select([master], [], [], 0)
        if not ready:
            return b"".join(chunks).decode("utf-8", errors="replace")
        chunks.append(os.read(master, 65536))


def test_zero_size_terminal_gets_its_size_from_the_environment(
    terminal: tuple[int, TextIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, stream = terminal
    assert os.get_terminal_size(stream.fileno()).columns == 0
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("LINES", "30")
    assert bar_size(stream) == (99, 30)
    _resize(stream, 132)
    assert bar_size(stream) is None  # a real size: tqdm asks the terminal


def test_not_a_terminal_leaves_the_size_to_tqdm() -> None:
    with open(os.devnull, "w", encoding="utf-8") as devnull:
        assert bar_size(devnull) is None


def test_bar_is_drawn_on_a_zero_width_terminal(
    terminal: tuple[int, TextIO], monkeypatch: pytest.MonkeyPatch
) -> None:
    master, stream = terminal
    monkeypatch.setenv("COLUMNS", "90")
    monkeypatch.setattr(sys, "stderr", stream)
    progress = ChunkProgress("", show=True)
    progress.expect(40)
    progress.advance(20)
    progress.close()
    drawn = _read(master).replace("\r", "\n")
    lines = [line for line in drawn.splitlines() if "20/40" in line]
    assert lines, drawn
    assert "|" in lines[-1] and len(lines[-1]) == 89  # a bar, one column short of COLUMNS
