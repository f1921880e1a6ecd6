"""Errors of external services and how they are classified: transient (retried, counted by
the breaker, stale fallback allowed) or the caller's problem."""

from __future__ import annotations

import asyncio

import httpx


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
