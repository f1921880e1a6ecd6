"""Knowledge-base file tools: read, list, find and grep Markdown articles under the KB root.

Every path goes through :mod:`finagent.tools.kb_paths`; outputs show paths relative to
the KB root (``kb://<relative path>``), never server paths. Blocking file I/O runs in a
worker thread (``asyncio.to_thread``). Outputs are compact JSON kept under a character
budget so the JSON stays valid (the base class never has to cut it). One module per
tool: :mod:`~finagent.tools.kb_read`, :mod:`~finagent.tools.kb_list`,
:mod:`~finagent.tools.kb_find`, :mod:`~finagent.tools.kb_grep`; shared file access and
output budgets in :mod:`~finagent.tools.kb_fs`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from finagent.tools.base import Tool
from finagent.tools.kb_find import KbSearchFilesTool
from finagent.tools.kb_grep import KbSearchContentTool
from finagent.tools.kb_list import KbListDirectoryTool
from finagent.tools.kb_read import DEFAULT_MAX_FILE_CHARS, KbReadFileTool


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
