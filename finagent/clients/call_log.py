"""Log and count external calls: an ``external_call`` event (service, operation,
duration_ms, outcome) and the ``EXTERNAL_CALLS`` counter."""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable
from types import TracebackType
from typing import Any, ParamSpec, TypeVar

import httpx

from finagent.clients.errors import CircuitOpenError, is_transient
from finagent.observability import EXTERNAL_CALLS, get_logger

log = get_logger("finagent.clients")
P = ParamSpec("P")
R = TypeVar("R")


def outcome_of(exc: BaseException | None) -> str:
    """A short metric-friendly outcome name for an exception (or ``ok``)."""
    if exc is None:
        return "ok"
    if isinstance(exc, CircuitOpenError):
        return "circuit_open"
    if isinstance(exc, asyncio.CancelledError):
        return "cancelled"  # e.g. by resilient_call's total deadline
    timeouts = (httpx.TimeoutException, asyncio.TimeoutError, TimeoutError)
    if isinstance(exc, timeouts) or isinstance(exc.__cause__, timeouts):
        return "timeout"
    if is_transient(exc):
        return "unavailable"
    return "error"


class external_call:  # lower-case: used like a function
    """Log and count one external call; a (sync or async) context manager or decorator.

    ``async with external_call("cbr", "KeyRate") as call: ...`` emits an
    ``external_call`` event with service, operation, duration_ms and outcome, and
    increments ``EXTERNAL_CALLS{service,outcome}``. ``call.outcome`` may be set
    explicitly (e.g. ``"stale"``); ``call.extra`` adds safe fields (never payloads).
    """

    def __init__(self, service: str, operation: str, **extra: Any) -> None:
        self.service = service
        self.operation = operation
        self.extra: dict[str, Any] = dict(extra)
        self.outcome: str | None = None
        self._started = 0.0

    def _start(self) -> None:
        self._started = time.perf_counter()
        self.outcome = None

    def _finish(self, exc: BaseException | None) -> None:
        outcome = self.outcome or outcome_of(exc)
        EXTERNAL_CALLS.labels(service=self.service, outcome=outcome).inc()
        fields: dict[str, Any] = {
            "service": self.service,
            "operation": self.operation,
            "duration_ms": round((time.perf_counter() - self._started) * 1000, 1),
            "outcome": outcome,
            **self.extra,
        }
        if exc is not None:
            fields["error_type"] = type(exc).__name__
        (log.warning if exc is not None else log.info)("external_call", **fields)

    def __enter__(self) -> external_call:
        self._start()
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._finish(exc)

    async def __aenter__(self) -> external_call:
        return self.__enter__()

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._finish(exc)

    def __call__(self, fn: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
        """Decorate an async function: each call is one logged external call."""

        @functools.wraps(fn)
        async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
            async with external_call(self.service, self.operation, **self.extra):
                return await fn(*args, **kwargs)

        return wrapper
