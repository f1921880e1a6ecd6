"""A loopback fake of an OpenAI-compatible embeddings endpoint (POST /v1/embeddings).

Vectors are deterministic (hashed bag of words), unnormalised, and answered out of order,
so the client's sorting by ``index`` and its normalisation are exercised.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from tests.fakes.net import serving

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
    with serving(fake.app()) as url:
        fake.url = url + "/v1"
        yield fake


@dataclass
class FakeChat:
    """OpenAI ``/v1/chat/completions`` replaying a script of replies, recording requests.

    A reply is ``{"content": "..."}`` or ``{"tool_calls": [{"name": ..., "arguments": {...}}]}``.
    Past the end of the script it answers HTTP 500, so an unexpected call is visible.
    """

    script: list[dict[str, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    auth: list[str | None] = field(default_factory=list)
    url: str = ""
    #: answer every request 401 with the received key repeated in the message, as real
    #: providers do ("Incorrect API key provided: ..."), whole and as a masked prefix
    echo_key_401: bool = False

    def app(self) -> Starlette:
        async def completions(request: Request) -> JSONResponse:
            body = await request.json()
            self.requests.append(body)
            self.auth.append(request.headers.get("authorization"))
            if self.echo_key_401:
                key = (request.headers.get("authorization") or "").removeprefix("Bearer ")
                message = f"Incorrect API key provided: {key}. Also seen as {key[:9]}****."
                return JSONResponse(
                    {"error": {"message": message, "type": "invalid_request_error"}},
                    status_code=401,
                )
            if len(self.requests) > len(self.script):
                return JSONResponse(
                    {"error": {"code": 500, "message": "script exhausted"}}, status_code=500
                )
            reply = self.script[len(self.requests) - 1]
            message: dict[str, Any] = {"role": "assistant", "content": reply.get("content")}
            finish = "stop"
            if "tool_calls" in reply:
                finish = "tool_calls"
                message["tool_calls"] = [
                    {
                        "id": f"call_{len(self.requests)}_{i}",
                        "type": "function",
                        "function": {
                            "name": c["name"],
                            "arguments": json.dumps(c["arguments"], ensure_ascii=False),
                        },
                    }
                    for i, c in enumerate(reply["tool_calls"])
                ]
            return JSONResponse(
                {
                    "id": f"chatcmpl-{len(self.requests)}",
                    "object": "chat.completion",
                    "created": 0,
                    "model": body.get("model", "fake"),
                    "choices": [{"index": 0, "message": message, "finish_reason": finish}],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
                }
            )

        return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


@contextmanager
def run_fake_chat(script: list[dict[str, Any]], **modes: Any) -> Iterator[FakeChat]:
    fake = FakeChat(script=script, **modes)
    with serving(fake.app()) as url:
        fake.url = url + "/v1"
        yield fake
