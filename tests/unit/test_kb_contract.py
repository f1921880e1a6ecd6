"""The wire contract of the four KB tools (../shared/reference/kb-tools-contract.md).

Every key of the contract, its type and its nesting are checked for each tool, on
success and on the error cases. Extra keys are allowed; none may be missing.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from finagent.tools.base import Tool, ToolContext
from finagent.tools.kb_find import KbSearchFilesTool
from finagent.tools.kb_grep import KbSearchContentTool
from finagent.tools.kb_list import KbListDirectoryTool
from finagent.tools.kb_read import KbReadFileTool

CTX = ToolContext(user_id="user-1")

# A shape is a dict of key -> type, or key -> [shape] for a list of objects.
Shape = dict[str, Any]

FILE_ENTRY: Shape = {"path": str, "name": str, "size": int}
DIR_ENTRY: Shape = {"path": str, "name": str}
READ_RESULT: Shape = {"path": str, "full_path": str, "content": str, "size": int}
READ_ERROR: Shape = {"path": str, "error": str}
READ: Shape = {"success": bool, "files_read": int, "results": [READ_RESULT]}
LISTING: Shape = {
    "success": bool,
    "path": str,
    "recursive": bool,
    "files": [FILE_ENTRY],
    "directories": [DIR_ENTRY],
    "file_count": int,
    "directory_count": int,
}
SEARCH_FILES: Shape = {
    "success": bool,
    "pattern": str,
    "case_sensitive": bool,
    "files": [FILE_ENTRY],
    "directories": [DIR_ENTRY],
    "file_count": int,
    "directory_count": int,
}
LINE_MATCH: Shape = {"line_number": int, "line": str, "context": str}
FILE_MATCH: Shape = {"path": str, "name": str, "occurrences": int, "matches": [LINE_MATCH]}
SEARCH_CONTENT: Shape = {
    "success": bool,
    "query": str,
    "case_sensitive": bool,
    "file_pattern": str,
    "matches": [FILE_MATCH],
    "files_found": int,
}


def check(value: Any, shape: Shape, where: str = "$") -> None:
    assert isinstance(value, dict), f"{where}: not an object"
    for key, expected in shape.items():
        assert key in value, f"{where}.{key} is missing"
        item = value[key]
        if isinstance(expected, list):
            assert isinstance(item, list), f"{where}.{key}: not a list"
            for i, element in enumerate(item):
                check(element, expected[0], f"{where}.{key}[{i}]")
        elif expected is int:
            assert isinstance(item, int) and not isinstance(item, bool), f"{where}.{key}"
        else:
            assert isinstance(item, expected), f"{where}.{key}: {type(item).__name__}"


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    (root / "ндс" / "вычеты").mkdir(parents=True)
    (root / "ндс" / "ставки-ндс.md").write_text(
        "---\nid: 1\n---\n\n# Ставки НДС\n\nСтавка НДС 20 %.\nДругая строка.\n",
        encoding="utf-8",
    )
    (root / "ндс" / "вычеты" / "вычет.md").write_text("# Вычет НДС\n", encoding="utf-8")
    (root / "1-старая-плоская-статья.md").write_text("# Ставка НДС (старое)\n", encoding="utf-8")
    return root


async def invoke(tool: Tool[Any], **args: Any) -> Any:
    out = await tool.invoke(args, CTX)
    assert not out.startswith("Error:"), out
    return json.loads(out)


async def test_read_file_contract_success_and_errors(kb: Path) -> None:
    ok = await invoke(KbReadFileTool(kb), paths=["ндс/ставки-ндс.md"])
    check(ok, READ)
    assert ok["errors"] is None
    assert ok["results"][0]["full_path"] == "kb://ндс/ставки-ндс.md"

    mixed = await invoke(KbReadFileTool(kb), paths=["ндс/ставки-ндс.md", "нет.md", "../x"])
    check(mixed, READ)
    assert isinstance(mixed["errors"], list) and len(mixed["errors"]) == 2
    for err in mixed["errors"]:
        check(err, READ_ERROR)

    failed = await invoke(KbReadFileTool(kb), paths=["ндс"])
    check(failed, READ)
    assert failed["success"] is False and failed["files_read"] == 0
    [err] = failed["errors"]
    check(err, READ_ERROR)


async def test_list_directory_contract(kb: Path) -> None:
    root = await invoke(KbListDirectoryTool(kb))
    check(root, LISTING)
    assert root["recursive"] is False
    assert (root["file_count"], root["directory_count"]) == (1, 1)
    nested = await invoke(KbListDirectoryTool(kb), path="ндс", recursive=True)
    check(nested, LISTING)
    assert nested["recursive"] is True
    assert nested["files"][0]["path"].startswith("ндс/")
    assert nested["directories"] == [{"path": "ндс/вычеты", "name": "вычеты"}]


async def test_search_files_contract(kb: Path) -> None:
    data = await invoke(KbSearchFilesTool(kb), pattern="**/*ндс*", case_sensitive=True)
    check(data, SEARCH_FILES)
    assert data["case_sensitive"] is True
    assert [f["path"] for f in data["files"]] == ["ндс/ставки-ндс.md"]
    empty = await invoke(KbSearchFilesTool(kb), pattern="*.pdf")
    check(empty, SEARCH_FILES)
    assert (empty["file_count"], empty["directory_count"]) == (0, 0)


async def test_search_content_contract(kb: Path) -> None:
    data = await invoke(KbSearchContentTool(kb), query="ставка НДС")
    check(data, SEARCH_CONTENT)
    assert data["file_pattern"] == "*.md" and data["case_sensitive"] is False
    assert data["files_found"] == len(data["matches"]) == 2
    first = data["matches"][0]
    assert first["name"] == first["path"].rsplit("/", 1)[-1]
    empty = await invoke(KbSearchContentTool(kb), query="нет такого", file_pattern="ндс/**")
    check(empty, SEARCH_CONTENT)
    assert empty["matches"] == [] and empty["files_found"] == 0


@pytest.mark.parametrize(
    ("tool_cls", "args"),
    [
        (KbReadFileTool, {"paths": []}),
        (KbListDirectoryTool, {"path": "../outside"}),
        (KbListDirectoryTool, {"path": "нет-такой-папки"}),
        (KbSearchFilesTool, {"pattern": "/etc/*"}),
        (KbSearchContentTool, {"query": "a\nb"}),
        (KbSearchContentTool, {"query": "x", "file_pattern": "../*"}),
    ],
)
async def test_call_level_errors_are_error_text(
    kb: Path, tool_cls: type[Tool[Any]], args: dict[str, Any]
) -> None:
    out = await tool_cls(kb).invoke(args, CTX)  # type: ignore[call-arg]
    assert out.startswith("Error: ")
    assert str(kb) not in out


async def test_missing_root_is_error_text(tmp_path: Path) -> None:
    for tool in (
        KbReadFileTool(tmp_path / "none"),
        KbListDirectoryTool(tmp_path / "none"),
        KbSearchFilesTool(tmp_path / "none"),
        KbSearchContentTool(tmp_path / "none"),
    ):
        args = {
            "kb_read_file": {"paths": ["a.md"]},
            "kb_list_directory": {},
            "kb_search_files": {"pattern": "*"},
            "kb_search_content": {"query": "x"},
        }[tool.name]
        out = await tool.invoke(args, CTX)
        assert out.startswith("Error: the knowledge base is not available")
