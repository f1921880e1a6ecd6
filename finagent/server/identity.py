"""Who is calling: bearer tokens from FINAGENT_API_TOKENS mapped to user ids."""

from __future__ import annotations

import hmac
from typing import Annotated

from fastapi import Header, HTTPException, Request

from finagent.config import Settings
from finagent.observability import get_logger

log = get_logger("finagent.server")

NO_TOKENS = "Сервис не принимает запросы: API-токены не настроены (FINAGENT_API_TOKENS)."
SEND_BEARER = "Нужна авторизация: передайте заголовок «Authorization: Bearer <токен>»."
INVALID_TOKEN = "Неверный API-токен."


class Unauthorized(Exception):
    """No valid bearer token.

    ``str(exc)`` is the Russian message for the caller; ``reason`` is the English reason
    for logs.
    """

    def __init__(self, reason: str, message: str) -> None:
        super().__init__(message)
        self.reason = reason


def user_for_authorization(settings: Settings, authorization: str | None) -> str:
    """The user of an ``Authorization: Bearer <token>`` header, or raise Unauthorized."""
    tokens = settings.token_users()
    if not tokens:
        raise Unauthorized("the service has no API tokens: set FINAGENT_API_TOKENS", NO_TOKENS)
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send 'Authorization: Bearer <token>'", SEND_BEARER)
    for known, user in tokens.items():  # constant-time comparison per token
        if hmac.compare_digest(known.encode(), token.strip().encode()):
            return user
    raise Unauthorized("invalid API token", INVALID_TOKEN)


def identify(settings: Settings, authorization: str | None) -> str:
    """The caller's user id, or a 401 whose message is Russian (the reason is logged)."""
    try:
        return user_for_authorization(settings, authorization)
    except Unauthorized as exc:
        log.info("auth_rejected", reason=exc.reason)
        raise HTTPException(401, str(exc), headers={"WWW-Authenticate": "Bearer"}) from exc


def current_user(request: Request, authorization: Annotated[str | None, Header()] = None) -> str:
    """The user of the request's bearer token (401 without a valid one)."""
    return identify(request.app.state.settings, authorization)
