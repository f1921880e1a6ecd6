"""Request-body checks before a handler runs: JSON bodies are parsed strictly and checked
against the service's input limits (``input_limits.py``), and a body over its route's
limit gets a 413 before it is buffered."""

from __future__ import annotations

import sys
from collections.abc import Callable, Coroutine
from typing import Any

from fastapi import HTTPException, Request
from fastapi.responses import Response
from fastapi.routing import APIRoute
from starlette.datastructures import Headers
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from finagent.input_checks import InvalidRequestError
from finagent.server.http_errors import BODY_TOO_LARGE, NOT_FOUND, error_response
from finagent.server.identity import current_user, identify
from finagent.server.input_limits import LANGSERVE_ROUTE, check_langserve_body, parse_json


def _is_json(content_type: str | None) -> bool:
    kind = (content_type or "").split(";", 1)[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


class Utf8JsonRoute(APIRoute):
    """A route whose JSON bodies are checked before its handler runs (docs/serving.md).

    Every JSON body must pass :func:`parse_json` (UTF-8, no lone surrogates, no NaN, no
    huge numbers, bounded nesting); FastAPI's ``json.loads`` would take UTF-16 and crash
    on some of the rest. LangServe's routes parse any body as JSON whatever its type, and
    their graph inputs get the limits of ``/v1/ask``. A bare 404 of a route (LangServe's
    playground answers an English text) becomes the service's Russian JSON.
    """

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()
        langserve = LANGSERVE_ROUTE.match(self.path) is not None
        protected = langserve or any(d.call is current_user for d in self.dependant.dependencies)

        async def checked(request: Request) -> Response:
            if request.method == "POST" and (
                langserve or _is_json(request.headers.get("content-type"))
            ):
                if protected:  # a caller without a token learns nothing about bodies
                    identify(request.app.state.settings, request.headers.get("authorization"))
                body = await request.body()  # cached: the handler reads the same bytes
                try:
                    value = parse_json(body)
                    if langserve:
                        limit = request.app.state.settings.max_query_chars
                        check_langserve_body(self.path, value, limit)
                except InvalidRequestError as exc:
                    return error_response(422, str(exc))
            response = await handler(request)
            if response.status_code == 404 and response.media_type != "application/json":
                return error_response(404, NOT_FOUND)
            return response

        return checked


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
