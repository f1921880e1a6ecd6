"""The README stays true: its links resolve to files and headings, every ``finagent``
command it shows names real subcommands and flags (each one's ``--help`` runs), its test
command is the one ``.ci/run`` runs, its diagram names every node of the agent graph, and
it stays under 200 lines. The notebook example runs in tests/e2e/test_readme_notebook.py."""

from __future__ import annotations

import re
import shlex
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
import typer
from typer.testing import CliRunner

from finagent.cli import build_app
from tests.conftest import REPO_ROOT

README = REPO_ROOT / "README.md"
# pages whose links are checked like the README's (the README points newcomers to them)
LINKED_PAGES = (README, REPO_ROOT / "CONTRIBUTING.md", REPO_ROOT / "docs" / "architecture.md")
_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
_FENCE = re.compile(r"```(\w*)\n(.*?)```", re.DOTALL)
_SPAN = re.compile(r"`([^`\n]+)`")


def _text(path: Path = README) -> str:
    return path.read_text(encoding="utf-8")


def _slug(heading: str) -> str:
    """GitHub's anchor of a Markdown heading: lower case, punctuation dropped, spaces to
    hyphens (letters of any script and digits kept)."""
    text = re.sub(r"[`*_]", "", heading.strip().lower())
    text = "".join(ch for ch in text if ch.isalnum() or ch in " -")
    return text.replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    body = _FENCE.sub("", _text(path))
    return {_slug(m) for m in re.findall(r"^#{1,6} +(.+)$", body, re.MULTILINE)}


@pytest.mark.parametrize("page", LINKED_PAGES, ids=lambda p: p.name)
def test_every_link_resolves_to_a_file_and_heading(page: Path) -> None:
    links = _LINK.findall(_FENCE.sub("", _text(page)))
    assert links, f"{page.name} has no links"
    for link in links:
        if link.startswith(("http://", "https://", "mailto:")):
            continue
        target, _, anchor = link.partition("#")
        path = (page.parent / target).resolve() if target else page
        assert path.is_file(), f"{page.name}: {link} names no file"
        if anchor:
            assert anchor in _anchors(path), f"{page.name}: {link} names no heading"


def _command(line: str) -> list[str] | None:
    """The words after ``finagent`` (environment assignments before it dropped), or None."""
    words = shlex.split(line)
    while words and re.fullmatch(r"[A-Z_]+=\S*", words[0]):
        words.pop(0)
    return words[1:] if words[:1] == ["finagent"] else None


def _commands() -> list[list[str]]:
    """Every ``finagent ...`` command line of the README (code blocks and code spans). A
    flag alone in a code span (`--json`) belongs to the last command of its paragraph or
    list item, and is checked with it."""
    text = _text()
    lines = [line for _, block in _FENCE.findall(text) for line in block.splitlines()]
    found = [c for line in lines for part in line.split("&&") if (c := _command(part))]
    for item in re.split(r"\n(?=\d+\. |\n)", _FENCE.sub("", text)):
        last: list[str] | None = None
        for span in _SPAN.findall(item):
            command = _command(span)
            if command is not None:
                found.append(command)
                last = command
            elif span.startswith("--"):
                assert last is not None, f"`{span}` follows no finagent command"
                found.append([*last, *shlex.split(span)])
    return found


def _resolve(words: list[str]) -> tuple[list[str], Any]:
    """The command path (``["ingest", "docs"]``) and click command the words name."""
    command: Any = typer.main.get_command(build_app())
    path: list[str] = []
    for word in words:
        if word.startswith("-") or not hasattr(command, "get_command"):
            break
        ctx = command.make_context("finagent", ["--help"], resilient_parsing=True)
        sub = command.get_command(ctx, word)
        assert sub is not None, f"finagent {' '.join([*path, word])}: no such command"
        command, path = sub, [*path, word]
    return path, command


def test_every_finagent_command_names_real_subcommands_and_flags() -> None:
    commands = _commands()
    assert {c[0] for c in commands if c} >= {"demo", "ask", "ingest", "serve"}
    runner = CliRunner()
    for words in commands:
        path, command = _resolve(words)
        flags = {opt for param in command.params for opt in param.opts}
        used = {w.split("=")[0] for w in words if w.startswith("-")}
        assert used <= flags | {"--help"}, f"finagent {' '.join(words)}: {used - flags}"
        result = runner.invoke(build_app(), [*path, "--help"])
        assert result.exit_code == 0, result.output


def test_more_commands_named_in_the_readme_exist() -> None:
    sentence = re.search(r"More commands \(([^)]*)\)", _text())
    assert sentence is not None
    names = _SPAN.findall(sentence.group(1))
    assert names
    for name in names:
        _resolve([name])


def test_version_prints_the_package_version() -> None:
    from finagent import __version__

    result = CliRunner().invoke(build_app(), ["--version"])
    assert result.exit_code == 0 and result.output.strip() == f"finagent {__version__}"


def test_the_two_commands_come_first_and_match_ci() -> None:
    blocks = [body.strip() for lang, body in _FENCE.findall(_text()) if lang == "bash"]
    demo, tests = blocks[0], blocks[1]
    assert demo.endswith("pip install -e . && finagent demo")
    ci = (REPO_ROOT / ".ci" / "run").read_text(encoding="utf-8")
    pytest_line = [line for line in ci.splitlines() if line.startswith("python -m pytest")]
    assert pytest_line and tests.endswith("&& " + pytest_line[-1])
    assert 'pip install -e ".[dev]"' in tests and 'install --quiet -e ".[dev]"' in ci
    for setup in ("python3 -m venv .venv", ". .venv/bin/activate"):
        assert demo.startswith(setup) or setup in demo
        assert setup in tests and setup in ci


def test_langgraph_dev_flag_exists() -> None:
    """The tour's Studio step: ``langgraph dev --no-browser`` (the langgraph CLI's help)."""
    assert "langgraph dev --no-browser" in _text()
    langgraph = shutil.which("langgraph")
    assert langgraph is not None, "the langgraph CLI (langgraph-cli[inmem]) is not installed"
    out = subprocess.run(
        [langgraph, "dev", "--help"], capture_output=True, text=True, timeout=60, check=True
    )
    assert "--no-browser" in out.stdout


def test_diagram_names_every_node_of_the_agent_graph() -> None:
    from finagent.graph.agent import compile_agent_graph

    diagram = next(body for lang, body in _FENCE.findall(_text()) if "START ->" in body)
    nodes = set(compile_agent_graph().get_graph().nodes) - {"__start__", "__end__"}
    assert nodes, "the agent graph has no nodes"
    missing = sorted(n for n in nodes if not re.search(rf"\b{n}\b", diagram))
    assert missing == []


def test_readme_is_short() -> None:
    assert len(_text().splitlines()) <= 200
