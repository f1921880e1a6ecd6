"""Russian error bodies for the LangGraph API server (langgraph.json ``http.app``).

langgraph-api answers its own errors in English ("Thread not found", validation details).
Its 401 already comes from finagent's auth in Russian (``langgraph_auth.py``). The
middleware of this app, which langgraph-api applies to every route, replaces the body of
each 404, 405, 409, 413 and 422 with a Russian ``{"detail": ...}`` of the same status. The
original text goes to the log only, redacted (``langgraph_api_error``). Successful and
streamed responses pass through untouched. Before any route, ``CheckedInputs`` refuses
hostile JSON and run inputs over the service's limits (``langgraph_inputs.py``).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.applications import Starlette
from starlette.middleware import Middleware

from finagent.observability import get_logger, redact
from finagent.server.langgraph_inputs import CheckedInputs
from finagent.server.redacting import RedactResponses

log = get_logger(__name__)

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

NOT_FOUND = (
    "Не найдено: такого адреса, потока, запуска или ассистента нет "
    "(или он принадлежит другому пользователю)."
)
METHOD_NOT_ALLOWED = "Метод {method} не поддерживается для этого адреса; допустимо: {allowed}."
CONFLICT = (
    "Конфликт: поток, запуск или ассистент с таким идентификатором уже есть, занят или недоступен."
)
TOO_LARGE = "Запрос слишком большой."
FORBIDDEN = "Доступ запрещён."
INVALID = "Некорректный запрос: проверьте поля и типы значений в теле запроса."
REPLACED = {404, 405, 409, 413, 422}


def russian_detail(status: int, method: str, allow: str) -> str:
    if status == 403:
        return FORBIDDEN
    if status == 404:
        return NOT_FOUND
    if status == 405:
        return METHOD_NOT_ALLOWED.format(method=method, allowed=allow or "нет")
    if status == 409:
        return CONFLICT
    if status == 413:
        return TOO_LARGE
    return INVALID


ERROR_EVENT = b"event: error"
RUN_FAILED = "Ошибка выполнения запуска; подробности записаны в журнал сервера."


def is_event_stream(start: Message) -> bool:
    headers = {k.lower(): v for k, v in start.get("headers", [])}
    return headers.get(b"content-type", b"").startswith(b"text/event-stream")


def russian_error_event(event: bytes, scope: Message) -> bytes:
    """An SSE ``error`` event of langgraph-api («404: Thread not found», a run's exception)
    with a Russian message; a leading HTTP status is kept, the original goes to the log."""
    head, _, rest = event.partition(b"data: ")
    data, sep, tail = rest.partition(b"\r\n")
    try:
        payload = json.loads(data)
    except ValueError:
        return event
    if not isinstance(payload, dict):
        return event
    message = str(payload.get("message", ""))
    log.info("langgraph_api_stream_error", path=scope.get("path", ""), detail=redact(message[:500]))
    code = message[:3]
    if code.isdigit() and message[3:4] == ":":
        text = f"{code}: {russian_detail(int(code), scope.get('method', ''), '')}"
    else:
        text = RUN_FAILED
    body = json.dumps({**payload, "message": text}, ensure_ascii=False).encode()
    return head + b"data: " + body + sep + tail


class RussianErrors:
    """Pure ASGI middleware: error bodies of ``REPLACED`` statuses become Russian JSON."""

    def __init__(self, app: Callable[[Message, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        original = bytearray()
        streamed = False

        async def replace_errors(message: Message) -> None:
            nonlocal start, streamed
            if message["type"] == "http.response.start" and message["status"] in REPLACED:
                start = message  # held until the body is read
                return
            if message["type"] == "http.response.start":
                streamed = is_event_stream(message)
            if streamed and message["type"] == "http.response.body":
                body = message.get("body", b"")
                if body.startswith(ERROR_EVENT):
                    message = {**message, "body": russian_error_event(body, scope)}
            if start is None or message["type"] != "http.response.body":
                await send(message)
                return
            if len(original) < 4096:
                original.extend(message.get("body", b"")[:4096])
            if message.get("more_body"):
                return
            headers = {k.lower(): v for k, v in start.get("headers", [])}
            status = int(start["status"])
            log.info(
                "langgraph_api_error",
                status=status,
                path=scope.get("path", ""),
                detail=redact(original.decode("utf-8", "replace")[:500]),
            )
            detail = russian_detail(
                status, scope.get("method", ""), headers.get(b"allow", b"").decode()
            )
            body = json.dumps({"detail": detail}, ensure_ascii=False).encode()
            kept = [
                (k, v)
                for k, v in start.get("headers", [])
                if k.lower() not in (b"content-length", b"content-type")
            ]
            kept += [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
            ]
            await send({**start, "headers": kept})
            await send({"type": "http.response.body", "body": body})

        await self.app(scope, receive, replace_errors)


# outermost first: every body leaves redacted, the Russian errors included; CheckedInputs'
# specific Russian 422s pass RussianErrors by
app = Starlette(
    middleware=[
        Middleware(RedactResponses),  # type: ignore[arg-type]
        Middleware(CheckedInputs),  # type: ignore[arg-type]
        Middleware(RussianErrors),  # type: ignore[arg-type]
    ]
)
