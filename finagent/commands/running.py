"""Running a command's coroutine with the failures a user can act on shown as one line."""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any, NoReturn, TypeVar

import typer

T = TypeVar("T")

UNAVAILABLE_EXIT_CODE = 3


ERROR_PREFIX = "Ошибка:"  # user-facing CLI errors are Russian; log records stay English


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``Ошибка: message`` (redacted) on stderr and exit with ``code``."""
    from finagent.observability import redact

    typer.echo(f"{ERROR_PREFIX} {redact(message)}", err=True)
    raise typer.Exit(code)


def run_command(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)``; an unavailable index or database becomes one ``Ошибка: ...``
    line (its Russian ``user_message``, or a Russian lead and the technical detail) and
    exit code 3 instead of a traceback (the message is redacted)."""
    import asyncio

    from finagent.retrieval.index import IndexUnavailableError
    from finagent.storage.errors import StorageUnavailableError

    try:
        return asyncio.run(coro)
    except IndexUnavailableError as exc:
        fail(exc.user_message or f"индекс недоступен ({exc})", UNAVAILABLE_EXIT_CODE)
    except StorageUnavailableError as exc:
        fail(exc.user_message or f"база данных недоступна ({exc})", UNAVAILABLE_EXIT_CODE)
