"""The LangGraph API's error bodies become Russian; other responses pass untouched."""

from __future__ import annotations

import httpx
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import JSONResponse, StreamingResponse
from starlette.routing import Route
from structlog.testing import capture_logs

from finagent.server.langgraph_http import NOT_FOUND, RussianErrors


async def thread(request: Request) -> JSONResponse:
    if request.path_params["tid"] == "missing":
        raise HTTPException(404, "Thread with ID missing not found (key sk-abcdef123456)")
    return JSONResponse({"thread_id": request.path_params["tid"]})


async def stream(_: Request) -> StreamingResponse:
    async def parts():  # type: ignore[no-untyped-def]
        for part in (b"event: values\n", b"data: {}\n\n"):
            yield part

    return StreamingResponse(parts(), media_type="text/event-stream")


def app() -> Starlette:
    routes = [
        Route("/threads/{tid}", thread, methods=["GET"]),
        Route("/stream", stream, methods=["POST"]),
    ]
    return Starlette(routes=routes, middleware=[Middleware(RussianErrors)])  # type: ignore[arg-type]


async def test_errors_become_russian_and_the_rest_passes() -> None:
    transport = httpx.ASGITransport(app=app())
    async with httpx.AsyncClient(transport=transport, base_url="http://t") as http:
        with capture_logs() as logs:
            missing = await http.get("/threads/missing")
        wrong_method = await http.delete("/threads/t1")
        ok = await http.get("/threads/t1")
        streamed = await http.post("/stream")
    assert missing.status_code == 404 and missing.json() == {"detail": NOT_FOUND}
    [event] = [e for e in logs if e["event"] == "langgraph_api_error"]
    assert "not found" in event["detail"] and "sk-abcdef123456" not in event["detail"]
    assert wrong_method.status_code == 405 and wrong_method.headers["allow"]
    assert wrong_method.json()["detail"].startswith("Метод DELETE не поддерживается")
    assert ok.json() == {"thread_id": "t1"}
    assert streamed.text == "event: values\ndata: {}\n\n"
