"""Who is calling: bearer tokens from FINAGENT_API_TOKENS mapped to user ids."""

from __future__ import annotations

import hmac

from finagent.config import Settings


class Unauthorized(Exception):
    """No valid bearer token; the message says what to send."""


def user_for_authorization(settings: Settings, authorization: str | None) -> str:
    """The user of an ``Authorization: Bearer <token>`` header, or raise Unauthorized."""
    tokens = settings.token_users()
    if not tokens:
        raise Unauthorized("the service has no API tokens: set FINAGENT_API_TOKENS")
    scheme, _, token = (authorization or "").partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("send 'Authorization: Bearer <token>'")
    for known, user in tokens.items():  # constant-time comparison per token
        if hmac.compare_digest(known.encode(), token.strip().encode()):
            return user
    raise Unauthorized("invalid API token")
