"""Tavily failures: the error kinds, the mapping of SDK and transport errors to them, and
which of them may be retried or answered from an expired cache entry."""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal

import httpx

from finagent.clients.errors import ExternalServiceError, is_transient
from finagent.clients.resilient import (
    can_fall_back,
)

KEY_ENV = "FINAGENT_TAVILY_API_KEY"
ErrorKind = Literal[
    "not_configured",
    "auth",
    "rate_limit",
    "forbidden",
    "bad_request",
    "unavailable",
    "timeout",
    "circuit_open",
    "bad_response",
]
# Failures where the service could not answer: an expired cached answer may be served.
STALE_FALLBACK_KINDS: frozenset[str] = frozenset(
    {"unavailable", "timeout", "bad_response", "circuit_open"}
)


class TavilyError(ExternalServiceError):
    """A Tavily failure; ``str(err)`` is safe to show (no secrets) and says what to do."""

    def __init__(
        self,
        message: str,
        *,
        kind: ErrorKind,
        status: int | None = None,
        transient: bool = False,
    ) -> None:
        super().__init__(message, transient=transient)
        self.kind = kind
        self.status = status


def stale_allowed(exc: BaseException) -> bool:
    """Tavily could not answer: an expired cached answer may be served instead."""
    if isinstance(exc, TavilyError):
        return exc.kind in STALE_FALLBACK_KINDS
    return can_fall_back(exc)


def retryable(exc: BaseException) -> bool:
    """Retry 5xx, transport errors and garbage replies; never 4xx or timeouts."""
    return is_transient(exc) and getattr(exc, "kind", None) != "timeout"


def map_error(exc: Exception, *, timeout_s: float, safe: Callable[[str], str]) -> TavilyError:
    """A failure of the SDK or the transport as a TavilyError that says what to do."""
    if isinstance(exc, TavilyError):
        return exc
    # the SDK (whose package import loads requests and tiktoken) is loaded by now: the
    # error came from a call through it
    from tavily.errors import (
        BadRequestError,
        ForbiddenError,
        InvalidAPIKeyError,
        UsageLimitExceededError,
    )
    from tavily.errors import TimeoutError as TavilyTimeoutError

    detail = safe(str(exc))
    if isinstance(exc, InvalidAPIKeyError):
        return TavilyError(
            f"invalid Tavily API key (401): check {KEY_ENV}", kind="auth", status=401
        )
    if isinstance(exc, UsageLimitExceededError):
        return TavilyError(
            "Tavily rate limit reached (429): retry in a minute",
            kind="rate_limit",
            status=429,
        )
    if isinstance(exc, ForbiddenError):
        return TavilyError(
            "Tavily refused the request (403/432/433: plan or usage limit reached"
            f"{': ' + detail if detail else ''}); check the plan and limits in the "
            "Tavily dashboard, web search is unavailable until then",
            kind="forbidden",
        )
    if isinstance(exc, BadRequestError):
        return TavilyError(
            f"Tavily rejected the request as invalid (400{': ' + detail if detail else ''})"
            "; shorten or rephrase the query",
            kind="bad_request",
            status=400,
        )
    if isinstance(exc, TavilyTimeoutError):
        return TavilyError(
            f"Tavily did not answer within {timeout_s:g} s; try again later",
            kind="timeout",
            transient=True,
        )
    if isinstance(exc, httpx.HTTPStatusError):
        status = exc.response.status_code
        if status >= 500:
            return TavilyError(
                f"Tavily is unavailable (HTTP {status}); try again later",
                kind="unavailable",
                status=status,
                transient=True,
            )
        return TavilyError(
            f"Tavily answered HTTP {status}; check FINAGENT_TAVILY_BASE_URL",
            kind="bad_request",
            status=status,
        )
    if isinstance(exc, httpx.TransportError):
        return TavilyError(
            f"cannot reach Tavily ({type(exc).__name__}); check the network and "
            "FINAGENT_TAVILY_BASE_URL, then try again",
            kind="unavailable",
            transient=True,
        )
    if isinstance(exc, ValueError | KeyError | TypeError | AttributeError):
        return TavilyError(
            f"Tavily returned an unreadable answer ({type(exc).__name__}); try again later",
            kind="bad_response",
            transient=True,
        )
    return TavilyError(
        f"Tavily call failed ({type(exc).__name__}); try again later",
        kind="unavailable",
        transient=True,
    )
