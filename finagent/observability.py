"""Structured logging (structlog) with secret redaction, and in-process metrics."""

from __future__ import annotations

import hashlib
import json
import logging
import re
import sys
from collections.abc import Iterable, MutableMapping
from typing import Any

import structlog
from prometheus_client import CollectorRegistry, Counter, Histogram

_REDACTED = "***"
_secrets: set[str] = set()

METRICS = CollectorRegistry(auto_describe=True)
SEARCH_SECONDS = Histogram(
    "finagent_search_seconds", "Vector search time", ["collection"], registry=METRICS
)
CHUNKS_RETRIEVED = Counter(
    "finagent_chunks_retrieved_total",
    "Chunks returned by searches",
    ["collection"],
    registry=METRICS,
)
EXTERNAL_CALLS = Counter(
    "finagent_external_calls_total",
    "External calls by outcome",
    ["service", "outcome"],
    registry=METRICS,
)
TOOL_CALLS = Counter(
    "finagent_tool_calls_total", "Tool calls by outcome", ["tool", "outcome"], registry=METRICS
)


def register_secrets(values: Iterable[str]) -> None:
    """Remember secret values so that no log event or tool output ever shows them."""
    _secrets.update(v for v in values if v and len(v) >= 4)


# What providers echo back in error messages, whether or not we know the value: OpenAI and
# OpenRouter keys ("sk-...", "sk-or-v1-..."), Tavily keys, bearer headers, and the tail of
# "Incorrect API key provided: sk-ab***1234" (a masked key is still part of a key).
_ECHOED_SECRETS = re.compile(
    r"\b(?:sk|tvly|rk|pk)-[A-Za-z0-9_\-*]{6,}"
    r"|(?i:bearer)\s+[A-Za-z0-9._~+/=\-*]{6,}"
    r"|(?<=(?i:api key provided: ))\S+"
    r"|(?<=(?i:api_key=))[^\s&\"']+"
)


def redact(text: str) -> str:
    """Replace every registered secret, and every key or token a provider echoes, in ``text``."""
    for secret in _secrets:
        if secret in text:
            text = text.replace(secret, _REDACTED)
    return _ECHOED_SECRETS.sub(_REDACTED, text)


def redact_value(value: Any) -> Any:
    """``redact`` applied to every string inside nested dicts and lists."""
    return _redact_value(value)


def _redact_value(value: Any) -> Any:
    if isinstance(value, str):
        return redact(value)
    if isinstance(value, dict):
        return {k: _redact_value(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [_redact_value(v) for v in value]
    return value


def _redact_processor(
    _logger: Any, _name: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    return {k: _redact_value(v) for k, v in event_dict.items()}


class _CurrentStderr:
    """Writes to whatever ``sys.stderr`` is at the time of the write.

    Binding the file object at configuration time breaks when stderr is replaced and
    closed later (test runners, CLI runners, daemons redirecting their streams).
    """

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


def configure_logging(level: str = "INFO", json_logs: bool = False) -> None:
    """Configure structlog to write redacted events to stderr."""
    renderer: Any = (
        structlog.processors.JSONRenderer(ensure_ascii=False)
        if json_logs
        else structlog.dev.ConsoleRenderer(
            colors=False, exception_formatter=structlog.dev.plain_traceback
        )
    )
    structlog.configure(
        processors=[
            structlog.contextvars.merge_contextvars,
            structlog.processors.add_log_level,
            structlog.processors.TimeStamper(fmt="iso"),
            # tracebacks become plain text (no frame locals) before redaction, so a secret
            # in an exception message or a frame is redacted like any other field
            structlog.processors.ExceptionRenderer(
                structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
            )
            if json_logs
            else structlog.processors.format_exc_info,
            _redact_processor,
            renderer,
        ],
        wrapper_class=structlog.make_filtering_bound_logger(
            logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
        ),
        logger_factory=structlog.PrintLoggerFactory(file=_CurrentStderr()),  # type: ignore[arg-type]
        cache_logger_on_first_use=False,
    )


def get_logger(name: str) -> Any:
    return structlog.get_logger(name)


def digest(value: Any) -> str:
    """Short stable digest of arguments: logged instead of payloads."""
    raw = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:12]
