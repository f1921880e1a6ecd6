"""``finagent serve``: the self-hosted HTTP service."""

from __future__ import annotations

from typing import Annotated

import typer

from finagent.commands.common import load_settings
from finagent.commands.running import fail


def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port", min=1, max=65535)] = 8000,
) -> None:
    """Run the self-hosted HTTP service (FastAPI; users from FINAGENT_API_TOKENS)."""
    import uvicorn

    from finagent.server.app import create_app

    settings = load_settings()
    try:
        if not settings.token_users():
            fail("set FINAGENT_API_TOKENS ('token:user,...') before serving")
    except ValueError as exc:
        fail(str(exc))
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")
