"""One resilient external call: cache, circuit breaker, total deadline, retries.

:func:`resilient_call` is the only way the Bank of Russia, Tavily and internal-search
clients reach their services. The layers, from the outside in:

1. **fresh cache** - a fresh cached value is returned without any call;
2. **stale fallback** - when the layers below fail with "service unavailable" (transient
   error, deadline, open circuit) and an expired value is cached, it is returned marked
   ``stale`` instead of the error;
3. **answer budget** - when the current answer's budget (:mod:`finagent.clients.budget`)
   is already spent, :class:`BudgetExhausted` is raised at once, without touching the
   service or the breaker;
4. **circuit breaker** (purgatory) - one logical call, whatever its retries, counts ONCE:
   an open circuit refuses the call at once with :class:`CircuitOpenError`;
5. **total deadline** - ``asyncio.timeout`` of ``min(policy.deadline_s, budget left)``
   around all attempts, backoff waits and slow bodies (a server dripping a byte every few
   seconds never trips a per-read timeout, but trips this one): :class:`DeadlineExceeded`;
6. **retries** (tenacity) - exponential backoff with jitter, transient failures only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Hashable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import TypeVar

from finagent.clients.breaker import Breaker
from finagent.clients.budget import remaining_s
from finagent.clients.errors import (
    ExternalServiceError,
    TransientServiceError,
    is_transient,
    is_unavailable,
)
from finagent.clients.retries import retry_policy
from finagent.clients.stale_cache import CacheHit, StaleCache
from finagent.observability import get_logger

log = get_logger("finagent.clients")

T = TypeVar("T")
K = TypeVar("K", bound=Hashable)


class DeadlineExceeded(TransientServiceError):
    """The call (all its attempts) did not finish within its total deadline."""

    def __init__(self, service: str, seconds: float) -> None:
        super().__init__(f"{service} did not answer within {seconds:.1f} s")
        self.service = service
        self.seconds = seconds


class BudgetExhausted(ExternalServiceError):
    """The answer's time budget was spent before this call could start.

    Not transient: it says nothing about the service, so the breaker does not count it.
    """

    def __init__(self, service: str) -> None:
        super().__init__(f"no time left in the answer budget to call {service}")
        self.service = service


def can_fall_back(exc: BaseException) -> bool:
    """Errors after which a stale cached value may be served."""
    return is_unavailable(exc) or isinstance(exc, BudgetExhausted)


@dataclass(frozen=True)
class CallPolicy:
    """Limits of one service's calls (built from Settings by each client)."""

    service: str
    deadline_s: float
    attempts: int = 3
    backoff_s: float = 0.2
    retry_if: Callable[[BaseException], bool] = is_transient

    def time_limit(self) -> float:
        """``deadline_s``, or less when the answer budget has less left."""
        left = remaining_s()
        return self.deadline_s if left is None else min(self.deadline_s, left)


async def resilient_call(
    fetch: Callable[[], Awaitable[T]],
    *,
    policy: CallPolicy,
    breaker: Breaker | None = None,
    cache: StaleCache[K, T] | None = None,
    key: K | None = None,
    ttl_s: float | Callable[[T], float] = 0.0,
    fallback_if: Callable[[BaseException], bool] = can_fall_back,
) -> CacheHit[T]:
    """``fetch()`` through the layers listed in the module docstring.

    ``fetch`` is one attempt (it is called again on a retry). With ``cache`` and ``key``
    a fresh value is served from the cache, a new value is stored for ``ttl_s`` and a
    stale one is served when the call fails with a ``fallback_if`` error. Returns the
    value with its freshness; errors the fallback cannot cover propagate.
    """
    cached = cache is not None and key is not None
    if cached:
        assert cache is not None and key is not None
        hit = cache.get_fresh(key)
        if hit is not None:
            return hit
    try:
        value = await _guarded(fetch, policy, breaker)
    except Exception as exc:
        stale = cache.get_stale(key) if cached and fallback_if(exc) else None  # type: ignore[union-attr, arg-type]
        if stale is None:
            raise
        # never the key: it may hold the query and the user id
        log.warning(
            "stale_cache_served",
            service=policy.service,
            error_type=type(exc).__name__,
            error_kind=getattr(exc, "kind", None) or type(exc).__name__,
            age_s=round((datetime.now(UTC) - stale.fetched_at).total_seconds()),
        )
        return stale
    if not cached:
        return CacheHit(value, datetime.now(UTC))
    assert cache is not None and key is not None
    return cache.put(key, value, ttl_s(value) if callable(ttl_s) else ttl_s)


async def _guarded(
    fetch: Callable[[], Awaitable[T]], policy: CallPolicy, breaker: Breaker | None
) -> T:
    limit = policy.time_limit()
    if limit <= 0:
        raise BudgetExhausted(policy.service)
    if breaker is None:
        return await _within_deadline(fetch, policy, limit)
    async with breaker.guard():  # outside the retries: one call counts once
        return await _within_deadline(fetch, policy, limit)


async def _within_deadline(
    fetch: Callable[[], Awaitable[T]], policy: CallPolicy, limit: float
) -> T:
    timeout = asyncio.timeout(limit)
    try:
        async with timeout:
            async for attempt in retry_policy(
                policy.attempts,
                initial_s=policy.backoff_s,
                max_s=max(policy.backoff_s * 8, 0.0),
                jitter_s=policy.backoff_s / 2,
                retry_if=policy.retry_if,
            ):
                with attempt:
                    return await fetch()
    except TimeoutError:
        if timeout.expired():
            raise DeadlineExceeded(policy.service, limit) from None
        raise
    raise AssertionError("unreachable")  # pragma: no cover
