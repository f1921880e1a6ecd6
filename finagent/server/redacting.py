"""The last line of defence: response bodies leave the process redacted.

``RedactResponses`` is pure ASGI middleware for the FastAPI service and the LangGraph API
server's http app (langgraph-api applies it to every route). Textual bodies (JSON,
NDJSON, server-sent events, text) are redacted (``finagent.redaction.redact``):

- a body with a ``Content-Length`` (or sent in one message) is read whole, redacted and
  sent with its new length;
- a streamed body is redacted line by line: complete lines go out at once, a partial line
  waits for the rest (JSON strings hold no raw newline, and SSE events end in one), so a
  secret split between two chunks is still found; a partial line over 64 KiB goes out
  as it is found.

Binary bodies (files, images) and compressed ones pass through untouched.
``redacted_dumps`` is the structural counterpart for serializers (LangServe).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

import orjson

from finagent.redaction import redact, redact_json

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

_TEXTUAL = (b"json", b"text/", b"event-stream", b"ndjson", b"javascript", b"xml")
_MAX_PENDING = 64 * 1024


def redacted_dumps(obj: Any, default: Callable[[Any], Any] | None = None) -> bytes:
    """``obj`` as JSON bytes, every string in it (keys included) redacted."""
    raw = orjson.dumps(obj, default=default)
    return orjson.dumps(redact_json(orjson.loads(raw)))


def _redact_bytes(data: bytes) -> bytes:
    # surrogateescape keeps any byte that is not UTF-8 as it was
    text = data.decode("utf-8", "surrogateescape")
    redacted = redact(text)
    return data if redacted == text else redacted.encode("utf-8", "surrogateescape")


def _is_textual(headers: list[tuple[bytes, bytes]]) -> bool:
    values = {k.lower(): v.lower() for k, v in headers}
    if values.get(b"content-encoding", b"identity") != b"identity":
        return False
    kind = values.get(b"content-type", b"")
    return any(t in kind for t in _TEXTUAL)


class RedactResponses:
    """Pure ASGI middleware: every textual response body is redacted on its way out."""

    def __init__(self, app: Callable[[Message, Receive, Send], Awaitable[None]]) -> None:
        self.app = app

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") == "HEAD":
            await self.app(scope, receive, send)
            return
        start: Message | None = None
        whole = False  # read the body whole (it has a length to fix)
        active = False
        pending = bytearray()

        async def redacting(message: Message) -> None:
            nonlocal start, whole, active
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                active = _is_textual(headers)
                if not active:
                    await send(message)
                    return
                start = message
                whole = any(k.lower() == b"content-length" for k, _ in headers)
                return
            if not active or message["type"] != "http.response.body":
                await send(message)
                return
            pending.extend(message.get("body", b""))
            more = bool(message.get("more_body"))
            if start is not None and (whole or not more):
                if more:
                    return
                body = _redact_bytes(bytes(pending))
                pending.clear()
                headers = [
                    (k, v) for k, v in start.get("headers", []) if k.lower() != b"content-length"
                ]
                headers.append((b"content-length", str(len(body)).encode()))
                await send({**start, "headers": headers})
                start = None
                await send({"type": "http.response.body", "body": body, "more_body": False})
                return
            if start is not None:  # a streamed body: no length to keep
                await send(start)
                start = None
            cut = pending.rfind(b"\n") + 1 if more else len(pending)
            if more and cut == 0 and len(pending) > _MAX_PENDING:
                cut = len(pending)
            out = _redact_bytes(bytes(pending[:cut]))
            del pending[:cut]
            if out or not more:
                await send({"type": "http.response.body", "body": out, "more_body": more})

        await self.app(scope, receive, redacting)
