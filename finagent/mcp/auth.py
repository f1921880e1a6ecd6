"""Bearer-token authentication of the MCP HTTP server (FINAGENT_API_TOKENS).

Tokens are checked by :func:`finagent.server.identity.user_for_authorization`, the same
code as the FastAPI service. An accepted request carries the token's user in
``scope["user"]`` as the MCP SDK's :class:`AuthenticatedUser` (client id = user id), so
the SDK's transports see the principal too; tool calls read it with :func:`request_user`.
"""

from __future__ import annotations

import contextlib
import ipaddress
from typing import Any

from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from starlette.authentication import AuthCredentials
from starlette.datastructures import Headers
from starlette.middleware import Middleware
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from finagent.config import Settings
from finagent.observability import get_logger, register_secrets
from finagent.server.identity import Unauthorized, user_for_authorization

log = get_logger("finagent.mcp.auth")


def is_loopback(host: str) -> bool:
    """True for ``localhost`` and loopback IP addresses (127.0.0.0/8, ::1)."""
    with contextlib.suppress(ValueError):
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    return False


class BearerTokenMiddleware:
    """ASGI middleware: HTTP 401 without a valid bearer token, else the token's user."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self._settings = settings

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "lifespan":
            await self.app(scope, receive, send)
            return
        if scope["type"] != "http":  # no websocket endpoints: refuse before the app
            await send({"type": "websocket.close", "code": 1008})
            return
        authorization = Headers(scope=scope).get("authorization")
        try:
            user = user_for_authorization(self._settings, authorization)
        except Unauthorized as exc:
            client = scope.get("client")
            log.warning(
                "mcp_auth_rejected", reason=exc.reason, client=client[0] if client else None
            )
            await _unauthorized(exc)(scope, receive, send)
            return
        bearer = (authorization or "").partition(" ")[2].strip()
        token = AccessToken(token=bearer, client_id=user, scopes=[], subject=user)
        authenticated = {**scope, "user": AuthenticatedUser(token), "auth": AuthCredentials([])}
        await self.app(authenticated, receive, send)


def bearer_middleware(settings: Settings) -> Middleware:
    """Starlette middleware requiring the tokens of ``settings`` (registered as secrets)."""
    register_secrets(settings.token_users())  # never shown in logs or tool outputs
    return Middleware(BearerTokenMiddleware, settings=settings)


def _unauthorized(exc: Unauthorized) -> JSONResponse:
    """RFC 6750 style 401, shaped like the MCP SDK's own auth errors: the Russian message
    in the body, the English reason in the (Latin-1 only) header."""
    return JSONResponse(
        {"error": "invalid_token", "error_description": str(exc)},
        status_code=401,
        headers={
            "WWW-Authenticate": f'Bearer error="invalid_token", error_description="{exc.reason}"'
        },
    )


def request_user(request: Any) -> str | None:
    """The authenticated user of an MCP request's HTTP request (None: stdio or no auth)."""
    scope = getattr(request, "scope", None)
    user = scope.get("user") if isinstance(scope, dict) else None
    return user.access_token.client_id if isinstance(user, AuthenticatedUser) else None
