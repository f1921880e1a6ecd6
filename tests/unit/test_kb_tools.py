"""Contracts of the knowledge-base file tools, on real files in a temporary KB root."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from finagent.tools.base import Tool, ToolContext
from finagent.tools.kb_files import build_kb_file_tools
from finagent.tools.kb_find import KbSearchFilesTool
from finagent.tools.kb_grep import KbSearchContentTool
from finagent.tools.kb_list import KbListDirectoryTool
from finagent.tools.kb_read import KbReadFileTool
from finagent.tools.registry import ToolRegistry

CTX = ToolContext(user_id="user-1")


def write(root: Path, rel: str, text: str) -> Path:
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def kb(tmp_path: Path) -> Path:
    root = tmp_path / "kb"
    write(root, "index.md", "# Оглавление\nНалоги и вычеты.\n")
    write(root, "nalogi/ndfl.md", "# НДФЛ\nСтавка 13%.\nСтатья 224 НК РФ.\n")
    write(root, "nalogi/nds.md", "# НДС\nСтавка 20%.\n")
    write(root, "nalogi/vychety/imushchestvennyj.md", "# Имущественный вычет\nСтатья 220.\n")
    write(root, "Вычеты/Социальный вычет.md", "Социальный вычет: статья 219 НК РФ.\n")
    write(root, "notes.txt", "plain text note\n")
    write(root, "data1.csv", "a,b\n")
    write(root, "data2.csv", "c,d\n")
    write(root, ".hidden.md", "hidden article\n")
    (root / ".git").mkdir()
    write(root, ".git/config.md", "hidden folder\n")
    return root


async def call(tool: Tool[Any], **args: Any) -> dict[str, Any]:
    out = await tool.invoke(args, CTX)
    assert not out.startswith("Error:"), out
    data = json.loads(out)
    assert isinstance(data, dict)
    return data


async def call_error(tool: Tool[Any], **args: Any) -> str:
    out = await tool.invoke(args, CTX)
    assert out.startswith("Error:"), out
    return out


# --------------------------------------------------------------------------- factory


def test_build_kb_file_tools_names_and_schemas(kb: Path) -> None:
    tools = build_kb_file_tools(kb)
    registry = ToolRegistry(tools)
    assert registry.names() == [
        "kb_read_file",
        "kb_list_directory",
        "kb_search_files",
        "kb_search_content",
    ]
    for schema in registry.openai_schemas():
        fn = schema["function"]
        assert fn["description"]
        assert fn["parameters"]["properties"]


# --------------------------------------------------------------------------- kb_read_file


async def test_read_single_file_contract(kb: Path) -> None:
    data = await call(KbReadFileTool(kb), paths=["nalogi/ndfl.md"])
    assert data["success"] is True
    assert data["files_read"] == 1
    assert data["errors"] is None
    [res] = data["results"]
    assert res["path"] == "nalogi/ndfl.md"
    assert res["full_path"] == "kb://nalogi/ndfl.md"
    assert res["content"] == "# НДФЛ\nСтавка 13%.\nСтатья 224 НК РФ.\n"
    assert res["size"] == (kb / "nalogi/ndfl.md").stat().st_size
    assert res["truncated"] is False


async def test_read_many_files_one_missing(kb: Path) -> None:
    data = await call(
        KbReadFileTool(kb),
        paths=["index.md", "nalogi/missing.md", "Вычеты/Социальный вычет.md"],
    )
    assert data["success"] is True
    assert data["files_read"] == 2
    assert [r["path"] for r in data["results"]] == ["index.md", "Вычеты/Социальный вычет.md"]
    assert data["results"][1]["content"].startswith("Социальный вычет")
    assert data["results"][1]["full_path"] == "kb://Вычеты/Социальный вычет.md"
    [err] = data["errors"]
    assert err["path"] == "nalogi/missing.md"
    assert "not found" in err["error"]


async def test_read_all_missing_is_unsuccessful_json(kb: Path) -> None:
    data = await call(KbReadFileTool(kb), paths=["nope.md", "nalogi"])
    assert data["success"] is False
    assert data["files_read"] == 0
    errors = {e["path"]: e["error"] for e in data["errors"]}
    assert "not found" in errors["nope.md"]
    assert "folder" in errors["nalogi"]


async def test_read_truncates_large_file(kb: Path) -> None:
    body = "строка " * 10_000
    write(kb, "big.md", body)
    data = await call(KbReadFileTool(kb, max_file_chars=1000), paths=["big.md"])
    [res] = data["results"]
    assert res["truncated"] is True
    assert res["content"].endswith("[...truncated]")
    assert res["content"].startswith(body[:1000])
    assert len(res["content"]) == 1000 + len("\n[...truncated]")
    assert res["size"] == len(body.encode("utf-8"))


async def test_read_total_budget_defers_files(kb: Path) -> None:
    for i in range(4):
        write(kb, f"big{i}.md", "x" * 5000)
    tool = KbReadFileTool(kb, max_file_chars=5000, max_total_chars=12_000)
    data = await call(tool, paths=[f"big{i}.md" for i in range(4)])
    total = sum(len(r["content"]) for r in data["results"])
    assert total <= 12_000
    assert data["files_read"] >= 2
    deferred = [e for e in data["errors"] if "separate call" in e["error"]]
    assert data["files_read"] + len(deferred) == 4


async def test_read_binary_and_invalid_utf8_are_per_file_errors(kb: Path) -> None:
    (kb / "image.md").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00")
    (kb / "latin1.md").write_bytes("Café".encode("latin-1"))
    data = await call(KbReadFileTool(kb), paths=["image.md", "latin1.md", "index.md"])
    assert data["files_read"] == 1
    errors = {e["path"]: e["error"] for e in data["errors"]}
    assert "binary" in errors["image.md"]
    assert "UTF-8" in errors["latin1.md"]


async def test_read_rejects_hidden_and_limits_count(kb: Path) -> None:
    data = await call(KbReadFileTool(kb), paths=[".hidden.md", ".git/config.md"])
    assert data["files_read"] == 0
    assert all("hidden" in e["error"] for e in data["errors"])
    out = await call_error(KbReadFileTool(kb), paths=[f"f{i}.md" for i in range(21)])
    assert "invalid arguments" in out
    out = await call_error(KbReadFileTool(kb), paths=[])
    assert "invalid arguments" in out


async def test_missing_kb_root_is_a_clear_error(tmp_path: Path) -> None:
    missing = tmp_path / "no-kb"
    for tool, args in (
        (KbReadFileTool(missing), {"paths": ["a.md"]}),
        (KbListDirectoryTool(missing), {}),
        (KbSearchFilesTool(missing), {"pattern": "*"}),
        (KbSearchContentTool(missing), {"query": "x"}),
    ):
        out = await call_error(tool, **args)
        assert "knowledge base is not available" in out
        assert str(tmp_path) not in out


# --------------------------------------------------------------------------- kb_list_directory


async def test_list_root_not_recursive(kb: Path) -> None:
    data = await call(KbListDirectoryTool(kb))
    assert data["success"] is True
    assert data["path"] == ""
    assert data["directories"] == [
        {"path": "nalogi", "name": "nalogi"},
        {"path": "Вычеты", "name": "Вычеты"},
    ]
    assert [f["path"] for f in data["files"]] == ["data1.csv", "data2.csv", "index.md", "notes.txt"]
    index = next(f for f in data["files"] if f["name"] == "index.md")
    assert index["size"] == (kb / "index.md").stat().st_size
    assert data["recursive"] is False
    assert data["file_count"] == 4
    assert data["directory_count"] == 2
    assert "truncated" not in data


async def test_list_recursive_and_subfolder(kb: Path) -> None:
    data = await call(KbListDirectoryTool(kb), recursive=True)
    paths = {f["path"] for f in data["files"]}
    assert "nalogi/vychety/imushchestvennyj.md" in paths
    assert "Вычеты/Социальный вычет.md" in paths
    assert not any(p.startswith(".") or "/." in p for p in paths)
    assert {d["path"] for d in data["directories"]} == {"nalogi", "nalogi/vychety", "Вычеты"}
    assert data["recursive"] is True
    assert data["file_count"] == 8
    assert data["directory_count"] == 3

    sub = await call(KbListDirectoryTool(kb), path="nalogi", recursive=False)
    assert sub["path"] == "nalogi"
    assert [f["path"] for f in sub["files"]] == ["nalogi/ndfl.md", "nalogi/nds.md"]
    assert sub["directories"] == [{"path": "nalogi/vychety", "name": "vychety"}]

    cyr = await call(KbListDirectoryTool(kb), path="Вычеты/")
    assert [f["name"] for f in cyr["files"]] == ["Социальный вычет.md"]


async def test_list_caps_entries(kb: Path) -> None:
    data = await call(KbListDirectoryTool(kb, max_entries=3), recursive=True)
    assert len(data["directories"]) + len(data["files"]) == 3
    assert data["file_count"] == 8
    assert data["truncated"] is True
    assert "showing 3 of 11" in data["note"]


async def test_list_errors(kb: Path) -> None:
    assert "not found" in await call_error(KbListDirectoryTool(kb), path="nowhere")
    assert "kb_read_file" in await call_error(KbListDirectoryTool(kb), path="index.md")


# --------------------------------------------------------------------------- kb_search_files


async def files(kb: Path, pattern: str, **kw: Any) -> list[str]:
    data = await call(KbSearchFilesTool(kb), pattern=pattern, **kw)
    assert data["success"] is True
    assert data["file_count"] == len(data["files"])
    assert data["directory_count"] == len(data["directories"])
    return [m["path"] for m in data["files"]]


async def test_search_files_contract(kb: Path) -> None:
    data = await call(KbSearchFilesTool(kb), pattern="nalogi/*.md")
    assert data["pattern"] == "nalogi/*.md"
    assert data["case_sensitive"] is False
    assert data["directories"] == []
    assert data["directory_count"] == 0
    assert data["files"] == [
        {
            "path": "nalogi/ndfl.md",
            "name": "ndfl.md",
            "size": (kb / "nalogi/ndfl.md").stat().st_size,
        },
        {"path": "nalogi/nds.md", "name": "nds.md", "size": (kb / "nalogi/nds.md").stat().st_size},
    ]
    assert data["file_count"] == 2


async def test_search_files_directories_match_too(kb: Path) -> None:
    data = await call(KbSearchFilesTool(kb), pattern="vych*")
    assert data["directories"] == [{"path": "nalogi/vychety", "name": "vychety"}]
    assert data["directory_count"] == 1
    assert data["files"] == []


async def test_search_files_star_matches_name_anywhere(kb: Path) -> None:
    assert await files(kb, "*.md") == [
        "index.md",
        "nalogi/ndfl.md",
        "nalogi/nds.md",
        "nalogi/vychety/imushchestvennyj.md",
        "Вычеты/Социальный вычет.md",
    ]
    assert await files(kb, "nd*") == ["nalogi/ndfl.md", "nalogi/nds.md"]


async def test_search_files_question_mark_and_brackets(kb: Path) -> None:
    assert await files(kb, "data?.csv") == ["data1.csv", "data2.csv"]
    assert await files(kb, "data[2].csv") == ["data2.csv"]
    assert await files(kb, "data[!2].csv") == ["data1.csv"]
    assert await files(kb, "nd[a-f]?.md") == ["nalogi/ndfl.md"]
    assert await files(kb, "nd?.md") == ["nalogi/nds.md"]


async def test_search_files_double_star(kb: Path) -> None:
    assert await files(kb, "nalogi/**/*.md") == [
        "nalogi/ndfl.md",
        "nalogi/nds.md",
        "nalogi/vychety/imushchestvennyj.md",
    ]
    assert await files(kb, "**/vychety/*") == ["nalogi/vychety/imushchestvennyj.md"]
    assert await files(kb, "nalogi/**") == [
        "nalogi/ndfl.md",
        "nalogi/nds.md",
        "nalogi/vychety/imushchestvennyj.md",
    ]
    # a single star does not cross folders when matching the full path
    assert await files(kb, "nalogi/*") == ["nalogi/ndfl.md", "nalogi/nds.md"]


async def test_search_files_case_and_cyrillic(kb: Path) -> None:
    assert await files(kb, "*ВЫЧЕТ*") == ["Вычеты/Социальный вычет.md"]
    assert await files(kb, "*ВЫЧЕТ*", case_sensitive=True) == []
    assert await files(kb, "вычеты/*", case_sensitive=False) == ["Вычеты/Социальный вычет.md"]
    assert await files(kb, "NDFL.MD", case_sensitive=True) == []
    assert await files(kb, "NDFL.MD") == ["nalogi/ndfl.md"]


async def test_search_files_hidden_never_match(kb: Path) -> None:
    assert await files(kb, "**") == [
        "data1.csv",
        "data2.csv",
        "index.md",
        "nalogi/ndfl.md",
        "nalogi/nds.md",
        "nalogi/vychety/imushchestvennyj.md",
        "notes.txt",
        "Вычеты/Социальный вычет.md",
    ]
    assert await files(kb, "*hidden*") == []


async def test_search_files_cap(kb: Path) -> None:
    data = await call(KbSearchFilesTool(kb, max_matches=2), pattern="**")
    assert len(data["files"]) + len(data["directories"]) == 2
    assert data["file_count"] == 8
    assert data["directory_count"] == 3
    assert data["truncated"] is True


async def test_search_files_rejects_bad_patterns(kb: Path) -> None:
    for pattern in ("../*", "/etc/*", "~/*", "**/../*", "C:/*", "..\\*"):
        out = await call_error(KbSearchFilesTool(kb), pattern=pattern)
        assert "Error:" in out


# --------------------------------------------------------------------------- kb_search_content


ARTICLE = "\n".join(
    [
        "# Вычет",  # 1
        "строка два",  # 2
        "строка три",  # 3
        "Статья 219 НК РФ устанавливает социальный вычет.",  # 4
        "строка пять",  # 5
        "строка шесть",  # 6
        "строка семь",  # 7
    ]
)


async def test_search_content_contract_and_context(kb: Path) -> None:
    write(kb, "article.md", ARTICLE)
    data = await call(KbSearchContentTool(kb), query="статья 219")
    assert data["success"] is True
    assert data["query"] == "статья 219"
    assert data["case_sensitive"] is False
    assert data["file_pattern"] == "*.md"
    paths = [r["path"] for r in data["matches"]]
    assert paths == ["article.md", "Вычеты/Социальный вычет.md"]
    assert data["files_found"] == 2
    assert data["matches"][0]["name"] == "article.md"
    assert data["matches"][0]["occurrences"] == 1
    [match] = data["matches"][0]["matches"]
    assert match == {
        "line_number": 4,
        "line": "Статья 219 НК РФ устанавливает социальный вычет.",
        "context": "строка два\nстрока три\n"
        "Статья 219 НК РФ устанавливает социальный вычет.\nстрока пять\nстрока шесть",
    }
    # first line: no context before
    first = await call(KbSearchContentTool(kb), query="# Вычет", file_pattern="article.md")
    assert first["matches"][0]["matches"][0]["context"] == "# Вычет\nстрока два\nстрока три"
    assert first["matches"][0]["matches"][0]["line_number"] == 1


async def test_search_content_five_matches_per_file(kb: Path) -> None:
    write(kb, "many.md", "\n".join(f"налог номер {i}" for i in range(12)))
    data = await call(KbSearchContentTool(kb), query="НАЛОГ НОМЕР", file_pattern="many.md")
    [res] = data["matches"]
    assert len(res["matches"]) == 5
    assert [m["line_number"] for m in res["matches"]] == [1, 2, 3, 4, 5]
    assert res["occurrences"] == 12
    assert data["files_found"] == 1


async def test_search_content_case_sensitivity(kb: Path) -> None:
    assert (await call(KbSearchContentTool(kb), query="ндфл"))["files_found"] == 1
    strict = await call(KbSearchContentTool(kb), query="ндфл", case_sensitive=True)
    assert strict["files_found"] == 0
    assert strict["matches"] == []
    exact = await call(KbSearchContentTool(kb), query="НДФЛ", case_sensitive=True)
    assert [r["path"] for r in exact["matches"]] == ["nalogi/ndfl.md"]


async def test_search_content_is_literal_not_regex(kb: Path) -> None:
    write(kb, "regex.md", "Ставка 13% (.*) и [a-z]+\nдругое\n")
    data = await call(KbSearchContentTool(kb), query="(.*) и [a-z]+")
    assert [r["path"] for r in data["matches"]] == ["regex.md"]
    none = await call(KbSearchContentTool(kb), query=".*")
    assert [r["path"] for r in none["matches"]] == ["regex.md"]


async def test_search_content_file_pattern(kb: Path) -> None:
    data = await call(KbSearchContentTool(kb), query="note", file_pattern="*.md")
    assert data["files_found"] == 0
    txt = await call(KbSearchContentTool(kb), query="note", file_pattern="*.txt")
    assert [r["path"] for r in txt["matches"]] == ["notes.txt"]
    sub = await call(KbSearchContentTool(kb), query="Статья", file_pattern="nalogi/**")
    assert [r["path"] for r in sub["matches"]] == [
        "nalogi/ndfl.md",
        "nalogi/vychety/imushchestvennyj.md",
    ]


async def test_search_content_skips_hidden_and_binary(kb: Path) -> None:
    (kb / "bin.md").write_bytes(b"hidden\x00article")
    data = await call(KbSearchContentTool(kb), query="hidden", file_pattern="**")
    assert data["files_found"] == 0


async def test_search_content_cap_files_and_long_lines(kb: Path) -> None:
    for i in range(5):
        write(kb, f"cap/{i}.md", "общий термин\n")
    data = await call(
        KbSearchContentTool(kb, max_files=2), query="общий термин", file_pattern="cap/*"
    )
    assert len(data["matches"]) == 2
    assert data["files_found"] == 5
    assert data["truncated"] is True
    write(kb, "long.md", "а" * 5000 + " ИСКОМОЕ " + "б" * 5000)
    long = await call(KbSearchContentTool(kb), query="искомое", file_pattern="long.md")
    text = long["matches"][0]["matches"][0]["line"]
    assert "ИСКОМОЕ" in text
    assert len(text) <= 310


async def test_search_content_rejects_multiline_query(kb: Path) -> None:
    out = await call_error(KbSearchContentTool(kb), query="a\nb")
    assert "single line" in out


async def test_search_files_odd_brackets_never_error(kb: Path) -> None:
    write(kb, "odd/[z-a].md", "x")
    write(kb, "odd/].md", "x")
    # wcmatch semantics: a reversed range is an empty set; '[[]' is a literal '['
    assert await files(kb, "odd/[z-a].md") == []
    assert await files(kb, "odd/[[]z-a].md") == ["odd/[z-a].md"]
    assert await files(kb, "[]].md") == ["odd/].md"]
    for pattern in ("[]", "[!]", "a[", "[^]", "[&&]", "[[]"):
        await files(kb, pattern)  # no exception, valid JSON


async def test_search_content_multi_word_rule(kb: Path) -> None:
    write(
        kb,
        "ндс/ставки.md",
        "# Ставки НДС\n"  # 1: other word forms
        "Ставка   НДС 20 %.\n"  # 2: phrase with extra spaces
        "Для НДС льготная ставка 10 %.\n"  # 3: both words, apart
        "Ставка НДФЛ 13 %.\n"  # 4: only one word (НДС is not a substring of НДФЛ)
        "Учёт ставки ндс ведётся отдельно.\n",  # 5: case-insensitive
    )
    data = await call(KbSearchContentTool(kb), query="ставка НДС", file_pattern="ндс/*")
    [res] = data["matches"]
    assert [m["line_number"] for m in res["matches"]] == [2, 3]
    assert res["occurrences"] == 2
    # stems are not guessed: "ставки" does not contain "ставка"
    data = await call(KbSearchContentTool(kb), query="ставки ндс", file_pattern="ндс/*")
    assert [m["line_number"] for m in data["matches"][0]["matches"]] == [1, 5]
    # ё and е are the same letter unless the search is case-sensitive
    data = await call(KbSearchContentTool(kb), query="учет ставки", file_pattern="ндс/*")
    assert [m["line_number"] for m in data["matches"][0]["matches"]] == [5]
    strict = await call(
        KbSearchContentTool(kb), query="учет ставки", file_pattern="ндс/*", case_sensitive=True
    )
    assert strict["files_found"] == 0
    strict = await call(
        KbSearchContentTool(kb), query="Ставка НДС", file_pattern="ндс/*", case_sensitive=True
    )
    assert [m["line_number"] for m in strict["matches"][0]["matches"]] == [2]


async def test_search_content_blank_query_is_an_error(kb: Path) -> None:
    out = await call_error(KbSearchContentTool(kb), query="   ")
    assert "empty" in out
