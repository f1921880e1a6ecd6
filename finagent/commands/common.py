"""What every command module shares: the ``--user`` / ``--json`` options, settings,
JSON output and running a command's coroutine."""

from __future__ import annotations

import json
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from finagent.commands.running import fail, run_command

if TYPE_CHECKING:
    from finagent.config import Settings

T = TypeVar("T")

UserOpt = Annotated[str, typer.Option("--user", "-u", help="User id")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout")]
REPO_ROOT = Path(__file__).resolve().parents[2]


def load_settings() -> Settings:
    from finagent.config import get_settings

    try:
        return get_settings()
    except Exception as exc:  # invalid environment
        fail(f"invalid settings: {exc}")


def print_json(value: Any) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def run(factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a command's coroutine; an unavailable index or database is a one-line error."""
    return run_command(factory())
