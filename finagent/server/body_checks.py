"""Request-body checks before a handler runs: JSON bodies must be UTF-8, and a body over
its route's limit gets a 413 before it is buffered."""

from __future__ import annotations

import sys
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from finagent.server.http_errors import BODY_TOO_LARGE, NOT_UTF8, UNPARSABLE_BODY, error_response


def _is_json(content_type: str | None) -> bool:
    kind = (content_type or "").split(";", 1)[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


class Utf8JsonRoute(APIRoute):
    """A route whose JSON bodies must be UTF-8 (RFC 8259), as docs/serving.md says.

    FastAPI hands the bytes to ``json.loads``, which also detects UTF-16 and UTF-32: those
    bodies get the documented 422 here instead. A NUL byte never occurs in UTF-8 JSON (it
    is not allowed unescaped) but is in every UTF-16/32 encoding of it.
    """

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            if request.method == "POST" and _is_json(request.headers.get("content-type")):
                body = await request.body()  # cached: the handler reads the same bytes
                if not is_utf8_bytes(body) or b"\x00" in body:
                    return error_response(422, UNPARSABLE_BODY.format(reason=NOT_UTF8))
            return await handler(request)

        return checked


def is_utf8_bytes(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _declared_length(scope: Scope) -> int | None:
    value = Headers(scope=scope).get("content-length", "")
    if not (value.isascii() and value.isdigit()):
        return None
    return int(value) if len(value) < 19 else sys.maxsize


class BodyLimit:
    """Answers 413 to a body over its route's limit instead of buffering all of it."""

    def __init__(self, app: ASGIApp, json_limit: int, upload_limit: int) -> None:
        self.app = app
        self.json_limit = json_limit
        self.upload_limit = upload_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.upload_limit if scope["path"] == "/v1/documents" else self.json_limit
        declared = _declared_length(scope)
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            if declared is not None and declared > limit:
                raise HTTPException(413, BODY_TOO_LARGE.format(limit=limit))
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                raise HTTPException(413, BODY_TOO_LARGE.format(limit=limit))
            return message

        await self.app(scope, limited_receive, send)
