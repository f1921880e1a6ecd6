"""Optional parts of finagent and the pip extra that installs each (docs/configuration.md).

The core install runs the agent alone (``finagent demo``, ``finagent ask``, the library).
The HTTP service, the MCP server, PostgreSQL and the evaluation notebook need an extra;
a missing one is reported as :class:`MissingExtraError`, one line naming the ``pip
install`` command, never a traceback.
"""

from __future__ import annotations

import importlib
from collections.abc import Iterator

from finagent.config import Settings

#: Top-level (or dotted) module -> the extra that installs it.
EXTRA_OF_MODULE: dict[str, str] = {
    "fastapi": "server",
    "starlette": "server",
    "uvicorn": "server",
    "sse_starlette": "server",
    "langserve": "server",
    "multipart": "server",
    "python_multipart": "server",
    "mcp": "mcp",
    "langchain_mcp_adapters": "mcp",
    "psycopg": "postgres",
    "psycopg_pool": "postgres",
    "langgraph.checkpoint.postgres": "postgres",
    "pandas": "eval",
    "nbclient": "eval",
    "ipykernel": "eval",
}

#: What each extra enables, for the messages (Russian: the CLI shows them to people).
PURPOSE = {
    "server": "HTTP-сервиса (finagent serve)",
    "mcp": "MCP (finagent mcp и MCP-инструменты исследований)",
    "postgres": "PostgreSQL (FINAGENT_POSTGRES_URL)",
    "eval": "блокнота оценки (evals/notebooks)",
}


def modules_of(extra: str) -> list[str]:
    """The optional modules that ``extra`` installs."""
    return [module for module, of in EXTRA_OF_MODULE.items() if of == extra]


def install_hint(extra: str) -> str:
    """The pip command that installs ``extra``."""
    return f"pip install 'finagent[{extra}]'"


class MissingExtraError(ImportError):
    """An optional part is used but its extra is not installed.

    ``str()`` is English (library users, logs); ``user_message`` is the Russian line the
    CLI prints.
    """

    def __init__(self, extra: str, module: str) -> None:
        super().__init__(
            f"finagent[{extra}] is not installed (no module {module!r}): {install_hint(extra)}",
            name=module,
        )
        self.extra = extra
        self.module = module
        self.user_message = (
            f"для {PURPOSE.get(extra, extra)} нужен дополнительный пакет finagent[{extra}] "
            f"(нет модуля {module}): {install_hint(extra)}"
        )


def extra_of(module: str | None) -> str | None:
    """The extra that installs ``module`` (or its package), if it is an optional one."""
    if not module:
        return None
    parts = module.split(".")
    for end in range(len(parts), 0, -1):
        extra = EXTRA_OF_MODULE.get(".".join(parts[:end]))
        if extra is not None:
            return extra
    return None


def _chain(exc: BaseException) -> Iterator[BaseException]:
    """``exc``, its causes and contexts, and the members of exception groups."""
    seen: set[int] = set()
    todo = [exc]
    while todo:
        current = todo.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        yield current
        if isinstance(current, BaseExceptionGroup):
            todo.extend(current.exceptions)
        todo.extend(e for e in (current.__cause__, current.__context__) if e is not None)


def missing_extra(exc: BaseException) -> MissingExtraError | None:
    """The missing extra behind ``exc`` (an import of an optional module that failed)."""
    for error in _chain(exc):
        if isinstance(error, MissingExtraError):
            return error
        if isinstance(error, ModuleNotFoundError):
            extra = extra_of(error.name)
            if extra is not None:
                return MissingExtraError(extra, error.name or extra)
    return None


def require(module: str) -> None:
    """Import ``module``; raise :class:`MissingExtraError` when its extra is missing."""
    try:
        importlib.import_module(module)
    except ModuleNotFoundError as exc:
        found = missing_extra(exc)
        if found is None:
            raise
        raise found from exc


def require_extra(extra: str) -> None:
    """Check every module of ``extra`` before a command that needs it starts anything (a
    lazily imported one would otherwise fail mid-request)."""
    for module in modules_of(extra):
        if module in ("multipart", "python_multipart"):
            continue  # one of the two, by version: FastAPI checks it itself
        require(module)


def configured_modules(settings: Settings) -> list[str]:
    """The optional modules the settings switch on (checked before anything starts)."""
    modules = []
    if settings.postgres_url is not None:
        modules.append("langgraph.checkpoint.postgres.aio")
    return modules


def require_configured(settings: Settings) -> None:
    """Raise :class:`MissingExtraError` for the first configured part whose extra is
    missing (today: PostgreSQL)."""
    for module in configured_modules(settings):
        require(module)
