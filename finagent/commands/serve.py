"""``finagent serve``: the self-hosted HTTP service."""

from __future__ import annotations

from types import FrameType
from typing import TYPE_CHECKING, Annotated, Any

import typer

from finagent.commands.common import load_settings
from finagent.commands.running import fail

if TYPE_CHECKING:
    import uvicorn
    from fastapi import FastAPI


TOKEN_EXAMPLE = 'FINAGENT_API_TOKENS="tok-alice-0001:alice,tok-bob-00002:bob" finagent serve'
NO_TOKENS = (
    "не заданы токены пользователей. Укажите пары «токен:пользователь» (токен от 8 "
    f"символов) в FINAGENT_API_TOKENS, например:\n  {TOKEN_EXAMPLE}"
)


def listening_lines(host: str, port: int, users: int) -> list[str]:
    """What ``serve`` prints once it listens: where the chat and the API docs are, and
    how to sign in."""
    shown = f"[{host}]" if ":" in host else host
    if host in {"0.0.0.0", "::"}:
        shown = "127.0.0.1"
    base = f"http://{shown}:{port}"
    return [
        f"finagent слушает {base}",
        f"  веб-чат:      {base}/",
        f"  документация API: {base}/docs",
        f"  вход: API-токен из FINAGENT_API_TOKENS (пользователей: {users}); "
        "в запросах — заголовок «Authorization: Bearer <токен>»",
        "  остановить: Ctrl+C",
    ]


def _server(app: FastAPI, host: str, port: int, grace_s: int, users: int) -> uvicorn.Server:
    """A uvicorn server that, on SIGTERM/SIGINT, cancels uploads at once and gives the other
    requests ``grace_s`` seconds before cancelling them; once it listens it prints where."""
    import uvicorn

    class Server(uvicorn.Server):
        async def startup(self, sockets: list[Any] | None = None) -> None:
            await super().startup(sockets)
            if self.started and not self.should_exit:
                bound = [s.getsockname() for srv in self.servers for s in srv.sockets]
                actual = int(bound[0][1]) if bound else port
                typer.echo("\n".join(listening_lines(host, actual, users)))

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
    """Run the self-hosted HTTP service: the web chat at /, the API (docs at /docs).

    Users sign in with the tokens of FINAGENT_API_TOKENS, e.g.
    FINAGENT_API_TOKENS="tok-alice-0001:alice" finagent serve --port 8000
    """
    settings = load_settings(log_to_stderr=True)
    try:
        users = settings.token_users()
    except ValueError as exc:
        fail(f"{exc}\n{NO_TOKENS}")
    if not users:
        fail(NO_TOKENS)
    from finagent.extras import require_extra

    require_extra("server")  # a missing one is one line (finagent/cli.py)
    from finagent.commands import gc_policy
    from finagent.server.app import create_app  # after the checks: it loads the whole agent

    server = _server(create_app(settings), host, port, settings.shutdown_grace_s, len(users))
    gc_policy.settled()
    server.run()
