"""SQLite connections that do not hold the interpreter at exit.

aiosqlite runs each connection on a non-daemon worker thread, and the interpreter joins
such threads before ``atexit`` handlers (and ``weakref.finalize``) run: a host that never
closes its graphs (no ``aclose_graphs``) would hang at exit. Every connection opened
through :func:`stop_at_exit` is stopped by the interpreter's thread-shutdown hook, which
runs just before that join: ``Connection.stop`` queues the close of the SQLite connection
on the worker thread itself and ends it, with no event loop needed. Committed data is
already on disk; a connection closed normally is forgotten first.
"""

from __future__ import annotations

import threading
import warnings
import weakref
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import aiosqlite

_OPEN: weakref.WeakSet[aiosqlite.Connection] = weakref.WeakSet()
_hooked = False


def _stop_open() -> None:
    for conn in list(_OPEN):
        _OPEN.discard(conn)
        with warnings.catch_warnings():
            # stop() looks for an event loop; at exit there is none (or a closed one)
            warnings.simplefilter("ignore", DeprecationWarning)
            conn.stop()


def _register(hook: Callable[[], None]) -> bool:
    """Run ``hook`` before the interpreter joins non-daemon threads (CPython's
    ``threading._register_atexit``, which ``concurrent.futures`` uses the same way)."""
    register: Any = getattr(threading, "_register_atexit", None)
    if register is None:
        return False
    try:
        register(hook)
    except RuntimeError:  # the interpreter is already shutting down
        return False
    return True


def stop_at_exit(conn: aiosqlite.Connection) -> None:
    """Stop ``conn``'s worker thread at interpreter exit unless it is closed before."""
    global _hooked
    if not _hooked:
        _hooked = _register(_stop_open)
    _OPEN.add(conn)


def forget(conn: aiosqlite.Connection) -> None:
    """``conn`` was closed: nothing to stop at exit."""
    _OPEN.discard(conn)
