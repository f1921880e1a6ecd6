"""``finagent serve``: the self-hosted HTTP service."""

from __future__ import annotations

from types import FrameType
from typing import TYPE_CHECKING, Annotated

import typer

from finagent.commands.common import load_settings
from finagent.commands.running import fail

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI


def _server(app: FastAPI, host: str, port: int, grace_s: int) -> uvicorn.Server:
    """A uvicorn server that, on SIGTERM/SIGINT, cancels uploads at once and gives the other
    requests ``grace_s`` seconds before cancelling them."""
    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            super().handle_exit(sig, frame)
            stop = getattr(app.state, "stop_ingestions", None)
            if stop is not None:
                stop()

    config = uvicorn.Config(
        app, host=host, port=port, log_level="warning", timeout_graceful_shutdown=grace_s
    )
    return Server(config)


def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port", min=1, max=65535)] = 8000,
) -> None:
    """Run the self-hosted HTTP service (FastAPI; users from FINAGENT_API_TOKENS)."""
    from finagent.server.app import create_app

    settings = load_settings()
    try:
        if not settings.token_users():
            fail("set FINAGENT_API_TOKENS ('token:user,...') before serving")
    except ValueError as exc:
        fail(str(exc))
    server = _server(create_app(settings), host, port, settings.shutdown_grace_s)
    server.run()
