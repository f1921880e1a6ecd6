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


VERBOSE = {"on": False}  # set by ``finagent -v``


def load_settings(log_to_stderr: bool = False) -> Settings:
    """The settings; the log then goes to the log file at the configured level, or to stderr
    (at INFO or lower) with ``-v`` or ``log_to_stderr`` (a service)."""
    from finagent.config import get_settings
    from finagent.observability import configure_logging

    try:
        settings = get_settings()
    except Exception as exc:  # invalid environment
        fail(f"неверные настройки: {exc}")
    from finagent.extras import MissingExtraError, require_configured

    try:
        require_configured(settings)  # e.g. FINAGENT_POSTGRES_URL without finagent[postgres]
    except MissingExtraError as exc:
        fail(exc.user_message)
    if VERBOSE["on"]:
        detailed = settings.log_level.upper() in {"DEBUG", "INFO"}
        configure_logging(settings.log_level if detailed else "INFO")
    elif log_to_stderr:
        configure_logging(settings.log_level)
    else:
        configure_logging(settings.log_level, file=log_file(settings))
    return settings


def log_file(settings: Settings) -> Path:
    return settings.log_file or settings.data_dir / "finagent.log"


def print_json(value: Any) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def run(factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a command's coroutine; an unavailable index or database is a one-line error."""
    return run_command(factory())
