"""The ``finagent`` command: assembles the command modules of :mod:`finagent.commands`.

Each command or command group lives in its own module there; those modules import only
Typer at load time, the rest inside the commands. The app is built on first use
(``main()`` or ``finagent.cli.app``).
"""

from __future__ import annotations

import signal
import sys
from functools import cache
from types import FrameType
from typing import Annotated

import typer


def _print_version(value: bool) -> None:
    if value:
        from finagent import __version__

        typer.echo(f"finagent {__version__}")
        raise typer.Exit()


def _main(
    verbose: Annotated[
        bool, typer.Option("--verbose", "-v", help="Log to stderr (INFO) instead of the log file")
    ] = False,
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            help="Print the version and exit",
            callback=_print_version,
            is_eager=True,
        ),
    ] = False,
) -> None:
    from finagent.commands.common import VERBOSE
    from finagent.observability import configure_logging

    VERBOSE["on"] = verbose
    configure_logging("INFO" if verbose else "WARNING")  # until the settings choose the log


@cache
def build_app() -> typer.Typer:
    """The ``finagent`` Typer app with every command and command group."""
    from finagent.commands import (
        ask,
        demo,
        embeddings,
        ingest,
        mcp,
        research,
        route,
        search,
        serve,
        tools,
    )
    from finagent.commands import eval as evaluation

    app = typer.Typer(
        help="finagent: Russian finance and tax answers with cited sources.",
        no_args_is_help=True,
        add_completion=False,
        rich_markup_mode=None,
    )
    app.callback()(_main)
    app.add_typer(ingest.app, name="ingest")
    app.add_typer(tools.app, name="tools")
    app.command()(ask.ask)
    app.command()(route.route)
    app.command()(search.search)
    app.command()(demo.demo)
    app.command()(serve.serve)
    app.command("research")(research.research)
    app.command("mcp")(mcp.mcp)
    app.add_typer(evaluation.app, name="eval")
    app.add_typer(embeddings.app, name="embeddings")
    return app


def __getattr__(name: str) -> typer.Typer:
    if name == "app":
        return build_app()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _stop(signum: int, frame: FrameType | None) -> None:
    raise SystemExit(128 + signum)


def main() -> None:
    # SIGTERM ends a command the way Ctrl-C does, so that ``finally`` blocks and atexit
    # handlers run: the parse pool stops its workers and multiprocessing removes its
    # ``pymp-*`` folder from the temp dir. ``finagent serve`` gets the signal after
    # uvicorn's graceful shutdown (uvicorn re-raises it to the handler installed before).
    signal.signal(signal.SIGTERM, _stop)
    from finagent.commands import gc_policy

    gc_policy.startup()
    try:
        build_app()()
    except KeyboardInterrupt:
        sys.exit(130)
    except Exception as exc:
        _exit_if_extra_missing(exc)
        raise


def _exit_if_extra_missing(exc: BaseException) -> None:
    """A command that needs an optional part whose extra is not installed (the server, MCP,
    PostgreSQL) ends with one line naming ``pip install 'finagent[...]'``, not a traceback."""
    from finagent.extras import missing_extra

    missing = missing_extra(exc)
    if missing is not None:
        from finagent.commands.running import ERROR_PREFIX

        typer.echo(f"{ERROR_PREFIX} {missing.user_message}", err=True)
        sys.exit(2)


if __name__ == "__main__":
    main()
