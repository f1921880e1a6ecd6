"""The KB file tools never leak anything outside the KB root, whatever the LLM passes.

A real KB root lives next to an ``outside`` folder holding a secret with a unique marker,
a sibling folder whose name shares the root's prefix, and symlinks inside the root that
point out (relative, absolute, folder, parent, loop). Hostile inputs (a fixed corpus and
hypothesis-generated text) go through every argument of every tool.
"""

from __future__ import annotations

import asyncio
import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from finagent.tools.base import Tool, ToolContext, ToolError
from finagent.tools.kb_files import build_kb_file_tools
from finagent.tools.kb_find import KbSearchFilesTool
from finagent.tools.kb_grep import KbSearchContentTool
from finagent.tools.kb_list import KbListDirectoryTool
from finagent.tools.kb_paths import (
    echo,
    open_inside,
    resolve_kb_path,
    split_relative,
    validate_glob,
)
from finagent.tools.kb_read import KbReadFileTool

MARKER = "SECRET-OUTSIDE-MARKER-8f3a"
HIDDEN_MARKER = "HIDDEN-INSIDE-MARKER-51c2"
CTX = ToolContext(user_id="user-1")


@dataclass(frozen=True)
class Layout:
    base: Path
    root: Path
    outside: Path
    secret: Path
    forbidden: tuple[str, ...]


@pytest.fixture(scope="module")
def layout(tmp_path_factory: pytest.TempPathFactory) -> Layout:
    base = tmp_path_factory.mktemp("kbsafety")
    root = base / "kb"
    outside = base / "outside"
    sibling = base / "kb_sibling"  # shares the root's name prefix
    for d in (root / "docs", root / "Налоги", outside / "sub", sibling):
        d.mkdir(parents=True)
    (root / "docs" / "a.md").write_text("обычная статья\nвторая строка\n", encoding="utf-8")
    (root / "Налоги" / "НДС.md").write_text("НДС 20%\n", encoding="utf-8")
    (root / ".hidden.md").write_text(HIDDEN_MARKER, encoding="utf-8")
    secret = outside / "secret.md"
    secret.write_text(f"{MARKER}\nSECRET line\n", encoding="utf-8")
    (outside / "sub" / "secret2.md").write_text(MARKER, encoding="utf-8")
    (sibling / "secret.md").write_text(MARKER, encoding="utf-8")
    (root / "inside_link.md").symlink_to("docs/a.md")
    (root / "link_file.md").symlink_to("../outside/secret.md")
    (root / "link_abs.md").symlink_to(secret)
    (root / "link_dir").symlink_to("../outside", target_is_directory=True)
    (root / "link_dir_abs").symlink_to(outside, target_is_directory=True)
    (root / "docs" / "up").symlink_to("../..", target_is_directory=True)
    (root / "sib").symlink_to("../kb_sibling", target_is_directory=True)
    (root / "to_hidden.md").symlink_to(".hidden.md")
    (root / "loop").symlink_to("loop")
    (root / "dangling.md").symlink_to("../outside/nothing.md")
    # nested topic folders, with symlinked sub-folders that point out of the root
    nested = root / "Налоги" / "ндфл" / "вычеты"
    nested.mkdir(parents=True)
    (nested / "лечение.md").write_text("вычет на лечение\n", encoding="utf-8")
    (nested / "out_rel").symlink_to("../../../../outside", target_is_directory=True)
    (root / "Налоги" / "ндфл" / "out_abs").symlink_to(outside, target_is_directory=True)
    (nested / "secret_link.md").symlink_to("../../../../outside/secret.md")
    forbidden = {MARKER, HIDDEN_MARKER, "secret2.md"}  # secret2.md exists only outside
    for p in (base, outside, sibling, root):
        forbidden.add(str(p))
        forbidden.add(os.path.realpath(p))
    forbidden.add(str(tmp_path_factory.getbasetemp()))
    return Layout(base, root, outside, secret, tuple(sorted(forbidden)))


def corpus(lay: Layout) -> list[str]:
    """Hostile inputs by category (70+ items)."""
    out, sec, root = str(lay.outside), str(lay.secret), str(lay.root)
    return [
        # traversal (and the root itself, which lists the outward symlinks)
        "",
        ".",
        "..",
        "../",
        "../outside/secret.md",
        "docs/../../outside/secret.md",
        "./../outside",
        "a/b/../../../outside/secret.md",
        "....//outside/secret.md",
        ".. /outside/secret.md",
        "../../../../../../../../etc/passwd",
        "../kb_sibling/secret.md",
        # absolute and home
        "/etc/passwd",
        sec,
        out,
        "//etc/passwd",
        "/",
        root + "/../outside/secret.md",
        root + "/docs/a.md",
        "~",
        "~/secret.md",
        "~root/.ssh/id_rsa",
        # symlinks out of the root
        "link_file.md",
        "link_abs.md",
        "link_dir",
        "link_dir/secret.md",
        "link_dir_abs/sub/secret2.md",
        "docs/up/outside/secret.md",
        "sib/secret.md",
        "to_hidden.md",
        "loop",
        "dangling.md",
        # nested topic folders and symlinked sub-folders pointing out
        "Налоги/ндфл/вычеты/out_rel/secret.md",
        "Налоги/ндфл/вычеты/out_rel/sub/secret2.md",
        "Налоги/ндфл/вычеты/out_rel",
        "Налоги/ндфл/out_abs/secret.md",
        "Налоги/ндфл/out_abs",
        "Налоги/ндфл/вычеты/secret_link.md",
        "Налоги/ндфл/вычеты/../../../../outside/secret.md",
        "Налоги/ндфл/вычеты/../../../../kb_sibling/secret.md",
        "Налоги/ндфл/../../../outside/sub/secret2.md",
        "Налоги/ндфл/вычеты/%2e%2e/%2e%2e/outside",
        "Налоги/ндфл/вычеты/..\\..\\outside",
        "Налоги/**/secret*",
        "Налоги/**/out_*/**",
        "**/out_rel/*",
        "Налоги/ндфл/**",
        # URL-encoded, double-encoded, overlong UTF-8, %u
        "%2e%2e%2f",
        "%2e%2e/outside/secret.md",
        "..%2f..%2foutside%2fsecret.md",
        "%252e%252e%252foutside",
        "%2E%2E%5Coutside%5Csecret.md",
        "%c0%ae%c0%ae/outside/secret.md",
        "%uff0e%uff0e/outside",
        # Unicode look-alikes
        "..∕outside∕secret.md",
        "..⁄outside⁄secret.md",
        "..／outside／secret.md",
        "..＼outside＼secret.md",
        "․․/outside/secret.md",
        "．．/outside/secret.md",
        "‥/outside/secret.md",
        "︰/outside/secret.md",
        "﹒﹒/outside",
        "～/secret.md",
        "Ｃ：/Windows",
        # NUL and control characters
        "docs/a.md\x00",
        "\x00../outside/secret.md",
        "../outside/secret.md\x00.md",
        "docs\n../outside",
        "docs/\u202e",
        # Windows separators, drive letters, UNC
        "..\\..\\outside\\secret.md",
        "docs\\..\\..\\outside",
        "C:\\Windows\\win.ini",
        "C:/Windows",
        "c:secret.md",
        "\\\\server\\share\\secret.md",
        "//server/share/secret.md",
        "\\\\?\\C:\\secret.md",
        "\\\\.\\pipe\\x",
        # hidden, long, glob tricks, the marker itself
        ".hidden.md",
        "docs/.secret",
        "a" * 5000,
        "a/" * 600,
        "x" * 300 + ".md",
        "**/../outside/*",
        "../*",
        "/**",
        "[.][.]/outside/*",
        "**",
        MARKER,
        "SECRET",
    ]


def tools_for(root: Path) -> dict[str, Tool[Any]]:
    return {tool.name: tool for tool in build_kb_file_tools(root)}


async def run_everything(tools: dict[str, Tool[Any]], s: str) -> list[tuple[str, str, str]]:
    """Send ``s`` through every argument of every tool; (label, output, query sent)."""
    calls: list[tuple[str, str, dict[str, Any]]] = [
        ("read", "kb_read_file", {"paths": [s]}),
        ("read+ok", "kb_read_file", {"paths": [s, "docs/a.md"]}),
        ("list", "kb_list_directory", {"path": s}),
        ("list-rec", "kb_list_directory", {"path": s, "recursive": True}),
        ("files", "kb_search_files", {"pattern": s}),
        ("files-cs", "kb_search_files", {"pattern": s, "case_sensitive": True}),
        ("content-query", "kb_search_content", {"query": s, "file_pattern": "**"}),
        ("content-pattern", "kb_search_content", {"query": "SECRET", "file_pattern": s}),
        ("content-marker", "kb_search_content", {"query": MARKER, "file_pattern": s}),
    ]
    outputs = []
    for label, name, args in calls:
        outputs.append((label, await tools[name].invoke(args, CTX), args.get("query", "")))
    return outputs


def assert_safe(lay: Layout, s: str, outputs: list[tuple[str, str, str]]) -> None:
    for label, out, query in outputs:
        assert isinstance(out, str)
        assert out.startswith(("{", "Error:")), (label, out)
        assert " failed (" not in out, (label, out)  # no unexpected exception
        checked = out
        if out.startswith("{"):
            data = json.loads(out)
            # the search query is echoed by contract; only the echo may repeat the input
            # echo fields may repeat the caller's own input, nothing else
            if "query" in data:
                assert data["query"] == query, out
                data.pop("query")
            for key in ("path", "pattern", "file_pattern"):
                if key in data and data[key] in s:
                    data.pop(key)
            for err in data.get("errors") or []:
                if err["path"].removeprefix("…/") in s:
                    err.pop("path")
            checked = json.dumps(data, ensure_ascii=False)
            if label == "read+ok":
                assert "docs/a.md" in [r["path"] for r in data["results"]], out
        for bad in lay.forbidden:
            assert bad not in checked, (label, repr(s), bad, out)


async def test_layout_is_hostile(layout: Layout) -> None:
    """Sanity: the symlinks really reach the secret, so the other tests mean something."""
    assert MARKER in (layout.root / "link_file.md").read_text(encoding="utf-8")
    assert MARKER in (layout.root / "link_dir" / "secret.md").read_text(encoding="utf-8")
    assert MARKER in (layout.root / "docs/up/outside/secret.md").read_text(encoding="utf-8")
    nested = layout.root / "Налоги" / "ндфл"
    assert MARKER in (nested / "вычеты/out_rel/secret.md").read_text(encoding="utf-8")
    assert MARKER in (nested / "out_abs/sub/secret2.md").read_text(encoding="utf-8")
    assert MARKER in (nested / "вычеты/secret_link.md").read_text(encoding="utf-8")
    assert len(corpus(layout)) >= 40


async def test_hostile_corpus_through_every_tool(layout: Layout) -> None:
    tools = tools_for(layout.root)
    for s in corpus(layout):
        assert_safe(layout, s, await run_everything(tools, s))


@pytest.mark.parametrize(
    "raw",
    [
        "../outside/secret.md",
        "link_file.md",
        "link_dir/secret.md",
        "docs/up/outside/secret.md",
        "sib/secret.md",
        "..／outside／secret.md",
        "%2e%2e%2foutside",
        "..\\outside",
        "C:\\x",
        "\x00",
        "~/x",
        "/etc/passwd",
    ],
)
async def test_read_rejects_with_clear_error(layout: Layout, raw: str) -> None:
    out = await KbReadFileTool(layout.root).invoke({"paths": [raw]}, CTX)
    data = json.loads(out)
    assert data["success"] is False
    [err] = data["errors"]
    assert err["error"]
    assert MARKER not in out
    assert not err["path"].startswith("/")


async def test_escape_message_is_explicit(layout: Layout) -> None:
    out = await KbListDirectoryTool(layout.root).invoke({"path": "link_dir"}, CTX)
    assert out == "Error: path escapes the knowledge base root"
    out = await KbListDirectoryTool(layout.root).invoke({"path": "../outside"}, CTX)
    assert out.startswith("Error: path escapes the knowledge base root")


async def test_symlinks_out_are_invisible_and_inside_links_work(layout: Layout) -> None:
    listing = json.loads(await KbListDirectoryTool(layout.root).invoke({"recursive": True}, CTX))
    names = {f["path"] for f in listing["files"]} | {d["path"] for d in listing["directories"]}
    assert names == {
        "docs",
        "docs/a.md",
        "inside_link.md",
        "Налоги",
        "Налоги/НДС.md",
        "Налоги/ндфл",
        "Налоги/ндфл/вычеты",
        "Налоги/ндфл/вычеты/лечение.md",
    }
    found = json.loads(await KbSearchFilesTool(layout.root).invoke({"pattern": "**"}, CTX))
    assert [m["path"] for m in found["files"]] == [
        "docs/a.md",
        "inside_link.md",
        "Налоги/НДС.md",
        "Налоги/ндфл/вычеты/лечение.md",
    ]
    grep = json.loads(
        await KbSearchContentTool(layout.root).invoke(
            {"query": "secret", "file_pattern": "**"}, CTX
        )
    )
    assert grep["files_found"] == 0
    read = json.loads(await KbReadFileTool(layout.root).invoke({"paths": ["inside_link.md"]}, CTX))
    assert read["results"][0]["content"].startswith("обычная статья")
    assert read["results"][0]["full_path"] == "kb://inside_link.md"


def test_kb_paths_categories(layout: Layout) -> None:
    cases = {
        "../x": "'..'",
        "/abs": "absolute",
        "~/x": "'~'",
        "%2e%2e/x": "URL-encoded",
        "..∕x": "look-alike",
        "．．/x": "'..'",
        "a\x00b": "control",
        "a\\b": "backslash",
        "C:x": "drive",
        ".env": "hidden",
    }
    for raw, expected in cases.items():
        with pytest.raises(ToolError, match=expected):
            split_relative(raw)
    assert split_relative("./docs//a.md") == ["docs", "a.md"]
    assert split_relative("Налоги/Письмо №5.md") == ["Налоги", "Письмо №5.md"]
    assert resolve_kb_path(layout.root, "").rel == ""
    assert resolve_kb_path(layout.root, "docs/a.md").uri == "kb://docs/a.md"
    with pytest.raises(ToolError, match="escapes"):
        resolve_kb_path(layout.root, "link_dir_abs")
    with pytest.raises(ToolError):
        validate_glob("**/../*")
    assert validate_glob("./nalogi/**/*.md") == "nalogi/**/*.md"
    assert echo(str(layout.secret)) == "…/secret.md"
    assert echo("C:\\Windows\\win.ini") == "…/win.ini"
    assert echo("docs/a.md") == "docs/a.md"


# --------------------------------------------------------------------------- hypothesis

TOKENS = [
    ".",
    "..",
    "/",
    "\\",
    "%",
    "%2e",
    "%2f",
    "%5c",
    "%25",
    "~",
    ":",
    "C:",
    "\x00",
    "∕",
    "⁄",
    "／",
    "＼",
    "․",
    "．",
    "‥",
    "*",
    "**",
    "?",
    "[",
    "]",
    "!",
    " ",
    "docs",
    "a.md",
    "outside",
    "secret.md",
    "link_file.md",
    "link_dir",
    "link_dir_abs",
    "up",
    "sib",
    "loop",
    "Налоги",
    "НДС.md",
    ".hidden.md",
    "SECRET",
]

hostile_text = st.one_of(
    st.lists(st.sampled_from(TOKENS), min_size=0, max_size=12).map("".join),
    st.text(alphabet=st.sampled_from("./\\%~:*?[]!C2efcx\x00∕⁄／＼․．‥ aНsl_"), max_size=40),
    st.text(max_size=30),
)


@settings(
    max_examples=250,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(s=hostile_text)
def test_hypothesis_paths_never_leak(layout: Layout, s: str) -> None:
    tools = tools_for(layout.root)
    assert_safe(layout, s, asyncio.run(run_everything(tools, s)))


@settings(max_examples=100, deadline=None)
@given(s=hostile_text)
def test_hypothesis_many_paths_per_read(layout: Layout, s: str) -> None:
    tool = KbReadFileTool(layout.root)
    paths = [s, "link_file.md", s + "/secret.md", "docs/a.md"]
    out = asyncio.run(tool.invoke({"paths": paths}, CTX))
    assert_safe(layout, s, [("read+ok", out, "")])
    data = json.loads(out)
    assert data["files_read"] + len(data["errors"] or []) == len(dict.fromkeys(paths))


def test_open_inside_refuses_a_symlink_swapped_in_after_the_check(tmp_path: Path) -> None:
    """The race: a path is checked, then a folder on it is replaced by a link out."""
    root = tmp_path / "kb"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "note.md").write_text("inside", encoding="utf-8")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "note.md").write_text(MARKER, encoding="utf-8")
    checked = resolve_kb_path(root, "docs/note.md")
    root_real = checked.real.parents[1]
    with open_inside(root_real, checked.real) as fh:
        assert fh.read() == b"inside"

    (root / "docs").rename(root / "docs-old")
    (root / "docs").symlink_to(outside, target_is_directory=True)
    assert (root / "docs" / "note.md").read_text(encoding="utf-8") == MARKER  # the trap is live
    with pytest.raises(OSError):
        open_inside(root_real, checked.real)

    (root / "docs").unlink()
    (root / "docs").mkdir()
    (root / "docs" / "note.md").symlink_to(outside / "note.md")
    with pytest.raises(OSError):
        open_inside(root_real, checked.real)


def test_open_inside_refuses_a_fifo_without_blocking(tmp_path: Path) -> None:
    root = tmp_path / "kb"
    root.mkdir()
    os.mkfifo(root / "pipe.md")
    with pytest.raises(ToolError, match="not a regular file"):
        open_inside(root.resolve(), (root / "pipe.md").resolve())
