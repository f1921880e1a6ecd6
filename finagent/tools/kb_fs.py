"""File access and output budgets shared by the KB file tools: safe directory scans, globs,
regular-file checks, UTF-8 prefixes, and a JSON size budget."""

from __future__ import annotations

import codecs
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from finagent.tools.base import ToolError, to_json
from finagent.tools.kb_paths import (
    KbPath,
    open_inside,
    walk,
)

if TYPE_CHECKING:
    from wcmatch import glob as wcglob

MAX_LINE_CHARS = 300
MAX_SCAN_ENTRIES = 50_000
LIST_OUTPUT_BUDGET = 30_000
SEARCH_OUTPUT_BUDGET = 30_000
OUTPUT_MARGIN = 4_000


def json_len(value: Any) -> int:
    return len(to_json(value))


def cut_text(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


class OutputBudget:
    """Stops adding items once the JSON size of what was added reaches ``limit``."""

    def __init__(self, limit: int) -> None:
        self.left = limit
        self.exhausted = False

    def take(self, item: Any) -> bool:
        size = json_len(item) + 1
        if self.exhausted or size > self.left:
            self.exhausted = True
            return False
        self.left -= size
        return True


def scan_entries(
    root_real: Path, start: Path, *, recursive: bool
) -> Iterator[tuple[str, str, bool, int]]:
    """``(relative path, name, is_dir, size)`` for safe entries, capped at MAX_SCAN_ENTRIES."""
    for seen, (rel, entry, is_dir) in enumerate(walk(root_real, start, recursive=recursive)):
        if seen >= MAX_SCAN_ENTRIES:
            return
        size = 0
        if not is_dir:
            try:
                size = entry.stat().st_size
            except OSError:
                continue
        yield rel, entry.name, is_dir, size


def glob_matcher(pattern: str, *, case_sensitive: bool) -> wcglob.WcMatcher:
    """A matcher for a validated glob (``*``, ``?``, ``[...]``, ``[!...]``, ``**``)."""
    from wcmatch import glob as wcglob  # loaded by the first glob, not with the tools

    flags = wcglob.GLOBSTAR | wcglob.DOTGLOB | wcglob.FORCEUNIX
    flags |= wcglob.CASE if case_sensitive else wcglob.IGNORECASE
    return wcglob.compile(pattern, flags=flags)


def glob_matches(matcher: wcglob.WcMatcher, rel: str, name: str) -> bool:
    return bool(matcher.match(rel) or matcher.match(name))


def regular_file(kb_path: KbPath) -> os.stat_result:
    """Stat ``kb_path`` and insist on a regular file, with errors the LLM can act on."""
    try:
        st = kb_path.real.stat()
    except FileNotFoundError as exc:
        raise ToolError("file not found; use kb_search_files or kb_list_directory") from exc
    except OSError as exc:
        raise ToolError("the file cannot be accessed") from exc
    if stat.S_ISDIR(st.st_mode):
        raise ToolError("this is a folder; use kb_list_directory")
    if not stat.S_ISREG(st.st_mode):
        raise ToolError("not a regular file")
    return st


def read_text_prefix(root_real: Path, path: Path, max_chars: int) -> tuple[str, bool]:
    """The first ``max_chars`` characters of a UTF-8 file and whether there was more.

    Binary (NUL bytes) or undecodable files raise ToolError.
    """
    decoder = codecs.getincrementaldecoder("utf-8")(errors="strict")
    pieces: list[str] = []
    got = 0
    try:
        with open_inside(root_real, path) as fh:
            while got <= max_chars:
                chunk = fh.read(64 * 1024)
                final = not chunk
                if b"\x00" in chunk:
                    raise ToolError("binary file (not text); only UTF-8 text files can be read")
                text = decoder.decode(chunk, final=final)
                if text.startswith("\ufeff") and not pieces:
                    text = text[1:]
                pieces.append(text)
                got += len(text)
                if final:
                    break
    except UnicodeDecodeError as exc:
        raise ToolError("not a UTF-8 text file; only UTF-8 text files can be read") from exc
    except OSError as exc:
        raise ToolError("the file cannot be read") from exc
    content = "".join(pieces)
    if len(content) > max_chars:
        return content[:max_chars], True
    return content, False
