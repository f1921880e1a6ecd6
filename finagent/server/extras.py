"""What ``finagent serve`` adds to the JSON API: chat and research endpoints for the web
chat and the web chat page itself at ``/``."""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

STATIC_DIR = Path(__file__).with_name("static")


def mount_extras(app: FastAPI) -> None:
    """Chat and research endpoints and the web chat (LangServe routes mount on start-up,
    over the started dependencies: finagent/server/app.py)."""
    from finagent.server.chat_api import build_router

    app.include_router(build_router())
    app.mount("/static", StaticFiles(directory=STATIC_DIR), name="static")

    @app.get("/", include_in_schema=False)
    async def web_chat() -> FileResponse:
        return FileResponse(STATIC_DIR / "index.html", headers={"Cache-Control": "no-cache"})
