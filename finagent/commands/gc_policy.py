"""Garbage collection of a ``finagent`` process: cheap start-up and exit.

A command such as ``ask`` imports some 1 800 modules (LangGraph, LangChain, pydantic,
pymorphy3 dictionaries) and keeps nearly every object it allocates until it exits. With
CPython's default thresholds (a collection every 700 net allocations) the collector runs
thousands of times during the imports and traverses ever more long-lived objects; at exit
the interpreter runs one more full collection over all of them. Together that was about a
fifth of an offline answer's CPU time (docs/first-run.md, "Fast CLI start").

``startup()`` raises the young-generation threshold for the command's start-up and freezes
everything alive at exit, so the final collection has nothing to traverse (objects are
still released by reference counting; only unreachable cycles left at exit are not
collected, which the interpreter does not promise to finalise anyway). A long-running
command (``serve``, ``mcp``) calls ``settled()`` once it has loaded everything: what exists
then is frozen out of every later collection and the default thresholds come back.
"""

from __future__ import annotations

import atexit
import gc

# a young-generation collection every 50 000 net allocations during start-up (CPython's
# default is 700); the older generations keep their default ratios
STARTUP_THRESHOLD = 50_000
_DEFAULTS: tuple[int, int, int] | None = None


def startup() -> None:
    """Set the start-up policy; call once, first thing in the entry point."""
    global _DEFAULTS
    if _DEFAULTS is not None:
        return
    _DEFAULTS = gc.get_threshold()
    gc.set_threshold(STARTUP_THRESHOLD, _DEFAULTS[1], _DEFAULTS[2])
    # atexit runs handlers last-registered first: this one, registered before any
    # command runs, comes after the others, right before the interpreter's final pass
    atexit.register(gc.freeze)


def settled() -> None:
    """Start-up is over (a server about to serve): freeze what is alive, restore defaults."""
    gc.collect()  # start-up garbage goes now, not into the permanent generation
    gc.freeze()
    if _DEFAULTS is not None:
        gc.set_threshold(*_DEFAULTS)
