"""Input checks for the LangGraph API server (an ASGI middleware of langgraph.json's app).

Every body of a POST, PUT or PATCH is read (at most ``MAX_BODY_BYTES``) and parsed
strictly before langgraph-api sees it (``input_limits.parse_json``); the bodies that create
runs get the limits of ``POST /v1/ask`` (``input_limits.check_langgraph_body``). A refusal is a
Russian ``{"detail": ...}`` with status 413 or 422, and no run starts. An accepted body is
replayed to the app unchanged.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any

from starlette.responses import JSONResponse

from finagent.config import get_settings
from finagent.input_checks import InvalidRequestError
from finagent.server.input_limits import check_langgraph_body, parse_json

Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
App = Callable[[Message, Receive, Send], Awaitable[None]]

MAX_BODY_BYTES = 4 * 1024 * 1024
TOO_LARGE = f"Запрос слишком большой: допустимо не больше {MAX_BODY_BYTES} байт."
WITH_BODY = {"POST", "PUT", "PATCH"}


class CheckedInputs:
    """Pure ASGI middleware: hostile JSON and over-limit run inputs get a Russian 4xx."""

    def __init__(self, app: App) -> None:
        self.app = app

    async def __call__(self, scope: Message, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope.get("method") not in WITH_BODY:
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                await JSONResponse({"detail": TOO_LARGE}, 413)(scope, receive, send)
                return
            chunks.append(chunk)
            if not message.get("more_body"):
                break
        body = b"".join(chunks)
        if body:
            try:
                value = parse_json(body)
                check_langgraph_body(scope.get("path", ""), value, get_settings().max_query_chars)
            except InvalidRequestError as exc:
                await JSONResponse({"detail": str(exc)}, 422)(scope, receive, send)
                return
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()  # later calls wait for the client to disconnect

        await self.app(scope, replay, send)
