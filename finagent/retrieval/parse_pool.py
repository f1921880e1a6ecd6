"""Parsing uploaded PDF and DOCX files in a bounded pool of worker processes.

A hostile or merely huge file must not cost the service its memory or its CPU:

- at most ``parse_workers`` files are parsed at once, whoever sent them;
- each file is parsed in its own short-lived process (pebble ``max_tasks=1``), so the
  memory a parser took is returned to the OS when the process exits;
- a parse that runs longer than ``parse_timeout_s`` is stopped by killing its process;
- the text may not be longer than ``max_document_chars``.

Processes come from a ``forkserver`` with the parsers pre-imported: starting one is cheap
and never forks the service's own threads. Which files go to the pool is decided by their
content (:mod:`~finagent.retrieval.sniff`), not their names: plain text is cheap to read
and stays in a thread.
"""

from __future__ import annotations

import asyncio
import atexit
import logging
import multiprocessing
import os
import sys
import threading
import warnings
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from pebble import ProcessExpired, ProcessPool

from finagent.config import Settings
from finagent.observability import get_logger
from finagent.retrieval.loaders import DocumentLoadError, check_file, load_text
from finagent.retrieval.sniff import Kind, sniff

log = get_logger("finagent.parse_pool")

_PRELOAD = ["finagent.retrieval.loaders", "docx", "pypdf"]

_pools: dict[int, ProcessPool] = {}
_lock = threading.Lock()


# A parse is batch work: its process yields the CPU to the service's questions.
PARSE_NICENESS = 10


def _yield_cpu() -> None:
    """Runs first in each worker process."""
    os.nice(PARSE_NICENESS)
    # the worker is finagent's own process, not the host's, and nothing collects its log
    # records: without this, pypdf's English warnings about a damaged file ("EOF marker not
    # found") reach stderr through logging's last-resort handler, beside the one Russian
    # error the parent reports for that file
    logging.getLogger("pypdf").setLevel(logging.ERROR)


def _kind(path: Path, max_bytes: int) -> Kind:
    """Cheap checks and sniffing, before anything is parsed."""
    check_file(path, max_bytes)
    return sniff(path)


def _parse(path: str, max_bytes: int, max_chars: int) -> str:
    """Runs in a worker process: the file's text, or DocumentLoadError."""
    text = load_text(Path(path), max_bytes)
    if len(text) > max_chars:
        raise DocumentLoadError(
            f"{Path(path).name}: текст слишком длинный ({len(text)} символов, "
            f"допустимо не больше {max_chars})"
        )
    return text


# A worker re-runs the main module (``python -m finagent.cli``) that the forkserver already
# preloaded; runpy then warns that the module is in sys.modules. The re-run is intended
# (see _preload), so the warning would only be noise on the user's terminal. The filter is
# installed wherever this module is imported, the forkserver included.
warnings.filterwarnings(
    "ignore", message=r".*found in sys\.modules after import of package", category=RuntimeWarning
)


def _preload() -> list[str]:
    """Modules the forkserver imports once, so that starting a worker is cheap.

    multiprocessing re-runs the main module in every worker it starts (the ``__main__``
    preload of Python 3.11 does not work). With finagent's modules already imported by
    the forkserver - all that this process has loaded, and with them langgraph and the
    rest - that re-run of ``finagent serve`` or of a user's script only executes its top
    level (milliseconds instead of many seconds of imports).
    """
    loaded = sorted(m for m in sys.modules if m == "finagent" or m.startswith("finagent."))
    modules = [*_PRELOAD, *(m for m in loaded if m not in _PRELOAD)]
    spec = getattr(sys.modules.get("__main__"), "__spec__", None)
    if spec is not None and spec.name not in ("__main__", "") and spec.name not in modules:
        modules.append(spec.name)  # a main module run with ``python -m``
    return modules


def _pool(workers: int) -> ProcessPool:
    with _lock:
        pool = _pools.get(workers)
        if pool is None or not pool.active:
            context = multiprocessing.get_context("forkserver")
            context.set_forkserver_preload(_preload())
            pool = ProcessPool(
                max_workers=workers, max_tasks=1, context=context, initializer=_yield_cpu
            )
            _pools[workers] = pool
        return pool


@atexit.register
def shutdown_pools() -> None:
    """Stop every worker (also those still parsing)."""
    with _lock:
        pools = list(_pools.values())
        _pools.clear()
    for pool in pools:
        pool.stop()
        pool.join(timeout=5)


async def parse_document(path: Path, settings: Settings) -> str:
    """The text of an uploaded file, parsed within the pool's limits.

    Raises DocumentLoadError (Russian message) for a bad, too large or too slow file.
    """
    max_bytes, max_chars = settings.max_file_bytes, settings.max_document_chars
    # the content, not the name, says whether a parser runs: a PDF named .txt is pooled
    if await asyncio.to_thread(_kind, path, max_bytes) is Kind.TEXT:
        return await asyncio.to_thread(_parse, str(path), max_bytes, max_chars)
    future = _pool(settings.parse_workers).schedule(
        _parse, args=(str(path), max_bytes, max_chars), timeout=settings.parse_timeout_s
    )
    try:
        return await asyncio.wrap_future(future)  # cancelling this kills the worker
    except TimeoutError:
        raise DocumentLoadError(
            f"{path.name}: файл разбирался слишком долго (дольше "
            f"{settings.parse_timeout_s:g} с) и отклонён"
        ) from None
    except (ProcessExpired, BrokenProcessPool) as exc:
        # a worker died (e.g. killed for memory), or could not start: a script that
        # ingests must guard its top level with ``if __name__ == "__main__":``
        log.warning("parse_worker_failed", file=path.name, error_type=type(exc).__name__)
        raise DocumentLoadError(
            f"{path.name}: не удалось прочитать файл (обработка прервалась)"
        ) from None
