"""Tavily web search and page extraction: a thin async wrapper over ``tavily-python``.

Every SDK failure becomes a :class:`TavilyError` with a message that says what happened
and what to do; the API key never appears in messages or logs. Transient failures (5xx,
transport errors, unreadable replies) are retried with backoff and counted by a circuit
breaker; timeouts are not retried, and every call (its retries included) is bounded by
``tavily_deadline_s`` - all through :func:`~finagent.clients.resilient.resilient_call`.
Search results are cached per (user, query, parameters) for ``tavily_cache_ttl_s``; when
Tavily is unavailable (5xx, timeout, unreachable, circuit open) an expired cached answer
is returned marked ``stale`` instead of the error.
Errors are in :mod:`~finagent.clients.tavily_errors`, results in
:mod:`~finagent.clients.tavily_results`.
"""

from __future__ import annotations

import asyncio
import itertools
import weakref
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from finagent.clients.breaker import Breaker
from finagent.clients.call_log import external_call
from finagent.clients.errors import CircuitOpenError
from finagent.clients.resilient import (
    BudgetExhausted,
    CallPolicy,
    DeadlineExceeded,
    resilient_call,
)
from finagent.clients.stale_cache import CacheHit, StaleCache
from finagent.clients.tavily_errors import KEY_ENV, TavilyError, map_error, retryable, stale_allowed
from finagent.clients.tavily_results import (
    ExtractedPage,
    ExtractResult,
    FailedPage,
    SearchDepth,
    SearchResults,
    TimeRange,
    Topic,
    WebResult,
    payload_items,
    web_result,
)
from finagent.config import Settings
from finagent.observability import get_logger, redact, register_secrets

if TYPE_CHECKING:
    from tavily import AsyncTavilyClient

log = get_logger("finagent.clients.tavily")
SERVICE = "tavily"
CACHE_SIZE = 512
_DETAIL_LIMIT = 200
T = TypeVar("T")
SearchKey = tuple[Any, ...]


class TavilyClient:
    """Async Tavily client with error mapping, retries, circuit breaker and a search cache.

    ``cache`` (default: a :class:`StaleCache` of ``CACHE_SIZE`` entries) may be injected,
    e.g. with a manual clock in tests; ``tavily_cache_ttl_s = 0`` disables caching and
    with it the stale fallback.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        retry_attempts: int = 3,
        retry_initial_s: float = 0.2,
        breaker: Breaker | None = None,
        cache: StaleCache[SearchKey, list[WebResult]] | None = None,
    ) -> None:
        key = settings.tavily_api_key.get_secret_value() if settings.tavily_api_key else ""
        self._api_key = key.strip()
        if self._api_key:
            register_secrets([self._api_key])
        self._base_url = settings.tavily_base_url
        self._timeout_s = settings.tavily_timeout_s
        self._policy = CallPolicy(
            SERVICE,
            deadline_s=settings.tavily_deadline_s,
            attempts=retry_attempts,
            backoff_s=retry_initial_s,
            retry_if=retryable,
        )
        self._breaker = breaker or Breaker(
            SERVICE,
            threshold=settings.tavily_breaker_threshold,
            ttl_s=settings.tavily_breaker_ttl_s,
        )
        self._cache_ttl_s = settings.tavily_cache_ttl_s
        self._cache: StaleCache[SearchKey, list[WebResult]] | None = None
        if self._cache_ttl_s > 0:
            self._cache = cache if cache is not None else StaleCache(maxsize=CACHE_SIZE)
        self._sdk: AsyncTavilyClient | None = None
        self._sdk_loop: weakref.ref[asyncio.AbstractEventLoop] | None = None

    @property
    def configured(self) -> bool:
        return bool(self._api_key)

    async def search(
        self,
        query: str,
        *,
        max_results: int = 5,
        search_depth: SearchDepth = "advanced",
        topic: Topic = "finance",
        time_range: TimeRange | None = None,
        include_domains: Sequence[str] | None = None,
        user_id: str | None = None,
    ) -> SearchResults:
        """Search the web; results are cached per (user_id, query, parameters).

        When Tavily cannot answer (a ``STALE_FALLBACK_KINDS`` error) and an expired answer
        to the same request is cached, it is returned with ``stale=True``; otherwise the
        :class:`TavilyError` propagates.
        """
        query = query.strip()
        if not query:
            raise TavilyError("the search query is empty", kind="bad_request")
        domains = tuple(sorted(include_domains)) if include_domains else None
        key = (user_id, query, max_results, search_depth, topic, time_range, domains)

        async def call(sdk: AsyncTavilyClient) -> list[WebResult]:
            payload = await sdk.search(
                query,
                max_results=max_results,
                search_depth=search_depth,
                topic=topic,
                time_range=time_range,
                include_domains=list(domains) if domains else None,
                timeout=self._sdk_timeout(),
            )
            return [web_result(item) for item in payload_items(payload, "results")]

        hit = await self._call("search", call, key=key)
        return SearchResults(results=hit.value, fetched_at=hit.fetched_at, stale=hit.stale)

    async def extract(
        self, urls: list[str], *, extract_depth: Literal["basic", "advanced"] = "basic"
    ) -> ExtractResult:
        """Read pages as Markdown; URLs Tavily could not read come back in ``failed``."""
        urls = [u.strip() for u in urls if u and u.strip()]
        if not urls:
            raise TavilyError("no URLs to extract", kind="bad_request")

        async def call(sdk: AsyncTavilyClient) -> dict[str, Any]:
            return await sdk.extract(
                urls, extract_depth=extract_depth, format="markdown", timeout=self._sdk_timeout()
            )

        payload = (await self._call("extract", call)).value
        pages = [
            ExtractedPage(url=str(item.get("url", "")), content=str(item.get("raw_content") or ""))
            for item in payload_items(payload, "results")
        ]
        failed = [
            FailedPage(url=str(item.get("url", "")), error=str(item.get("error") or "unknown"))
            for item in payload_items(payload, "failed_results")
        ]
        return ExtractResult(pages=pages, failed=failed)

    async def aclose(self) -> None:
        if self._sdk is not None:
            sdk, self._sdk = self._sdk, None
            await sdk.close()

    # --- internals ------------------------------------------------------------------
    def _sdk_timeout(self) -> float:
        """The SDK's own timeout, never longer than what the call may still take."""
        return max(0.001, min(self._timeout_s, self._policy.time_limit()))

    def _client(self) -> AsyncTavilyClient:
        """The SDK client of the running loop (its httpx pool is bound to one loop)."""
        loop = asyncio.get_running_loop()
        if self._sdk is None or self._sdk_loop is None or self._sdk_loop() is not loop:
            from tavily import AsyncTavilyClient  # the SDK (and tiktoken) load on first call

            self._sdk = AsyncTavilyClient(api_key=self._api_key, api_base_url=self._base_url)
            self._sdk_loop = weakref.ref(loop)
        return self._sdk

    async def _call(
        self,
        operation: str,
        fn: Callable[[AsyncTavilyClient], Awaitable[T]],
        key: SearchKey | None = None,
    ) -> CacheHit[T]:
        """``fn`` through ``resilient_call``; with ``key`` the search cache is used."""
        if not self.configured:
            raise TavilyError(
                f"web search (Tavily) is not configured: set {KEY_ENV} (or TAVILY_API_KEY)",
                kind="not_configured",
            )
        sdk = self._client()
        attempts = itertools.count(1)

        async def attempt() -> T:
            async with external_call(SERVICE, operation, attempt=next(attempts)) as rec:
                try:
                    return await fn(sdk)
                except Exception as exc:
                    error = map_error(exc, timeout_s=self._timeout_s, safe=self._safe)
                    rec.outcome = error.kind
                    raise error from None

        cache = self._cache if key is not None else None
        try:
            return await resilient_call(
                attempt,
                policy=self._policy,
                breaker=self._breaker,
                cache=cache,  # type: ignore[arg-type]
                key=key,
                ttl_s=self._cache_ttl_s,
                fallback_if=stale_allowed,
            )
        except CircuitOpenError as exc:
            wait = f"; retry in about {exc.retry_after_s:.0f} s" if exc.retry_after_s else ""
            raise TavilyError(
                f"Tavily is temporarily unavailable after repeated failures{wait}",
                kind="circuit_open",
                transient=False,
            ) from None
        except (DeadlineExceeded, BudgetExhausted):
            raise TavilyError(
                f"Tavily did not answer within {self._policy.deadline_s:g} s; try again later",
                kind="timeout",
                transient=True,
            ) from None

    def _safe(self, text: str) -> str:
        """Server-provided detail, without secrets, short."""
        if self._api_key:
            text = text.replace(self._api_key, "***")
        text = redact(" ".join(text.split()))
        return text[:_DETAIL_LIMIT]
