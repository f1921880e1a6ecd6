"""The service's input limits, checked the same way on every HTTP route before any handler.

Two steps, both raising :class:`InvalidRequestError` with a Russian message (a 422):

1. :func:`parse_json` parses a body strictly: UTF-8 only, no lone surrogates, no NaN or
   Infinity, no number too large for a double (Python's int-digit limit is never reached),
   at most ``MAX_JSON_DEPTH`` levels of nesting (far from any recursion limit). A body it
   accepts is safe for every JSON parser behind it (``json.loads``, orjson, pydantic).
2. The limits of ``POST /v1/ask`` for graph inputs that arrive by other routes:
   :func:`check_langserve_body` for LangServe's invoke, batch, stream, stream_log and
   stream_events of both graphs, :func:`check_run_body` for the LangGraph API's runs.
   Absent fields and other types are left to each route's own schema.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import orjson

from finagent.input_checks import (
    MAX_CHAT_ID_CHARS,
    MAX_INSTRUCTIONS_CHARS,
    InvalidRequestError,
    checked_documents,
    checked_query,
    checked_text,
)
from finagent.server.http_errors import BAD_TEXT, INVALID_BODY, NOT_UTF8, UNPARSABLE_BODY

MAX_JSON_DEPTH = 64
MAX_BATCH_INPUTS = 20  # inputs of one LangServe /batch, runs of one LangGraph /runs/batch
MAX_RESEARCH_QUERY_CHARS = 4000

TOO_DEEP = f"слишком глубокая вложенность JSON (допустимо не больше {MAX_JSON_DEPTH} уровней)"
BAD_NUMBER = "число вне допустимого диапазона"
BAD_JSON = "некорректный JSON"
TOO_MANY_INPUTS = "Слишком много запросов в пакете ({count}, допустимо не больше {limit})."
WRONG_BATCH = "Поле «{field}» должно быть списком."
WRONG_CONFIG = "Поле «config» должно быть JSON-объектом."
NEEDS_LIST = "Поле «{field}» обязательно и должно быть списком."

Check = Callable[[Any, int], None]


def parse_json(body: bytes) -> Any:
    """The JSON value of ``body``; InvalidRequestError (Russian) for anything unsafe."""
    if b"\x00" in body:  # never in UTF-8 JSON, always in UTF-16/32
        raise InvalidRequestError(UNPARSABLE_BODY.format(reason=NOT_UTF8))
    try:
        body.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidRequestError(UNPARSABLE_BODY.format(reason=NOT_UTF8)) from exc
    try:
        value = orjson.loads(body)
    except orjson.JSONDecodeError as exc:
        raise InvalidRequestError(_invalid(_reason(str(exc)))) from exc
    _check_depth(value)
    return value


def _invalid(reason: str) -> str:
    return INVALID_BODY.format(problems=f"тело запроса: {reason}")


def _reason(error: str) -> str:
    if "depth limit" in error:
        return TOO_DEEP
    if "surrogate" in error or "unicode" in error.lower():
        return BAD_TEXT
    if "number" in error:
        return BAD_NUMBER
    return BAD_JSON


def _check_depth(value: Any) -> None:
    level: list[Any] = [value]
    for _ in range(MAX_JSON_DEPTH + 1):
        level = [
            child
            for item in level
            if isinstance(item, dict | list)
            for child in (item.values() if isinstance(item, dict) else item)
            if isinstance(child, dict | list)
        ]
        if not level:
            return
    raise InvalidRequestError(_invalid(TOO_DEEP))


def _optional_text(value: Any, field: str, limit: int) -> None:
    if value is not None:
        checked_text(value, field, limit, key=True)


def _query(value: Any, limit: int) -> None:
    checked_text(value, "вопрос", key=True)
    checked_query(value, limit)


def check_agent_input(value: Any, max_query_chars: int) -> None:
    """The agent graph's input (``AgentInput``) under the limits of ``POST /v1/ask``."""
    if not isinstance(value, dict):
        return
    if "query" in value:
        _query(value["query"], max_query_chars)
    _optional_text(value.get("chat_id"), "чат", MAX_CHAT_ID_CHARS)
    if "selected_document_ids" in value:
        checked_documents(value["selected_document_ids"])
    _optional_text(value.get("answer_instructions"), "указания к ответу", MAX_INSTRUCTIONS_CHARS)


def check_research_input(value: Any, max_query_chars: int) -> None:
    """The research graph's input under the limit of ``POST /v1/research``."""
    if isinstance(value, dict) and "query" in value:
        _query(value["query"], MAX_RESEARCH_QUERY_CHARS)


def check_config(config: Any) -> None:
    """A run configuration: its chat (``thread_id`` over LangServe, ``chat_id``) is a chat id."""
    if not isinstance(config, dict):
        return
    for scope in (config.get("configurable"), config.get("context"), config):
        if not isinstance(scope, dict):
            continue
        for key in ("thread_id", "chat_id"):
            value = scope.get(key)
            if isinstance(value, int) and not isinstance(value, bool):
                continue  # a numeric thread id is used as its text
            _optional_text(value, "чат", MAX_CHAT_ID_CHARS)


def _batch(items: Any, field: str) -> list[Any]:
    if items is None:
        return []
    if not isinstance(items, list):
        raise InvalidRequestError(WRONG_BATCH.format(field=field))
    if len(items) > MAX_BATCH_INPUTS:
        raise InvalidRequestError(TOO_MANY_INPUTS.format(count=len(items), limit=MAX_BATCH_INPUTS))
    return items


LANGSERVE_ROUTE = re.compile(
    r"^/langserve/(?P<graph>agent|research)(?:/c/[^/]+)?"
    r"/(?P<endpoint>invoke|batch|stream|stream_log|stream_events)$"
)
INPUT_CHECKS: dict[str, Check] = {"agent": check_agent_input, "research": check_research_input}


def check_langserve_body(path: str, body: Any, max_query_chars: int) -> None:
    """The limits for a parsed body of a LangServe route (no-op for other paths)."""
    route = LANGSERVE_ROUTE.match(path)
    if route is None or not isinstance(body, dict):
        return
    check_input = INPUT_CHECKS[route["graph"]]
    if route["endpoint"] == "batch":
        for value in _batch(body.get("inputs"), "inputs"):
            check_input(value, max_query_chars)
        configs = body.get("config", {})
        for config in configs if isinstance(configs, list) else [configs]:
            _langserve_config(config)
    else:
        check_input(body.get("input"), max_query_chars)
        _langserve_config(body.get("config", {}))


def _langserve_config(config: Any) -> None:
    if not isinstance(config, dict):  # LangServe raises a TypeError (a 500) on null
        raise InvalidRequestError(WRONG_CONFIG)
    check_config(config)


RUN_ROUTE = re.compile(r"^(?:/threads/[^/]+)?/runs(?:/wait|/stream|/crons)?$")


def check_run(run: Any, max_query_chars: int) -> None:
    """One LangGraph API run payload: its input, context, configuration and resume value."""
    if not isinstance(run, dict):
        return
    graph = "research" if run.get("assistant_id") == "research" else "agent"
    INPUT_CHECKS[graph](run.get("input"), max_query_chars)
    check_config(run.get("config"))
    check_config({"context": run.get("context")})
    command = run.get("command")
    if isinstance(command, dict) and isinstance(command.get("resume"), str):
        checked_text(command["resume"], "ответ", MAX_RESEARCH_QUERY_CHARS)


def check_run_body(path: str, body: Any, max_query_chars: int) -> None:
    """The limits for a parsed body of a LangGraph API route that creates runs."""
    if path == "/runs/batch":
        for run in _batch(body, "тело запроса"):
            check_run(run, max_query_chars)
    elif RUN_ROUTE.match(path):
        check_run(body, max_query_chars)


# fields langgraph-api reads without checking that they are there (a KeyError is a 500)
REQUIRED_LISTS = {"/store/items/search": "namespace_prefix"}


def check_langgraph_body(path: str, body: Any, max_query_chars: int) -> None:
    """The limits for a parsed body of any LangGraph API route."""
    field = REQUIRED_LISTS.get(path)
    if field is not None and not (isinstance(body, dict) and isinstance(body.get(field), list)):
        raise InvalidRequestError(NEEDS_LIST.format(field=field))
    check_run_body(path, body, max_query_chars)
