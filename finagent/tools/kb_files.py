"""Knowledge-base file tools: read, list, find and grep Markdown articles under the KB root.

Every path goes through :mod:`finagent.tools.kb_paths`; outputs show paths relative to
the KB root (``kb://<relative path>``), never server paths. Blocking file I/O runs in a
worker thread (``asyncio.to_thread``). Outputs are compact JSON kept under a character
budget so the JSON stays valid (the base class never has to cut it).
"""

from __future__ import annotations

import asyncio
import codecs
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field
from wcmatch import glob as wcglob

from finagent.tools.base import Tool, ToolContext, ToolError, to_json
from finagent.tools.kb_paths import (
    KbPath,
    echo,
    kb_uri,
    open_inside,
    real_root,
    resolve_kb_path,
    validate_glob,
    walk,
)

CONTENT_TRUNCATION_MARKER = "\n[...truncated]"
DEFAULT_MAX_FILE_CHARS = 20_000
DEFAULT_MAX_TOTAL_CHARS = 60_000
DEFAULT_MAX_LIST_ENTRIES = 300
DEFAULT_MAX_SEARCH_MATCHES = 200
DEFAULT_MAX_CONTENT_FILES = 30
MATCHES_PER_FILE = 5
CONTEXT_LINES = 2
MAX_LINE_CHARS = 300
MAX_SEARCH_FILE_BYTES = 5 * 1024 * 1024
MAX_SCAN_ENTRIES = 50_000
LIST_OUTPUT_BUDGET = 30_000
SEARCH_OUTPUT_BUDGET = 30_000
OUTPUT_MARGIN = 4_000


# --------------------------------------------------------------------------- helpers


def _json_len(value: Any) -> int:
    return len(to_json(value))


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(0, limit - 1)] + "…"


class _Budget:
    """Stops adding items once the JSON size of what was added reaches ``limit``."""

    def __init__(self, limit: int) -> None:
        self.left = limit
        self.exhausted = False

    def take(self, item: Any) -> bool:
        size = _json_len(item) + 1
        if self.exhausted or size > self.left:
            self.exhausted = True
            return False
        self.left -= size
        return True


def _scan(root_real: Path, start: Path, *, recursive: bool) -> Iterator[tuple[str, str, bool, int]]:
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


_GLOB_FLAGS = wcglob.GLOBSTAR | wcglob.DOTGLOB | wcglob.FORCEUNIX


def _glob_matcher(pattern: str, *, case_sensitive: bool) -> wcglob.WcMatcher:
    """A matcher for a validated glob (``*``, ``?``, ``[...]``, ``[!...]``, ``**``)."""
    flags = _GLOB_FLAGS | (wcglob.CASE if case_sensitive else wcglob.IGNORECASE)
    return wcglob.compile(pattern, flags=flags)


def _matches(matcher: wcglob.WcMatcher, rel: str, name: str) -> bool:
    return bool(matcher.match(rel) or matcher.match(name))


def _regular_file(kb_path: KbPath) -> os.stat_result:
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


def _read_text_prefix(root_real: Path, path: Path, max_chars: int) -> tuple[str, bool]:
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


# --------------------------------------------------------------------------- kb_read_file


class KbReadFileInput(BaseModel):
    paths: list[str] = Field(
        min_length=1,
        max_length=20,
        description=(
            "1-20 file paths relative to the knowledge-base root, exactly as returned by "
            "kb_list_directory or kb_search_files, e.g. ['nalogi/ndfl.md']. "
            "No absolute paths, '..' or '~'."
        ),
    )


class KbReadFileTool(Tool[KbReadFileInput]):
    """Read the full text of one or more knowledge-base articles (Markdown files).

    Use after kb_list_directory, kb_search_files or kb_search_content found the paths,
    when you need the exact wording of an article. Pass up to 20 paths at once; each file
    succeeds or fails on its own (see "errors"). Long files are cut and end with
    "[...truncated]".
    """

    name = "kb_read_file"
    input_model = KbReadFileInput

    def __init__(
        self,
        kb_root: Path,
        *,
        max_file_chars: int = DEFAULT_MAX_FILE_CHARS,
        max_total_chars: int = DEFAULT_MAX_TOTAL_CHARS,
    ) -> None:
        self._root = kb_root
        self._max_file_chars = max_file_chars
        self._max_total_chars = max(max_total_chars, max_file_chars)
        self.output_limit = self._max_total_chars + OUTPUT_MARGIN * 4  # type: ignore[misc]

    async def run(self, args: KbReadFileInput, ctx: ToolContext) -> str:
        return await asyncio.to_thread(self._read_all, args.paths)

    def _read_all(self, paths: list[str]) -> str:
        root_real = real_root(self._root)
        results: list[dict[str, Any]] = []
        errors: list[dict[str, str]] = []
        left = self._max_total_chars
        for raw in dict.fromkeys(paths):
            try:
                kb_path = resolve_kb_path(self._root, raw)
                st = _regular_file(kb_path)
                content, cut = _read_text_prefix(root_real, kb_path.real, self._max_file_chars)
            except ToolError as exc:
                errors.append({"path": echo(raw), "error": str(exc)})
                continue
            fitted, cut = self._fit(content, cut, left)
            if fitted is None:
                errors.append(
                    {
                        "path": kb_path.rel,
                        "error": "output budget of this call is used up; "
                        "read this file in a separate call",
                    }
                )
                continue
            left -= _json_len(fitted)
            results.append(
                {
                    "path": kb_path.rel,
                    "full_path": kb_path.uri,
                    "content": fitted,
                    "size": st.st_size,
                    "truncated": cut,
                }
            )
        return to_json(
            {
                "success": bool(results),
                "files_read": len(results),
                "results": results,
                "errors": errors or None,
            }
        )

    @staticmethod
    def _fit(content: str, cut: bool, left: int) -> tuple[str | None, bool]:
        """Shrink ``content`` so its JSON form fits in ``left`` characters (None if hopeless)."""
        marker = CONTENT_TRUNCATION_MARKER
        if _json_len(content + (marker if cut else "")) <= left:
            return content + (marker if cut else ""), cut
        if left < 1000:
            return None, True
        size = len(content)
        while size > 0:
            size = int(size * 0.8)
            candidate = content[:size] + marker
            if _json_len(candidate) <= left:
                return candidate, True
        return None, True


# --------------------------------------------------------------------------- kb_list_directory


class KbListDirectoryInput(BaseModel):
    path: str = Field(
        default="",
        max_length=1000,
        description="Folder relative to the knowledge-base root; empty for the root itself.",
    )
    recursive: bool = Field(
        default=False, description="True to list every sub-folder too, not only direct children."
    )


class KbListDirectoryTool(Tool[KbListDirectoryInput]):
    """List the folders and files of the knowledge base (Markdown articles), with sizes.

    Use to see what the knowledge base contains or to browse a topic folder before
    reading files with kb_read_file. Start with the root (empty path); set recursive=true
    for the whole tree. Large listings are capped ("truncated": true).
    """

    name = "kb_list_directory"
    input_model = KbListDirectoryInput
    output_limit = LIST_OUTPUT_BUDGET + OUTPUT_MARGIN

    def __init__(self, kb_root: Path, *, max_entries: int = DEFAULT_MAX_LIST_ENTRIES) -> None:
        self._root = kb_root
        self._max_entries = max_entries

    async def run(self, args: KbListDirectoryInput, ctx: ToolContext) -> str:
        return await asyncio.to_thread(self._list, args.path, args.recursive)

    def _list(self, raw: str, recursive: bool) -> str:
        root_real = real_root(self._root)
        kb_path = resolve_kb_path(self._root, raw)
        try:
            mode = kb_path.real.stat().st_mode
        except OSError as exc:
            raise ToolError(
                "folder not found; list the root (empty path) to see what exists"
            ) from exc
        if stat.S_ISREG(mode):
            raise ToolError("this is a file, not a folder; use kb_read_file")
        if not stat.S_ISDIR(mode):
            raise ToolError("not a folder")
        directories: list[dict[str, Any]] = []
        files: list[dict[str, Any]] = []
        total_dirs = total_files = 0
        budget = _Budget(LIST_OUTPUT_BUDGET)
        prefix = kb_path.rel + "/" if kb_path.rel else ""
        for rel, name, is_dir, size in _scan(root_real, kb_path.real, recursive=recursive):
            shown = prefix + Path(rel).relative_to(kb_path.real.relative_to(root_real)).as_posix()
            item: dict[str, Any] = {"path": shown, "name": name}
            if is_dir:
                total_dirs += 1
                target = directories
            else:
                total_files += 1
                item["size"] = size
                target = files
            if len(directories) + len(files) < self._max_entries and budget.take(item):
                target.append(item)
        shown_count = len(directories) + len(files)
        out: dict[str, Any] = {
            "success": True,
            "path": kb_path.rel,
            "recursive": recursive,
            "files": files,
            "directories": directories,
            "file_count": total_files,
            "directory_count": total_dirs,
        }
        if shown_count < total_dirs + total_files:
            out["truncated"] = True
            out["note"] = (
                f"showing {shown_count} of {total_dirs + total_files} entries; "
                "list a sub-folder or use kb_search_files to narrow down"
            )
        return to_json(out)


# --------------------------------------------------------------------------- kb_search_files


class KbSearchFilesInput(BaseModel):
    pattern: str = Field(
        min_length=1,
        max_length=500,
        description=(
            "Glob pattern matched against the relative path OR the file name: '*' (within "
            "a folder), '?', '[abc]', '**' (any folders). Examples: '*.md', '*ндс*', "
            "'nalogi/**/*.md'."
        ),
    )
    case_sensitive: bool = Field(default=False, description="True for case-sensitive matching.")


class KbSearchFilesTool(Tool[KbSearchFilesInput]):
    """Find knowledge-base files by name or path with a glob pattern.

    Use when you know (part of) an article's file name or folder, e.g. '*ндфл*' or
    'vychety/**'. Returns paths for kb_read_file. To search inside the text, use
    kb_search_content instead.
    """

    name = "kb_search_files"
    input_model = KbSearchFilesInput
    output_limit = SEARCH_OUTPUT_BUDGET + OUTPUT_MARGIN

    def __init__(self, kb_root: Path, *, max_matches: int = DEFAULT_MAX_SEARCH_MATCHES) -> None:
        self._root = kb_root
        self._max_matches = max_matches

    async def run(self, args: KbSearchFilesInput, ctx: ToolContext) -> str:
        return await asyncio.to_thread(self._search, args.pattern, args.case_sensitive)

    def _search(self, pattern: str, case_sensitive: bool) -> str:
        clean = validate_glob(pattern)
        matcher = _glob_matcher(clean, case_sensitive=case_sensitive)
        root_real = real_root(self._root)
        files: list[dict[str, Any]] = []
        directories: list[dict[str, Any]] = []
        file_count = directory_count = 0
        budget = _Budget(SEARCH_OUTPUT_BUDGET)
        for rel, name, is_dir, size in _scan(root_real, root_real, recursive=True):
            if not _matches(matcher, rel, name):
                continue
            item: dict[str, Any] = {"path": rel, "name": name}
            if is_dir:
                directory_count += 1
                target = directories
            else:
                file_count += 1
                item["size"] = size
                target = files
            if len(files) + len(directories) < self._max_matches and budget.take(item):
                target.append(item)
        shown, total = len(files) + len(directories), file_count + directory_count
        out: dict[str, Any] = {
            "success": True,
            "pattern": clean,
            "case_sensitive": case_sensitive,
            "files": files,
            "directories": directories,
            "file_count": file_count,
            "directory_count": directory_count,
        }
        if shown < total:
            out["truncated"] = True
            out["note"] = f"showing {shown} of {total} entries; use a narrower pattern"
        return to_json(out)


# --------------------------------------------------------------------------- kb_search_content


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
        files_matcher = _glob_matcher(clean_pattern, case_sensitive=case_sensitive)
        root_real = real_root(self._root)
        results: list[dict[str, Any]] = []
        files_found = 0
        budget = _Budget(SEARCH_OUTPUT_BUDGET)
        for rel, name, is_dir, size in _scan(root_real, root_real, recursive=True):
            if is_dir or size > MAX_SEARCH_FILE_BYTES or not _matches(files_matcher, rel, name):
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
            text if first + k == i else _cut(x, MAX_LINE_CHARS) for k, x in enumerate(around)
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


# --------------------------------------------------------------------------- factory


def build_kb_file_tools(
    kb_root: Path, *, max_file_chars: int = DEFAULT_MAX_FILE_CHARS
) -> list[Tool[Any]]:
    """The four KB file tools bound to ``kb_root`` (``Settings.kb_root``)."""
    return [
        KbReadFileTool(kb_root, max_file_chars=max_file_chars),
        KbListDirectoryTool(kb_root),
        KbSearchFilesTool(kb_root),
        KbSearchContentTool(kb_root),
    ]


__all__ = [
    "KbListDirectoryTool",
    "KbReadFileTool",
    "KbSearchContentTool",
    "KbSearchFilesTool",
    "LineMatcher",
    "build_kb_file_tools",
    "kb_uri",
]
