"""``kb_list_directory``: the folders and files of one KB folder (or its whole tree)."""

from __future__ import annotations

import asyncio
import stat
from pathlib import Path
from typing import Any

from pydantic import BaseModel, Field

from finagent.tools.base import Tool, ToolContext, ToolError, to_json
from finagent.tools.kb_fs import LIST_OUTPUT_BUDGET, OUTPUT_MARGIN, OutputBudget, scan_entries
from finagent.tools.kb_paths import (
    real_root,
    resolve_kb_path,
)

DEFAULT_MAX_LIST_ENTRIES = 300


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
        budget = OutputBudget(LIST_OUTPUT_BUDGET)
        prefix = kb_path.rel + "/" if kb_path.rel else ""
        for rel, name, is_dir, size in scan_entries(root_real, kb_path.real, recursive=recursive):
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
