"""resilient_call: one order of cache, breaker, total deadline and retries."""

from __future__ import annotations

import asyncio

import pytest

from finagent.clients.breaker import Breaker
from finagent.clients.budget import answer_budget, remaining_s
from finagent.clients.errors import CircuitOpenError, TransientServiceError
from finagent.clients.resilient import (
    BudgetExhausted,
    CallPolicy,
    DeadlineExceeded,
    resilient_call,
)
from finagent.clients.stale_cache import StaleCache


class Upstream:
    """A stand-in for a remote service: fails ``failures`` times, then answers."""

    def __init__(self, failures: int = 0, hang: bool = False) -> None:
        self.calls = 0
        self.failures = failures
        self.hang = hang

    async def __call__(self) -> str:
        self.calls += 1
        if self.hang:
            await asyncio.Event().wait()  # never set: an upstream that never answers
        if self.calls <= self.failures:
            raise TransientServiceError("HTTP 503")
        return "ok"


def policy(**kwargs: float) -> CallPolicy:
    values = {"deadline_s": 5.0, "attempts": 3, "backoff_s": 0.0} | kwargs
    return CallPolicy("test", **values)  # type: ignore[arg-type]


async def test_a_retried_call_counts_once_toward_the_breaker() -> None:
    breaker = Breaker("retried-once", threshold=2, ttl_s=60)
    upstream = Upstream(failures=100)
    with pytest.raises(TransientServiceError):
        await resilient_call(upstream, policy=policy(attempts=3), breaker=breaker)
    assert upstream.calls == 3  # three attempts on the wire ...
    assert await breaker.failures() == 1  # ... one failure for the breaker
    assert await breaker.state() == "closed"

    with pytest.raises(TransientServiceError):
        await resilient_call(upstream, policy=policy(attempts=3), breaker=breaker)
    assert await breaker.state() == "opened"
    with pytest.raises(CircuitOpenError):
        await resilient_call(upstream, policy=policy(attempts=3), breaker=breaker)
    assert upstream.calls == 6  # refused without reaching the upstream


async def test_a_call_that_succeeds_on_retry_is_no_failure() -> None:
    breaker = Breaker("retry-succeeds", threshold=1, ttl_s=60)
    upstream = Upstream(failures=2)
    hit = await resilient_call(upstream, policy=policy(attempts=3), breaker=breaker)
    assert hit.value == "ok" and not hit.stale and upstream.calls == 3
    assert await breaker.state() == "closed" and await breaker.failures() == 0


async def test_the_deadline_covers_all_attempts_and_counts_once() -> None:
    breaker = Breaker("deadline", threshold=5, ttl_s=60)
    upstream = Upstream(hang=True)
    with pytest.raises(DeadlineExceeded) as info:
        await resilient_call(upstream, policy=policy(deadline_s=0.05), breaker=breaker)
    assert upstream.calls == 1 and info.value.transient
    assert await breaker.failures() == 1


async def test_a_spent_answer_budget_refuses_without_a_call_or_a_breaker_count() -> None:
    breaker = Breaker("budget", threshold=1, ttl_s=60)
    upstream = Upstream()
    with answer_budget(0.0):
        with pytest.raises(BudgetExhausted):
            await resilient_call(upstream, policy=policy(), breaker=breaker)
    assert upstream.calls == 0
    assert await breaker.state() == "closed"


async def test_the_budget_shortens_the_deadline_and_nested_budgets_never_extend() -> None:
    with answer_budget(1.0):
        assert policy(deadline_s=5.0).time_limit() <= 1.0
        with answer_budget(100.0):
            left = remaining_s()
            assert left is not None and left <= 1.0
    assert remaining_s() is None


async def test_stale_value_served_when_the_deadline_passes() -> None:
    cache: StaleCache[str, str] = StaleCache(clock=lambda: 0.0)
    first = await resilient_call(Upstream(), policy=policy(), cache=cache, key="k", ttl_s=-1.0)
    assert first.value == "ok" and not first.stale
    hung = Upstream(hang=True)
    again = await resilient_call(
        hung, policy=policy(deadline_s=0.05), cache=cache, key="k", ttl_s=10.0
    )
    assert again.stale and again.value == "ok" and hung.calls == 1


async def test_fresh_cache_needs_no_call() -> None:
    cache: StaleCache[str, str] = StaleCache()
    await resilient_call(Upstream(), policy=policy(), cache=cache, key="k", ttl_s=60.0)
    upstream = Upstream(failures=100)
    hit = await resilient_call(upstream, policy=policy(), cache=cache, key="k", ttl_s=60.0)
    assert hit.value == "ok" and upstream.calls == 0
