"""What debug says about a failed upstream call: its kind and a request id, never its text.

Provider error texts can quote keys, prompts or other users' data, and debug is returned
to clients and checkpointed. ``report`` logs the redacted cause under a request id (the
provider's ``x-request-id`` when it sent one, else a new one; logged as
``upstream_request_id``, since hosts such as langgraph-api add a ``request_id`` of their
own to every event) and returns only
``{"error_kind": ..., "request_id": ...}`` for debug.
"""

from __future__ import annotations

import re
import uuid
from typing import Any

from finagent.observability import get_logger, redact

log = get_logger("finagent.errors")

_REQUEST_ID_HEADERS = ("x-request-id", "request-id", "x-amzn-requestid", "cf-ray")


_WRAPPERS = {"StructuredCallError"}


def _chain(exc: BaseException) -> list[BaseException]:
    seen: list[BaseException] = []
    current: BaseException | None = exc
    while current is not None and all(current is not e for e in seen) and len(seen) < 16:
        seen.append(current)
        current = current.__cause__ or current.__context__
    return seen


def _kind_of(exc: BaseException) -> str:
    # the provider SDK's own class (openai.AuthenticationError), not a wrapper's subclass
    for cls in type(exc).__mro__:
        if cls.__module__.split(".")[0] in {"openai", "httpx", "anthropic"}:
            return cls.__name__
    return type(exc).__name__


def _is_upstream(exc: BaseException) -> bool:
    return any(c.__module__.split(".")[0] in {"openai", "httpx"} for c in type(exc).__mro__)


def error_kind(exc: BaseException) -> str:
    """The class of the upstream error behind ``exc`` (the innermost SDK or HTTP error of
    its cause chain), else ``exc``'s own class."""
    chain = _chain(exc)
    upstream = [e for e in chain if _is_upstream(e)]
    if upstream:
        return _kind_of(upstream[0])
    # a wrapper that only says "the call failed" names its cause instead
    while type(exc).__name__ in _WRAPPERS and exc.__cause__ is not None:
        exc = exc.__cause__
    return type(exc).__name__


# a prompt longer than the model's window, as servers langchain-openai does not classify
# word it (llama.cpp, vLLM, Ollama)
_OVERFLOW = re.compile(
    r"exceeds the available context size|maximum context length|context length|context window",
    re.IGNORECASE,
)


def exceeds_context(exc: BaseException) -> bool:
    """``exc`` (or a cause) is a provider's refusal of a prompt longer than the model's
    context window: a limit of the request, not an outage (retrying cannot help)."""
    from langchain_core.exceptions import ContextOverflowError

    for e in _chain(exc):
        if isinstance(e, ContextOverflowError):
            return True
        if _is_upstream(e) and getattr(e, "status_code", None) == 400 and _OVERFLOW.search(str(e)):
            return True
    return False


def request_id_of(exc: BaseException) -> str | None:
    """The provider's request id found on ``exc`` or its causes, if any."""
    for e in _chain(exc):
        rid = getattr(e, "request_id", None)
        if isinstance(rid, str) and rid:
            return redact(rid)[:128]
        response = getattr(e, "response", None)
        headers = getattr(response, "headers", None)
        if headers is not None:
            for name in _REQUEST_ID_HEADERS:
                value = headers.get(name)
                if value:
                    return redact(str(value))[:128]
    return None


def report(exc: BaseException, event: str, **fields: Any) -> dict[str, str]:
    """Log ``exc``'s redacted cause as ``event`` and return what debug may hold of it."""
    kind = error_kind(exc)
    rid = request_id_of(exc) or f"fa-{uuid.uuid4().hex[:16]}"
    # redact before cutting: a cut could leave half a key that no pattern matches
    cause = redact(f"{type(exc).__name__}: {exc}")[:500]
    log.warning(event, error_kind=kind, upstream_request_id=rid, cause=cause, **fields)
    return {"error_kind": kind, "request_id": rid}


def report_text(kind: str, cause: str, event: str, **fields: Any) -> dict[str, str]:
    """``report`` for a failure known only by its text (a tool's error output)."""
    rid = f"fa-{uuid.uuid4().hex[:16]}"
    log.warning(
        event, error_kind=kind, upstream_request_id=rid, cause=redact(cause)[:500], **fields
    )
    return {"error_kind": kind, "request_id": rid}
