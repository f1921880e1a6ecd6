"""A loopback fake of the LangSmith API: records every run upload as raw bytes.

It answers ``GET /info`` (the client asks for the server's limits) and accepts every
``POST``/``PATCH`` (``/runs/multipart``, ``/runs/batch``, ``/runs``), keeping the bodies.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.fakes.net import serving


@dataclass
class FakeLangSmith:
    url: str = ""
    uploads: list[tuple[str, bytes]] = field(default_factory=list)

    def app(self) -> Starlette:
        async def info(request: Request) -> JSONResponse:
            return JSONResponse({"version": "0.0-fake", "batch_ingest_config": {}})

        async def upload(request: Request) -> JSONResponse:
            self.uploads.append((request.url.path, await request.body()))
            return JSONResponse({})

        return Starlette(
            routes=[
                Route("/info", info, methods=["GET"]),
                Route("/{path:path}", upload, methods=["POST", "PATCH", "PUT"]),
            ]
        )


@contextmanager
def run_fake_langsmith() -> Iterator[FakeLangSmith]:
    fake = FakeLangSmith()
    with serving(fake.app()) as url:
        fake.url = url
        yield fake
