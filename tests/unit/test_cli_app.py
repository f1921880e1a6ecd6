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
