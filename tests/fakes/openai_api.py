"""A loopback fake of an OpenAI-compatible embeddings endpoint (POST /v1/embeddings).

Vectors are deterministic (hashed bag of words), unnormalised, and answered out of order,
so the client's sorting by ``index`` and its normalisation are exercised.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.fakes.net import LoopbackServer

DIM = 16


def fake_vector(text: str) -> list[float]:
    vec = [0.0] * DIM
    for word in text.lower().split():
        digest = hashlib.sha256(word.encode()).digest()
        vec[digest[0] % DIM] += 1.0 + digest[1] / 255
    return vec


@dataclass
class FakeEmbeddings:
    url: str = ""
    inputs: list[list[str]] = field(default_factory=list)
    auth: list[str | None] = field(default_factory=list)

    def app(self) -> Starlette:
        async def embeddings(request: Request) -> JSONResponse:
            body = await request.json()
            texts = body["input"] if isinstance(body["input"], list) else [body["input"]]
            self.inputs.append(texts)
            self.auth.append(request.headers.get("authorization"))
            data = [
                {"object": "embedding", "index": i, "embedding": fake_vector(t)}
                for i, t in enumerate(texts)
            ]
            return JSONResponse(
                {
                    "object": "list",
                    "data": list(reversed(data)),
                    "model": body["model"],
                    "usage": {"prompt_tokens": 1, "total_tokens": 1},
                }
            )

        return Starlette(routes=[Route("/v1/embeddings", embeddings, methods=["POST"])])


@contextmanager
def run_fake_embeddings() -> Iterator[FakeEmbeddings]:
    fake = FakeEmbeddings()
    server = LoopbackServer(fake.app())
    server.start()
    fake.url = server.url + "/v1"
    try:
        yield fake
    finally:
        server.stop()
