"""A total deadline for every request of an httpx client, its response body included.

The OpenAI SDK (the LLM and the embeddings endpoint) only has per-read/connect timeouts:
a server that drips a byte now and then, or streams an answer for ever, never trips
them. :func:`with_deadline` wraps the transports of an ``AsyncClient`` so that each
request - sending it, waiting for the head and reading every chunk of the body - ends
within ``min(deadline_s, answer budget left)``; past it the request fails with the
library's ``ReadTimeout``, which the SDK reports as a timeout (and may retry while the
answer budget lasts).

The OpenAI SDK ships its own fork of httpx (``httpx2``) with the same API, so the
wrappers are built for whichever library the given client comes from.
"""

from __future__ import annotations

import asyncio
import importlib
from collections.abc import AsyncIterator
from functools import cache
from types import ModuleType
from typing import Any

from finagent.clients.budget import remaining_s


def _limit(deadline_s: float) -> float:
    left = remaining_s()
    return deadline_s if left is None else min(deadline_s, left)


def _library_of(client: Any) -> ModuleType:
    """``httpx`` or ``httpx2``: the package that defines the client's AsyncClient base."""
    for cls in type(client).__mro__:
        if cls.__name__ == "AsyncClient":
            return importlib.import_module(cls.__module__.split(".")[0])
    raise TypeError(f"not an httpx AsyncClient: {type(client).__name__}")


@cache
def _classes(lib: ModuleType) -> tuple[type[Any], type[Any]]:
    """The deadline transport and body stream classes for ``lib`` (httpx or httpx2)."""

    class DeadlineStream(lib.AsyncByteStream):  # type: ignore[name-defined, misc]
        """A response body whose every chunk must arrive before the request's deadline."""

        def __init__(self, stream: Any, end: float, message: str) -> None:
            self._stream = stream
            self._end = end
            self._message = message

        async def __aiter__(self) -> AsyncIterator[bytes]:
            chunks = self._stream.__aiter__()
            while True:
                try:
                    async with asyncio.timeout_at(self._end):
                        chunk = await chunks.__anext__()
                except StopAsyncIteration:
                    return
                except TimeoutError:
                    raise lib.ReadTimeout(self._message) from None
                yield chunk

        async def aclose(self) -> None:
            await self._stream.aclose()

    class DeadlineTransport(lib.AsyncBaseTransport):  # type: ignore[name-defined, misc]
        """Bounds each request through ``inner`` to ``deadline_s`` (and the answer budget)."""

        def __init__(self, inner: Any, deadline_s: float, service: str) -> None:
            self._inner = inner
            self._deadline_s = deadline_s
            self._service = service

        async def handle_async_request(self, request: Any) -> Any:
            limit = _limit(self._deadline_s)
            message = f"{self._service} did not answer within {max(limit, 0.0):.1f} s"
            if limit <= 0:
                raise lib.ReadTimeout(message, request=request)
            end = asyncio.get_running_loop().time() + limit
            try:
                async with asyncio.timeout_at(end):
                    response = await self._inner.handle_async_request(request)
            except TimeoutError:
                raise lib.ReadTimeout(message, request=request) from None
            return lib.Response(
                status_code=response.status_code,
                headers=response.headers,
                stream=DeadlineStream(response.stream, end, message),
                extensions=response.extensions,
                request=request,
            )

        async def aclose(self) -> None:
            await self._inner.aclose()

    return DeadlineTransport, DeadlineStream


def with_deadline(client: Any, deadline_s: float, service: str) -> Any:
    """``client`` (an httpx or httpx2 ``AsyncClient``) with every transport bounded.

    Wraps the transports the client built itself (the default one and any proxy mounts),
    so its proxy settings from the environment, limits and TLS options stay as they are.
    """
    transport_cls, _ = _classes(_library_of(client))
    client._transport = transport_cls(client._transport, deadline_s, service)
    client._mounts = {
        pattern: None if inner is None else transport_cls(inner, deadline_s, service)
        for pattern, inner in client._mounts.items()
    }
    return client
