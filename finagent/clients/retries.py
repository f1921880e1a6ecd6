"""Tenacity retries with exponential backoff and jitter, on transient failures only."""

from __future__ import annotations

from collections.abc import Callable

from tenacity import (
    AsyncRetrying,
    retry_if_exception,
    stop_after_attempt,
    wait_exponential_jitter,
)

from finagent.clients.errors import is_transient


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
