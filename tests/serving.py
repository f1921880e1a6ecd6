"""finagent's own service on 127.0.0.1 for tests: real sockets, in the test's event loop."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import uvicorn

from finagent.bootstrap import Deps
from finagent.server.app import create_app


@asynccontextmanager
async def loopback_service(services: Deps) -> AsyncIterator[str]:
    """``finagent serve``'s app over ``services`` under uvicorn; yields its base URL."""
    app = create_app(services.settings, services)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False))
    task = asyncio.create_task(server.serve(sockets=[sock]))
    while not server.started:  # readiness polling
        assert not task.done(), "uvicorn did not start"
        await asyncio.sleep(0.01)
    try:
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"
    finally:
        server.should_exit = True
        await task
        sock.close()
