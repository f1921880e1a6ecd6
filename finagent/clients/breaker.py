"""A purgatory async circuit breaker that counts only transient failures and raises
:class:`~finagent.clients.errors.CircuitOpenError` while open."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from finagent.clients.errors import CircuitOpenError, is_transient

if TYPE_CHECKING:  # purgatory pulls in redis: imported when a breaker is first used
    from purgatory import AsyncCircuitBreakerFactory

R = TypeVar("R")


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
