"""A self-hosted FastAPI service around the agent (``finagent serve``).

Bearer tokens from FINAGENT_API_TOKENS identify the user; requests never name a user.
No request gets a 5xx: errors are JSON ``{"detail": "<message>"}``, bad bodies a 422 in
Russian, oversized ones a 413 (docs/serving.md, "Robustness").
"""

from __future__ import annotations

import asyncio
import os
import tempfile
from collections.abc import AsyncIterator, Coroutine
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Annotated, Any

from fastapi import Depends, FastAPI, HTTPException, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import Response
from pydantic import AfterValidator, BaseModel, Field
from pydantic_core import PydanticCustomError
from starlette.exceptions import HTTPException as StarletteHTTPException

from finagent.bootstrap import Deps, Root
from finagent.config import Settings, get_settings
from finagent.graph.agent import (
    MAX_CHAT_ID_CHARS,
    MAX_INSTRUCTIONS_CHARS,
    MAX_SELECTED_DOCUMENTS,
    Agent,
    InvalidRequestError,
)
from finagent.observability import get_logger
from finagent.retrieval.ingest import Ingestor
from finagent.server.body_checks import BodyLimit, Utf8JsonRoute
from finagent.server.http_errors import (
    AUTH_ERRORS,
    BAD_TEXT,
    BODY_ERRORS,
    http_error,
    invalid_request,
)
from finagent.server.identity import current_user
from finagent.server.ingestions import Ingestions
from finagent.server.uploads import (
    UPLOAD_PREFIX,
    clean_uploads,
    private_uploads_dir,
    safe_filename,
    write_private,
)
from finagent.text_safety import is_utf8

log = get_logger("finagent.server")

MAX_UPLOAD_FILES = 20  # default of FINAGENT_MAX_UPLOAD_FILES
MAX_JSON_BODY_BYTES = 1024 * 1024
MULTIPART_OVERHEAD_BYTES = 1024 * 1024  # part headers and boundaries around the files

FILE_COUNT = "Отправьте от 1 до {limit} файлов в поле files."
UPLOAD_TOO_LARGE = "Файлы слишком большие в сумме: допустимо не больше {limit} байт за запрос."
FILE_FAILED = "{name}: не удалось обработать файл, проверьте, что он не повреждён"
STOPPING = "{name}: загрузка прервана, потому что сервис останавливается; отправьте файл позже"


def _clean_text(value: str) -> str:
    """Reject text the storage and the embedder cannot take (NUL, lone surrogates)."""
    if not is_utf8(value) or "\x00" in value:
        raise PydanticCustomError("bad_text", BAD_TEXT)
    return value


Text = Annotated[str, AfterValidator(_clean_text)]


class AskRequest(BaseModel):
    query: Text = Field(description="The question, in Russian")
    chat_id: Text | None = Field(default=None, max_length=MAX_CHAT_ID_CHARS)
    document_ids: list[Text] = Field(default_factory=list, max_length=MAX_SELECTED_DOCUMENTS)
    answer_instructions: Text | None = Field(default=None, max_length=MAX_INSTRUCTIONS_CHARS)


class AskResponse(BaseModel):
    answer: str
    scenario: int | None
    sources: list[dict[str, Any]]


User = Annotated[str, Depends(current_user)]


async def _start(root: Root | None) -> Deps:
    assert root is not None
    return await root.start()


async def _wait_disconnect(request: Request) -> None:
    """Return when the client goes away (the request body has been read already)."""
    while (await request.receive())["type"] != "http.disconnect":
        continue


async def _unless_disconnected(request: Request, work: Coroutine[Any, Any, None]) -> bool:
    """Run ``work`` until it ends or the client disconnects (then cancel it, and wait for
    its clean-up); whether it ran to its end."""
    task = asyncio.create_task(work)
    watcher = asyncio.create_task(_wait_disconnect(request))
    try:
        await asyncio.wait({task, watcher}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        watcher.cancel()
        if not task.done():
            task.cancel()
        await asyncio.gather(task, watcher, return_exceptions=True)
    if task.cancelled():
        return False
    failure = task.exception()
    if failure is not None:
        raise failure
    return True


def create_app(settings: Settings | None = None, deps: Deps | Root | None = None) -> FastAPI:
    """The service's app over ``deps`` (started by the caller, or a root started and closed
    with the app; the environment's when not given)."""
    conf = settings or get_settings()
    root = deps if isinstance(deps, Root) else Root(conf) if deps is None else None
    ingestions = Ingestions(conf.ingest_concurrency)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        loop = asyncio.get_running_loop()
        # called from a signal handler (finagent serve): cancel uploads at once
        app.state.stop_ingestions = lambda: loop.call_soon_threadsafe(ingestions.cancel_all)
        removed = await asyncio.to_thread(clean_uploads, conf.data_dir)
        if removed:
            log.warning("stale_uploads_removed", count=removed)
        started = deps if isinstance(deps, Deps) else await _start(root)
        app.state.deps = started
        app.state.agent = Agent(started)
        from finagent.server.langserve_routes import mount_langserve

        mount_langserve(app, started)  # the graphs need the started dependencies
        try:
            yield
        finally:
            ingestions.cancel_all()
            if deps is None and root is not None:
                await root.aclose()

    app = FastAPI(title="finagent", version="0.1.0", lifespan=lifespan)
    app.router.route_class = Utf8JsonRoute

    app.state.settings = conf
    app.state.ingestions = ingestions
    app.add_exception_handler(RequestValidationError, invalid_request)
    app.add_exception_handler(StarletteHTTPException, http_error)
    app.add_middleware(
        BodyLimit,
        json_limit=MAX_JSON_BODY_BYTES,
        upload_limit=min(conf.max_upload_files * (conf.max_file_bytes + 1), conf.max_upload_bytes)
        + MULTIPART_OVERHEAD_BYTES,
    )

    async def ingest_one(ingestor: Ingestor, user: str, path: Path) -> dict[str, Any]:
        """One uploaded file's outcome; whatever its content, it never fails the request."""
        result: dict[str, Any] = {"file": path.name, "document_id": None, "status": "error"}
        # the loader refuses what it cannot read, zip bombs included, as this file's error
        try:
            report = await ingestions.run(
                user, path.name, lambda: ingestor.ingest_documents(user, [path])
            )
        except Exception:
            log.exception("upload_ingest_failed", file=path.name)
            return {**result, "error": FILE_FAILED.format(name=path.name)}
        done = report.results[0]
        folder = f"{path.parent}{os.sep}"  # messages may quote the server's temporary path
        return {
            **result,
            "document_id": done.document_id,
            "status": done.status,
            "error": done.error.replace(folder, "") if done.error else done.error,
        }

    @app.get("/healthz")
    async def healthz() -> dict[str, str]:
        return {"status": "ok"}

    @app.post("/v1/ask", response_model=AskResponse, responses=BODY_ERRORS)
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

    @app.post("/v1/ask/stream", responses=BODY_ERRORS, response_class=Response)
    async def ask_stream(body: AskRequest, user: User) -> Response:
        """The answer as Server-Sent Events (progress, token, final, error: docs/serving.md)."""
        from finagent.server.stream import stream_response

        agent: Agent = app.state.agent
        try:
            prepared = agent.prepare(
                user, body.query, body.chat_id, body.document_ids or None, body.answer_instructions
            )
        except InvalidRequestError as exc:
            raise HTTPException(422, str(exc)) from exc
        return stream_response(agent, prepared)

    @app.get("/v1/documents", responses=AUTH_ERRORS)
    async def list_documents(user: User) -> list[dict[str, Any]]:
        deps: Deps = app.state.deps
        return [d.model_dump() for d in await deps.documents.list(user)]

    @app.get("/v1/documents/ingestions", responses=AUTH_ERRORS)
    async def list_ingestions(user: User) -> list[dict[str, Any]]:
        """The caller's uploads being ingested or queued: stage, chunks done/total, ETA."""
        return ingestions.of(user)

    @app.post("/v1/documents", responses=BODY_ERRORS)
    async def upload_documents(
        files: list[UploadFile], user: User, request: Request
    ) -> dict[str, Any]:
        if not files or len(files) > conf.max_upload_files:
            raise HTTPException(422, FILE_COUNT.format(limit=conf.max_upload_files))
        total = sum(upload.size or 0 for upload in files)
        if total > conf.max_upload_bytes:
            raise HTTPException(413, UPLOAD_TOO_LARGE.format(limit=conf.max_upload_bytes))
        deps: Deps = app.state.deps
        ingestor = deps.ingestor()
        limit = conf.max_file_bytes
        results: list[dict[str, Any]] = []
        names = [safe_filename(upload.filename, f"file{i}") for i, upload in enumerate(files)]
        root = await asyncio.to_thread(private_uploads_dir, conf.data_dir)
        with tempfile.TemporaryDirectory(prefix=UPLOAD_PREFIX, dir=root) as tmp:  # 0700

            async def ingest_all() -> None:
                for i, (upload, name) in enumerate(zip(files, names, strict=True)):
                    data = await upload.read(limit + 1)  # one byte more tells "too large"
                    path = Path(tmp) / str(i) / name  # own folder: errors name the user's file
                    await asyncio.to_thread(write_private, path, data)
                    results.append(await ingest_one(ingestor, user, path))

            finished = await _unless_disconnected(request, ingest_all())
        if not finished:
            log.info("upload_cancelled", files=len(files), done=len(results))
        stopped = {"document_id": None, "status": "error"}
        for name in names[len(results) :]:  # cancelled: the service is stopping
            results.append({"file": name, **stopped, "error": STOPPING.format(name=name)})
        return {"results": results}

    from finagent.server.redacting import RedactResponses

    app.add_middleware(RedactResponses)  # outermost: no body leaves with a secret in it
    from finagent.server.extras import mount_extras  # web chat, chats, research, LangServe

    mount_extras(app)
    return app
