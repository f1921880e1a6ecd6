"""``kb_search_files``: KB files whose path or name matches a glob."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from finagent.tools.base import Tool, ToolContext, to_json
from finagent.tools.kb_fs import (
    OUTPUT_MARGIN,
    SEARCH_OUTPUT_BUDGET,
    OutputBudget,
    glob_matcher,
    glob_matches,
    scan_entries,
)
from finagent.tools.kb_paths import (
    real_root,
    validate_glob,
)

DEFAULT_MAX_SEARCH_MATCHES = 200


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
        matcher = glob_matcher(clean, case_sensitive=case_sensitive)
        root_real = real_root(self._root)
        files: list[dict[str, Any]] = []
        directories: list[dict[str, Any]] = []
        file_count = directory_count = 0
        budget = OutputBudget(SEARCH_OUTPUT_BUDGET)
        for rel, name, is_dir, size in scan_entries(root_real, root_real, recursive=True):
            if not glob_matches(matcher, rel, name):
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
