"""Running a command's coroutine with the failures a user can act on shown as one line."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any, TypeVar

import typer

from finagent.observability import redact

T = TypeVar("T")

UNAVAILABLE_EXIT_CODE = 3


def run_command(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)``; an unavailable index or database becomes ``Error: ...`` and
    exit code 3 instead of a traceback (the message is redacted)."""
    from finagent.retrieval.index import IndexUnavailableError
    from finagent.storage.errors import StorageUnavailableError

    try:
        return asyncio.run(coro)
    except (IndexUnavailableError, StorageUnavailableError) as exc:
        typer.echo(f"Error: {redact(str(exc))}", err=True)
        raise typer.Exit(UNAVAILABLE_EXIT_CODE) from None
