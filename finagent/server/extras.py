"""What ``finagent serve`` adds to the JSON API: chat and research endpoints for the web
chat, LangServe routes for both graphs, and the web chat page itself at ``/``."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from finagent.services import Services

STATIC_DIR = Path(__file__).with_name("static")


def mount_extras(app: FastAPI, services: Services) -> None:
    from finagent.server.chat_api import build_router
    from finagent.server.langserve_routes import mount_langserve

    app.include_router(build_router())
    mount_langserve(app, services)
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False)
    async def web_chat() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})
