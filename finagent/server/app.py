"""A self-hosted FastAPI service around the agent (``finagent serve``).

Bearer tokens from FINAGENT_API_TOKENS identify the user; requests never name a user.
"""

from __future__ import annotations

import asyncio
import tempfile
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Request, UploadFile
from pydantic import BaseModel, Field

from finagent.config import Settings, get_settings
from finagent.graph.agent import Agent, InvalidRequestError
from finagent.server.identity import Unauthorized, user_for_authorization
from finagent.services import Services

MAX_UPLOAD_FILES = 20


class AskRequest(BaseModel):
    query: str = Field(description="The question, in Russian")
    chat_id: str | None = Field(default=None, max_length=200)
    document_ids: list[str] = Field(default_factory=list, max_length=50)
    answer_instructions: str | None = Field(default=None, max_length=2000)


class AskResponse(BaseModel):
    answer: str
    scenario: int | None
    sources: list[dict[str, Any]]


def current_user(request: Request, authorization: Annotated[str | None, Header()] = None) -> str:
    """The user of the request's bearer token (401 without a valid one)."""
    try:
        return user_for_authorization(request.app.state.settings, authorization)
    except Unauthorized as exc:
        raise HTTPException(401, str(exc), headers={"WWW-Authenticate": "Bearer"}) from exc


User = Annotated[str, Depends(current_user)]


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True)
    path.write_bytes(data)


def create_app(settings: Settings | None = None, services: Services | None = None) -> FastAPI:
    conf = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        svc = services or Services(conf)
        await svc.start()
        app.state.agent = Agent(svc)
        try:
            yield
        finally:
            if services is None:
                await svc.aclose()

    app = FastAPI(title="finagent", version="0.1.0", lifespan=lifespan)

    app.state.settings = conf

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/ask", response_model=AskResponse)
    async def ask(body: AskRequest, user: User) -> AskResponse:
        agent: Agent = app.state.agent
        try:
            result = await agent.run(
                user_id=user,
                query=body.query,
                chat_id=body.chat_id,
                selected_document_ids=body.document_ids or None,
                answer_instructions=body.answer_instructions,
            )
        except InvalidRequestError as exc:
            raise HTTPException(422, str(exc)) from exc
        sources = [
            {"id": c.id, "title": c.title, "document_id": c.document_id, "source": c.source}
            for c in result.used_chunks
        ]
        return AskResponse(answer=result.answer, scenario=result.scenario, sources=sources)

    @app.get("/v1/documents")
    async def list_documents(user: User) -> list[dict[str, Any]]:
        agent: Agent = app.state.agent
        return [d.model_dump() for d in await agent.services.documents.list(user)]

    @app.post("/v1/documents")
    async def upload_documents(files: list[UploadFile], user: User) -> dict[str, Any]:
        if not files or len(files) > MAX_UPLOAD_FILES:
            raise HTTPException(422, f"send 1 to {MAX_UPLOAD_FILES} files")
        agent: Agent = app.state.agent
        limit = conf.max_file_bytes
        with tempfile.TemporaryDirectory(prefix="finagent-upload-") as tmp:
            paths = []
            for i, upload in enumerate(files):
                name = Path(upload.filename or "").name or f"file{i}"
                data = await upload.read(limit + 1)  # one byte more tells "too large"
                path = Path(tmp) / str(i) / name  # own folder: errors name the user's file
                await asyncio.to_thread(_write, path, data)
                paths.append(path)
            report = await agent.services.ingestor().ingest_documents(user, paths)
        return {
            "results": [
                {
                    "file": Path(r.path).name,
                    "document_id": r.document_id,
                    "status": r.status,
                    "error": r.error,
                }
                for r in report.results
            ]
        }

    return app
