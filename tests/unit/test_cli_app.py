"""The ``finagent`` app assembled from the command modules (one module per command group)."""

from __future__ import annotations

from typer.core import TyperGroup
from typer.main import get_command

import finagent.cli
from finagent.cli import build_app


def test_every_command_and_group_is_mounted() -> None:
    root = get_command(build_app())
    assert isinstance(root, TyperGroup)
    assert list(root.commands) == [
        "ask",
        "route",
        "search",
        "demo",
        "serve",
        "research",
        "mcp",
        "ingest",
        "tools",
        "eval",
        "embeddings",
    ]
    groups = {name: root.commands[name] for name in ("ingest", "tools", "embeddings")}
    assert all(isinstance(g, TyperGroup) for g in groups.values())
    assert {n: sorted(g.commands) for n, g in groups.items() if isinstance(g, TyperGroup)} == {
        "ingest": ["docs", "kb", "law"],
        "tools": ["call", "list"],
        "embeddings": ["rebuild"],
    }


def test_app_attribute_is_the_one_built_app() -> None:
    assert finagent.cli.app is build_app()


def test_help_of_every_command_shows_flags_without_type_placeholders() -> None:
    """A flag takes no value: its help line is ``--json  Print …``, never ``--json <bool>``."""
    from typer.testing import CliRunner

    root = get_command(build_app())
    assert isinstance(root, TyperGroup)
    paths: list[list[str]] = [[]]
    for name, command in root.commands.items():
        paths.append([name])
        if isinstance(command, TyperGroup):
            paths += [[name, sub] for sub in command.commands]
    runner = CliRunner()
    for path in paths:
        result = runner.invoke(build_app(), [*path, "--help"])
        assert result.exit_code == 0, (path, result.output)
        assert "<bool>" not in result.output, path
        assert "--help" in result.output
