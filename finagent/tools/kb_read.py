"""``kb_read_file``: read one or several KB articles, within per-file and total budgets."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from finagent.tools.base import Tool, ToolContext, ToolError, to_json
from finagent.tools.kb_fs import OUTPUT_MARGIN, json_len, read_text_prefix, regular_file
from finagent.tools.kb_paths import (
    echo,
    real_root,
    resolve_kb_path,
)

CONTENT_TRUNCATION_MARKER = "\n[...truncated]"
DEFAULT_MAX_FILE_CHARS = 20_000
DEFAULT_MAX_TOTAL_CHARS = 60_000


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
                st = regular_file(kb_path)
                content, cut = read_text_prefix(root_real, kb_path.real, self._max_file_chars)
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
            left -= json_len(fitted)
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
        if json_len(content + (marker if cut else "")) <= left:
            return content + (marker if cut else ""), cut
        if left < 1000:
            return None, True
        size = len(content)
        while size > 0:
            size = int(size * 0.8)
            candidate = content[:size] + marker
            if json_len(candidate) <= left:
                return candidate, True
        return None, True
