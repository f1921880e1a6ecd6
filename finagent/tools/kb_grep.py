"""``kb_search_content``: lines of KB files that contain a phrase, with context lines."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from finagent.tools.base import Tool, ToolContext, ToolError, to_json
from finagent.tools.kb_fs import (
    MAX_LINE_CHARS,
    OUTPUT_MARGIN,
    SEARCH_OUTPUT_BUDGET,
    OutputBudget,
    cut_text,
    glob_matcher,
    glob_matches,
    scan_entries,
)
from finagent.tools.kb_paths import (
    open_inside,
    real_root,
    validate_glob,
)

DEFAULT_MAX_CONTENT_FILES = 30
MATCHES_PER_FILE = 5
CONTEXT_LINES = 2
MAX_SEARCH_FILE_BYTES = 5 * 1024 * 1024


class KbSearchContentInput(BaseModel):
    query: str = Field(
        min_length=1,
        max_length=500,
        description=(
            "Words or a phrase to find inside files (literal text, not a regex), e.g. "
            "'статья 219' or 'ставка НДС'. A line matches when it holds the exact phrase "
            "or all the words in any order. One line; short distinctive words work best."
        ),
    )
    case_sensitive: bool = Field(default=False, description="True for case-sensitive matching.")
    file_pattern: str = Field(
        default="*.md",
        max_length=500,
        description="Glob limiting which files are searched (path or name), e.g. 'nalogi/**'.",
    )


class KbSearchContentTool(Tool[KbSearchContentInput]):
    """Search the text of knowledge-base articles for words or a phrase (like grep).

    A line matches when it contains the exact phrase or all the query words (case and
    ё/е ignored unless case_sensitive). Use to find which articles mention a term, article
    number or phrase; returns line numbers with two lines of context around each matching
    line ("context") and at most 5 matches per file. Then read the
    relevant files with kb_read_file. For finding files by name use kb_search_files.
    """

    name = "kb_search_content"
    input_model = KbSearchContentInput
    output_limit = SEARCH_OUTPUT_BUDGET + OUTPUT_MARGIN

    def __init__(self, kb_root: Path, *, max_files: int = DEFAULT_MAX_CONTENT_FILES) -> None:
        self._root = kb_root
        self._max_files = max_files

    async def run(self, args: KbSearchContentInput, ctx: ToolContext) -> str:
        return await asyncio.to_thread(
            self._search, args.query, args.case_sensitive, args.file_pattern
        )

    def _search(self, query: str, case_sensitive: bool, file_pattern: str) -> str:
        if "\n" in query or "\r" in query:
            raise ToolError("the query must be a single line of text")
        matcher = LineMatcher(query, case_sensitive=case_sensitive)
        if not matcher.words:
            raise ToolError("the query is empty; give a word or phrase to find")
        clean_pattern = validate_glob(file_pattern)
        files_matcher = glob_matcher(clean_pattern, case_sensitive=case_sensitive)
        root_real = real_root(self._root)
        results: list[dict[str, Any]] = []
        files_found = 0
        budget = OutputBudget(SEARCH_OUTPUT_BUDGET)
        for rel, name, is_dir, size in scan_entries(root_real, root_real, recursive=True):
            if is_dir or size > MAX_SEARCH_FILE_BYTES or not glob_matches(files_matcher, rel, name):
                continue
            lines = self._lines(root_real / rel, root_real)
            if lines is None:
                continue
            hits = [i for i, line in enumerate(lines) if matcher.match(line)]
            if not hits:
                continue
            files_found += 1
            item = {
                "path": rel,
                "name": name,
                "occurrences": len(hits),
                "matches": [self._match(lines, i, matcher) for i in hits[:MATCHES_PER_FILE]],
            }
            if len(results) < self._max_files and budget.take(item):
                results.append(item)
        out: dict[str, Any] = {
            "success": True,
            "query": query,
            "case_sensitive": case_sensitive,
            "file_pattern": clean_pattern,
            "matches": results,
            "files_found": files_found,
        }
        if len(results) < files_found:
            out["truncated"] = True
            out["note"] = (
                f"showing {len(results)} of {files_found} files; use a more specific query "
                "or file_pattern"
            )
        return to_json(out)

    @staticmethod
    def _lines(path: Path, root_real: Path) -> list[str] | None:
        """Lines of a UTF-8 text file inside the root, or None (binary, unreadable, escaped)."""
        try:
            real = Path(os.path.realpath(path))
            if not real.is_relative_to(root_real):
                return None
            with open_inside(root_real, real) as fh:
                data = fh.read(MAX_SEARCH_FILE_BYTES + 1)
            if b"\x00" in data:
                return None
            return data.decode("utf-8-sig").splitlines()
        except (OSError, UnicodeDecodeError, ValueError, ToolError):
            return None

    @staticmethod
    def _match(lines: list[str], i: int, matcher: LineMatcher) -> dict[str, Any]:
        line = lines[i]
        text = line
        if len(line) > MAX_LINE_CHARS:
            pos = max(0, min(matcher.position(line), len(line) - 1))
            start = max(0, min(pos - MAX_LINE_CHARS // 3, len(line) - MAX_LINE_CHARS))
            text = ("…" if start else "") + line[start : start + MAX_LINE_CHARS] + "…"
        around = lines[max(0, i - CONTEXT_LINES) : i + 1 + CONTEXT_LINES]
        first = max(0, i - CONTEXT_LINES)
        context = "\n".join(
            text if first + k == i else cut_text(x, MAX_LINE_CHARS) for k, x in enumerate(around)
        )
        return {"line_number": i + 1, "line": text, "context": context}


class LineMatcher:
    """The line-matching rule of ``kb_search_content``.

    The query is split into words on whitespace. A line matches when it contains the
    whole query as a phrase (runs of whitespace count as one space) or, failing that,
    every word of the query anywhere on the line, in any order. Words are literal
    substrings, never regexes. Unless ``case_sensitive``, both sides are compared after
    ``str.casefold`` with ``ё`` folded to ``е``.
    """

    def __init__(self, query: str, *, case_sensitive: bool) -> None:
        self._case_sensitive = case_sensitive
        self.words = [self._norm(w) for w in query.split()]
        self.phrase = " ".join(self.words)

    def _norm(self, text: str) -> str:
        if self._case_sensitive:
            return text
        return text.casefold().replace("ё", "е")

    def match(self, line: str) -> bool:
        norm = " ".join(self._norm(line).split()) if len(self.words) > 1 else self._norm(line)
        if self.phrase in norm:
            return True
        return len(self.words) > 1 and all(w in norm for w in self.words)

    def position(self, line: str) -> int:
        """Roughly where the match starts in ``line`` (for cutting long lines)."""
        norm = self._norm(line)
        for needle in (self.phrase, *self.words):
            pos = norm.find(needle)
            if pos >= 0:
                return pos
        return 0
