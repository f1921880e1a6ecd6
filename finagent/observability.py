"""Structured logging (structlog) with secret redaction, and in-process metrics."""

from __future__ import annotations

import hashlib
import json
import logging
import sys
from collections.abc import Iterable, MutableMapping
from pathlib import Path
from typing import Any, TextIO

import structlog
from prometheus_client import CollectorRegistry, Counter, Histogram

from finagent import redaction

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
LLM_OUTPUT_CHECKS = Counter(
    "finagent_llm_output_checks_total",
    "LLM replies a check refused (answer, routing, research), by check",
    ["role", "check"],
    registry=METRICS,
)


def register_secrets(values: Iterable[str]) -> None:
    """Remember secret values so that no log event, output or stored value ever shows them
    in any form (``finagent.redaction``)."""
    redaction.register(values)


def redact(text: str) -> str:
    """Every form of every registered secret, and every key a provider echoes, removed."""
    return redaction.redact(text)


def redact_value(value: Any) -> Any:
    """``redact`` applied to every string inside ``value``, its types kept."""
    return redaction.scrub(value)


def _redact_processor(
    _logger: Any, _name: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    return {k: redaction.redact_json(v) for k, v in event_dict.items()}


class _CurrentStderr:
    """Writes to whatever ``sys.stderr`` is at the time of the write.

    Binding the file object at configuration time breaks when stderr is replaced and
    closed later (test runners, CLI runners, daemons redirecting their streams).
    """

    def write(self, text: str) -> int:
        return sys.stderr.write(text)

    def flush(self) -> None:
        sys.stderr.flush()


class _LogFile:
    """Appends to a file opened on the first write (a command that logs nothing creates
    no file); a file that cannot be written drops the event rather than fail the command."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._file: TextIO | None = None
        self._broken = False

    def write(self, text: str) -> int:
        if self._file is None and not self._broken:
            try:
                self.path.parent.mkdir(parents=True, exist_ok=True)
                self._file = self.path.open("a", encoding="utf-8")
            except OSError:
                self._broken = True
        if self._file is None:
            return len(text)
        return self._file.write(text)

    def flush(self) -> None:
        if self._file is not None:
            self._file.flush()


class _Sink:
    """Where the entry point's log lines go (finagent's events and other libraries'
    records alike): the current stderr, or a log file chosen by :func:`configure_logging`."""

    def __init__(self) -> None:
        self.target: _CurrentStderr | _LogFile = _CurrentStderr()

    def write(self, text: str) -> int:
        return self.target.write(text)

    def flush(self) -> None:
        self.target.flush()


_SINK = _Sink()


def _redacting_record_factory(make: Any) -> Any:
    """A ``logging`` record factory whose records carry redacted text only.

    The message is formatted and redacted when the record is made (a structlog event dict
    bound for a ``ProcessorFormatter`` stays a dict, its values redacted), and the
    traceback, if any, is rendered and redacted into ``exc_text`` (which formatters print
    instead of formatting ``exc_info`` again): every handler, ours or a library's, sees no
    secret.
    """

    def factory(*args: Any, **kwargs: Any) -> logging.LogRecord:
        record: logging.LogRecord = make(*args, **kwargs)
        if isinstance(record.msg, dict):  # structlog's wrap_for_formatter: keep it a dict
            record.msg = {k: redaction.scrub(v) for k, v in record.msg.items()}
        else:
            try:
                record.msg = redaction.redact(record.getMessage())
            except Exception:  # a malformed %-format: keep the raw template, redacted
                record.msg = redaction.redact(str(record.msg))
            record.args = None
        if record.exc_info and record.exc_info[1] is not None:
            record.exc_text = redaction.redact(_FORMATTER.formatException(record.exc_info))
        if record.stack_info:
            record.stack_info = redaction.redact(record.stack_info)
        return record

    factory.redacting = True  # type: ignore[attr-defined]
    return factory


_FORMATTER = logging.Formatter()


def redact_stdlib_records() -> None:
    """Redact every stdlib ``logging`` record (httpx, openai, uvicorn, langgraph-api).

    For entry points only (the CLI, the service, the MCP server, the LangGraph API's graph
    module): it replaces the process-wide record factory, once.
    """
    make = logging.getLogRecordFactory()
    if not getattr(make, "redacting", False):
        logging.setLogRecordFactory(_redacting_record_factory(make))


class _EntryPointHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """The root handler ``configure_logging`` installs (one, replaced on reconfiguring)."""


def configure_logging(
    level: str = "INFO", json_logs: bool = False, file: Path | None = None
) -> None:
    """For entry points only: finagent's events at ``level`` and other libraries' records
    (and Python warnings) go, redacted, to stderr, or to ``file`` (created on the first
    line), through one root handler; structlog renders both.

    Library code never calls this (it logs through stdlib ``logging``: see ``get_logger``).
    """
    redact_stdlib_records()
    _SINK.target = _LogFile(file) if file is not None else _CurrentStderr()
    numeric = logging.getLevelNamesMapping().get(level.upper(), logging.INFO)
    logging.getLogger().setLevel(max(numeric, logging.INFO))
    logging.captureWarnings(True)
    renderer: Any = (
        structlog.processors.JSONRenderer(ensure_ascii=False)
        if json_logs
        else structlog.dev.ConsoleRenderer(
            colors=False, exception_formatter=structlog.dev.plain_traceback
        )
    )
    # tracebacks become plain text (no frame locals) before redaction, so a secret in an
    # exception message or a frame is redacted like any other field
    exceptions: Any = (
        structlog.processors.ExceptionRenderer(
            structlog.tracebacks.ExceptionDictTransformer(show_locals=False)
        )
        if json_logs
        else structlog.processors.format_exc_info
    )
    shared: list[Any] = [
        structlog.contextvars.merge_contextvars,
        structlog.stdlib.add_log_level,
        structlog.stdlib.add_logger_name,
        structlog.processors.TimeStamper(fmt="iso"),
    ]
    structlog.configure(
        processors=[
            structlog.stdlib.filter_by_level,
            *shared,
            exceptions,
            _redact_processor,
            structlog.stdlib.ProcessorFormatter.wrap_for_formatter,
        ],
        logger_factory=structlog.stdlib.LoggerFactory(),
        wrapper_class=structlog.stdlib.BoundLogger,
        cache_logger_on_first_use=False,
    )
    handler = _EntryPointHandler(_SINK)  # type: ignore[arg-type]
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, renderer],
            foreign_pre_chain=[*shared, exceptions, _redact_processor],
        )
    )
    root = logging.getLogger()
    for old in [h for h in root.handlers if isinstance(h, _EntryPointHandler)]:
        root.removeHandler(old)
    root.addHandler(handler)
    logging.getLogger("finagent").setLevel(numeric)
    # pypdf warns in English about each damaged file ("EOF marker not found"); the user
    # already gets one Russian error per file, so only its errors reach the log
    logging.getLogger("pypdf").setLevel(max(numeric, logging.ERROR))


# --- the library's loggers -----------------------------------------------------------------


def _kv(value: Any) -> str:
    text = str(value)
    return repr(text) if not text or any(c.isspace() or c in "='\"" for c in text) else text


def _for_host(logger: Any, method: str, event_dict: MutableMapping[str, Any]) -> Any:
    """The last step of every finagent log event.

    When structlog is configured (by finagent's entry points, langgraph-api, a test's
    ``capture_logs`` or the host), its processors handle the event, so the host's format,
    logger names and levels apply. Else the event becomes one redacted stdlib message
    (``event key=value ...``, then the traceback) for whatever handlers the host has: the
    library neither configures logging nor writes to stdout.
    """
    if structlog.is_configured():
        processors: Iterable[Any] = structlog.get_config()["processors"]
        result: Any = event_dict
        for processor in processors:
            result = processor(logger, method, result)
        return result
    if isinstance(logger, logging.Logger) and not logger.isEnabledFor(
        logging.getLevelNamesMapping().get(method.upper(), logging.ERROR)
    ):
        raise structlog.DropEvent
    event_dict = structlog.processors.format_exc_info(logger, method, event_dict)
    trace = event_dict.pop("exception", None)
    event = str(event_dict.pop("event", ""))
    fields = " ".join(f"{k}={_kv(v)}" for k, v in event_dict.items())
    text = " ".join(p for p in (event, fields) if p)
    if trace:
        text = f"{text}\n{trace}"
    # the traceback is in the text, redacted: the host's formatter must not add it again
    return ((redaction.redact(text),), {"exc_info": False})


def get_logger(name: str) -> Any:
    """finagent's logger ``name``: a structlog logger over the stdlib logger ``name``."""
    return structlog.wrap_logger(
        logging.getLogger(name),
        processors=[_for_host],
        wrapper_class=structlog.stdlib.BoundLogger,
    )


def digest(value: Any) -> str:
    """Short stable digest of arguments: logged instead of payloads."""
    raw = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return hashlib.sha256(raw.encode()).hexdigest()[:12]
