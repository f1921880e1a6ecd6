"""Reusable resilience helpers for external clients.

* :func:`retry_policy` - tenacity retries with exponential backoff and jitter on
  transient failures only (5xx, transport errors, timeouts; never 4xx).
* :class:`Breaker` - a purgatory async circuit breaker that counts only transient
  failures and raises :class:`CircuitOpenError` while open.
* :class:`StaleCache` - per-entry TTL cache that keeps the last good value so a caller
  can serve it, marked stale, when the live service fails.
* :class:`external_call` - context manager / decorator that logs an ``external_call``
  event (service, operation, duration_ms, outcome) and counts ``EXTERNAL_CALLS``.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Hashable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from types import TracebackType
from typing import TYPE_CHECKING, Any, Generic, ParamSpec, TypeVar

import httpx
from cachetools import LRUCache
from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential_jitter,
)

from finagent.observability import EXTERNAL_CALLS, get_logger

if TYPE_CHECKING:  # purgatory pulls in redis: imported when a breaker is built
    from purgatory import AsyncCircuitBreakerFactory

log = get_logger("finagent.clients")

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")
P = ParamSpec("P")
R = TypeVar("R")


# --- errors ----------------------------------------------------------------------------


class ExternalServiceError(Exception):
    """A failure of an external service.

    ``transient`` errors (5xx, transport, timeouts, garbage replies) are retried, count
    against the circuit breaker and allow a stale-cache fallback; the others (4xx, a
    SOAP fault on bad input) are the caller's problem and are reported as is.
    """

    transient: bool = False

    def __init__(self, message: str, *, transient: bool | None = None) -> None:
        super().__init__(message)
        if transient is not None:
            self.transient = transient


class TransientServiceError(ExternalServiceError):
    """The service is down, slow or answered garbage: try again later."""

    transient = True


class CircuitOpenError(ExternalServiceError):
    """The circuit breaker is open: calls are refused without reaching the service."""

    transient = False

    def __init__(self, service: str, retry_after_s: float | None = None) -> None:
        hint = f"; retry in about {retry_after_s:.0f}s" if retry_after_s else ""
        super().__init__(f"{service} is temporarily unavailable (circuit open{hint})")
        self.service = service
        self.retry_after_s = retry_after_s


def is_transient(exc: BaseException) -> bool:
    """True for failures worth retrying: 5xx, transport errors, timeouts."""
    if isinstance(exc, ExternalServiceError):
        return exc.transient
    if isinstance(exc, httpx.HTTPStatusError):
        return exc.response.status_code >= 500
    return isinstance(exc, httpx.TransportError | asyncio.TimeoutError | TimeoutError)


def is_unavailable(exc: BaseException) -> bool:
    """True when the service could not give an answer (transient or circuit open)."""
    return isinstance(exc, CircuitOpenError) or is_transient(exc)


# --- retries ---------------------------------------------------------------------------


def retry_policy(
    attempts: int = 3,
    *,
    initial_s: float = 0.2,
    max_s: float = 2.0,
    jitter_s: float = 0.2,
    retry_if: Callable[[BaseException], bool] = is_transient,
) -> AsyncRetrying:
    """A tenacity policy: ``async for attempt in retry_policy(): with attempt: ...``.

    Retries only when ``retry_if(exc)`` (default: transient failures), waits
    ``initial_s * 2**n`` (capped at ``max_s``) plus random jitter, and re-raises the last
    error after ``attempts`` tries.
    """
    return AsyncRetrying(
        stop=stop_after_attempt(max(1, attempts)),
        wait=wait_exponential_jitter(initial=initial_s, max=max_s, jitter=jitter_s),
        retry=retry_if_exception(retry_if),
        reraise=True,
    )


# --- circuit breaker -------------------------------------------------------------------


def circuit_breaker_factory(
    threshold: int = 5,
    ttl_s: float = 30.0,
    counts_as_failure: Callable[[BaseException], bool] = is_transient,
) -> AsyncCircuitBreakerFactory:
    """A purgatory factory whose breakers count only ``counts_as_failure`` errors."""
    from purgatory import AsyncCircuitBreakerFactory

    return AsyncCircuitBreakerFactory(
        default_threshold=threshold,
        default_ttl=ttl_s,
        exclude=[(BaseException, lambda exc: not counts_as_failure(exc))],
    )


class Breaker:
    """One named circuit: ``async with breaker.guard(): ...`` raises CircuitOpenError when open.

    After ``threshold`` consecutive counted failures the circuit opens for ``ttl_s``
    seconds; the first call after that is let through (half-open): success closes the
    circuit, failure opens it again.
    """

    def __init__(
        self,
        name: str,
        *,
        threshold: int = 5,
        ttl_s: float = 30.0,
        factory: AsyncCircuitBreakerFactory | None = None,
        counts_as_failure: Callable[[BaseException], bool] = is_transient,
    ) -> None:
        self.name = name
        self.threshold = threshold
        self.ttl_s = ttl_s
        self._counts_as_failure = counts_as_failure
        self._factory = factory  # built on first use: purgatory imports redis

    async def _get(self) -> Any:
        if self._factory is None:
            self._factory = circuit_breaker_factory(
                self.threshold, self.ttl_s, self._counts_as_failure
            )
        return await self._factory.get_breaker(self.name, self.threshold, self.ttl_s)

    async def state(self) -> str:
        """``closed``, ``opened`` or ``half-opened`` (purgatory's names)."""
        return str((await self._get()).context.state)

    async def failures(self) -> int:
        """Counted failures since the circuit last closed."""
        return int((await self._get()).context.failure_count or 0)

    async def reopen_at(self) -> float | None:
        """``time.time()`` after which an open circuit lets a probe call through."""
        ctx = (await self._get()).context
        if ctx.state != "opened" or ctx.opened_at is None:
            return None
        return float(ctx.opened_at) + float(ctx.ttl)

    async def _enter(self) -> Any:
        from purgatory.domain.model import OpenedState

        brk = await self._get()
        try:
            await brk.__aenter__()
        except OpenedState as exc:
            retry_after = exc.opened_at + self.ttl_s - time.time()
            raise CircuitOpenError(self.name, max(0.0, retry_after)) from None
        return brk

    @asynccontextmanager
    async def guard(self) -> AsyncIterator[None]:
        """``async with breaker.guard(): ...`` (safe for concurrent callers)."""
        brk = await self._enter()
        try:
            yield
        except BaseException as exc:
            await brk.__aexit__(type(exc), exc, exc.__traceback__)
            raise
        await brk.__aexit__(None, None, None)

    async def call(self, fn: Callable[[], Awaitable[R]]) -> R:
        """Run ``fn()`` through the breaker."""
        async with self.guard():
            return await fn()


# --- stale cache -----------------------------------------------------------------------


@dataclass(frozen=True)
class CacheHit(Generic[V]):
    """A cached or freshly fetched value; ``stale`` when served after a failed refresh."""

    value: V
    fetched_at: datetime
    stale: bool = False


@dataclass
class _Entry(Generic[V]):
    value: V
    fetched_at: datetime
    expires_at: float


class StaleCache(Generic[K, V]):
    """Per-entry TTL cache that keeps expired values as a stale fallback.

    ``clock`` (monotonic seconds) is injectable for tests. Expired entries are not
    dropped until the LRU bound ``maxsize`` pushes them out.
    """

    def __init__(self, maxsize: int = 1024, clock: Callable[[], float] = time.monotonic) -> None:
        self._entries: LRUCache[K, _Entry[V]] = LRUCache(maxsize=maxsize)
        self._clock = clock

    def put(self, key: K, value: V, ttl_s: float) -> CacheHit[V]:
        entry = _Entry(value, datetime.now(UTC), self._clock() + ttl_s)
        self._entries[key] = entry
        return CacheHit(value, entry.fetched_at, stale=False)

    def get_fresh(self, key: K) -> CacheHit[V] | None:
        entry = self._entries.get(key)
        if entry is None or entry.expires_at <= self._clock():
            return None
        return CacheHit(entry.value, entry.fetched_at, stale=False)

    def get_stale(self, key: K) -> CacheHit[V] | None:
        """The last good value whatever its age, marked stale."""
        entry = self._entries.get(key)
        if entry is None:
            return None
        return CacheHit(entry.value, entry.fetched_at, stale=True)

    def clear(self) -> None:
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)

    async def get_or_fetch(
        self,
        key: K,
        fetch: Callable[[], Awaitable[V]],
        ttl_s: float | Callable[[V], float],
        *,
        fallback_if: Callable[[BaseException], bool] = is_unavailable,
    ) -> CacheHit[V]:
        """Fresh value from cache, else ``fetch()``; on a ``fallback_if`` error serve stale.

        Errors without a stale value (or not matching ``fallback_if``) propagate.
        """
        hit = self.get_fresh(key)
        if hit is not None:
            return hit
        try:
            value = await fetch()
        except Exception as exc:
            stale = self.get_stale(key) if fallback_if(exc) else None
            if stale is None:
                raise
            log.warning("stale_cache_served", key=str(key), error=type(exc).__name__)
            return stale
        ttl = ttl_s(value) if callable(ttl_s) else ttl_s
        return self.put(key, value, ttl)


# --- observability ---------------------------------------------------------------------


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
