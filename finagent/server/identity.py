"""Who is calling: bearer tokens from FINAGENT_API_TOKENS mapped to user ids."""

from __future__ import annotations

import hmac

from finagent.config import Settings

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
