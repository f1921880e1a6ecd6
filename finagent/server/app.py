"""A self-hosted FastAPI service around the agent (``finagent serve``).

Bearer tokens from FINAGENT_API_TOKENS identify the user; requests never name a user.
No request gets a 5xx: errors are JSON ``{"detail": "<message>"}``, bad bodies a 422 in
Russian, oversized ones a 413 (docs/serving.md, "Robustness").
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from contextlib import asynccontextmanager
from pathlib import Path, PurePosixPath
from typing import Annotated, Any

from fastapi import Depends, FastAPI, Header, HTTPException, Request, UploadFile
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import AfterValidator, BaseModel, Field
from pydantic_core import PydanticCustomError
from starlette.datastructures import Headers
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

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
from finagent.server.identity import Unauthorized, user_for_authorization
from finagent.text_safety import is_utf8

log = get_logger("finagent.server")

MAX_UPLOAD_FILES = 20  # default of FINAGENT_MAX_UPLOAD_FILES
UPLOAD_PREFIX = "finagent-upload-"
MAX_JSON_BODY_BYTES = 1024 * 1024
MULTIPART_OVERHEAD_BYTES = 1024 * 1024  # part headers and boundaries around the files
MAX_NAME_BYTES = 255  # one path component on common filesystems

BAD_TEXT = "текст содержит недопустимые символы (NUL или одиночные суррогаты UTF-16)"
INVALID_BODY = "Некорректный запрос: {problems}."
UNPARSABLE_BODY = (
    "Не удалось разобрать тело запроса: ожидается JSON в UTF-8, а для загрузки файлов — "
    "multipart/form-data с полями files ({reason})."
)
BODY_TOO_LARGE = "Запрос слишком большой: допустимо не больше {limit} байт."
NOT_UTF8 = "тело запроса не в кодировке UTF-8"
BROKEN_BODY = "тело запроса повреждено"
NOT_FOUND = "Адрес не найден: такого метода API нет (список методов: /docs)."
METHOD_NOT_ALLOWED = "Метод {method} не поддерживается для этого адреса; допустимо: {allowed}."
HTTP_ERROR = "Запрос не выполнен (HTTP {status})."
FILE_COUNT = "Отправьте от 1 до {limit} файлов в поле files."
UPLOAD_TOO_LARGE = "Файлы слишком большие в сумме: допустимо не больше {limit} байт за запрос."
FILE_FAILED = "{name}: не удалось обработать файл, проверьте, что он не повреждён"
_REASONS = {
    "missing": "обязательное поле не передано",
    "string_type": "ожидается строка",
    "list_type": "ожидается список",
    "model_attributes_type": "ожидается JSON-объект",
    "dict_type": "ожидается JSON-объект",
    "string_too_long": "слишком длинная строка",
    "too_long": "слишком много элементов",
    "json_invalid": "некорректный JSON",
    "bad_text": BAD_TEXT,
}


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


class ErrorResponse(BaseModel):
    detail: str = Field(description="What is wrong and what to do (Russian for bad input)")


AUTH_ERRORS: dict[int | str, dict[str, Any]] = {
    401: {"model": ErrorResponse, "description": "No valid bearer token"},
    422: {"model": ErrorResponse, "description": "Bad input"},
}
BODY_ERRORS: dict[int | str, dict[str, Any]] = {
    **AUTH_ERRORS,
    413: {"model": ErrorResponse, "description": "Request body too large"},
}


def current_user(request: Request, authorization: Annotated[str | None, Header()] = None) -> str:
    """The user of the request's bearer token (401 without a valid one)."""
    try:
        return user_for_authorization(request.app.state.settings, authorization)
    except Unauthorized as exc:  # the message is Russian, the reason (English) is logged
        log.info("auth_rejected", reason=exc.reason)
        raise HTTPException(401, str(exc), headers={"WWW-Authenticate": "Bearer"}) from exc


User = Annotated[str, Depends(current_user)]


def _error(status: int, detail: str, headers: Mapping[str, str] | None = None) -> JSONResponse:
    safe = detail.encode("utf-8", "replace").decode("utf-8")  # always renderable
    return JSONResponse({"detail": safe}, status_code=status, headers=headers)


def _problem(error: Mapping[str, Any] | str) -> str:
    if not isinstance(error, Mapping):  # LangServe's bare strings ("Invalid JSON body")
        return f"тело запроса: {_REASONS['json_invalid']}"
    kind = str(error.get("type", ""))
    loc: Sequence[Any] = error.get("loc") or ()
    where = ".".join(str(p) for p in loc[1:]) if kind != "json_invalid" else ""
    if kind == "too_long" and isinstance(error.get("input"), str):
        kind = "string_too_long"  # a length limit on an optional string
    reason = _REASONS.get(kind, "недопустимое значение")
    limit = (error.get("ctx") or {}).get("max_length")
    if kind in ("string_too_long", "too_long") and isinstance(limit, int):
        unit = "символов" if kind == "string_too_long" else "элементов"
        reason += f" (допустимо не больше {limit} {unit})"
    return f"{where or 'тело запроса'}: {reason}"


async def _invalid_request(request: Request, exc: Exception) -> JSONResponse:
    """422 in Russian; never echoes the input (it may not even be renderable)."""
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    problems = [_problem(e) for e in errors[:3]]
    if len(errors) > 3:
        problems.append(f"и ещё {len(errors) - 3}")
    return _error(422, INVALID_BODY.format(problems="; ".join(problems)))


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    """Every HTTP error in Russian: the framework's 400s (a body that is not JSON or
    multipart) become the documented 422; its 404 and 405 get Russian texts."""
    assert isinstance(exc, StarletteHTTPException)
    status = exc.status_code
    if status == 400:
        return _error(422, UNPARSABLE_BODY.format(reason=BROKEN_BODY))
    if status == 404:
        return _error(404, NOT_FOUND, exc.headers)
    if status == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        text = METHOD_NOT_ALLOWED.format(method=request.method, allowed=allowed or "нет")
        return _error(405, text, exc.headers)
    if status in (401, 413, 422):  # raised by our code with Russian texts
        return _error(status, str(exc.detail), exc.headers)
    return _error(status, HTTP_ERROR.format(status=status), exc.headers)


def _is_json(content_type: str | None) -> bool:
    kind = (content_type or "").split(";", 1)[0].strip().lower()
    return kind == "application/json" or (
        kind.startswith("application/") and kind.endswith("+json")
    )


class Utf8JsonRoute(APIRoute):
    """A route whose JSON bodies must be UTF-8 (RFC 8259), as docs/serving.md says.

    FastAPI hands the bytes to ``json.loads``, which also detects UTF-16 and UTF-32: those
    bodies get the documented 422 here instead. A NUL byte never occurs in UTF-8 JSON (it
    is not allowed unescaped) but is in every UTF-16/32 encoding of it.
    """

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        handler = super().get_route_handler()

        async def checked(request: Request) -> Response:
            if request.method == "POST" and _is_json(request.headers.get("content-type")):
                body = await request.body()  # cached: the handler reads the same bytes
                if not is_utf8_bytes(body) or b"\x00" in body:
                    return _error(422, UNPARSABLE_BODY.format(reason=NOT_UTF8))
            return await handler(request)

        return checked


def is_utf8_bytes(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _declared_length(scope: Scope) -> int | None:
    value = Headers(scope=scope).get("content-length", "")
    if not (value.isascii() and value.isdigit()):
        return None
    return int(value) if len(value) < 19 else sys.maxsize


class BodyLimit:
    """Answers 413 to a body over its route's limit instead of buffering all of it."""

    def __init__(self, app: ASGIApp, json_limit: int, upload_limit: int) -> None:
        self.app = app
        self.json_limit = json_limit
        self.upload_limit = upload_limit

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self.upload_limit if scope["path"] == "/v1/documents" else self.json_limit
        declared = _declared_length(scope)
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            if declared is not None and declared > limit:
                raise HTTPException(413, BODY_TOO_LARGE.format(limit=limit))
            message = await receive()
            received += len(message.get("body", b""))
            if received > limit:
                raise HTTPException(413, BODY_TOO_LARGE.format(limit=limit))
            return message

        await self.app(scope, limited_receive, send)


def safe_filename(raw: str | None, fallback: str) -> str:
    """The client's file name reduced to one printable path component of at most 255 bytes."""
    name = (raw or "").replace("\\", "/").rsplit("/", 1)[-1]
    name = "".join(ch for ch in name if ch.isprintable()).strip()
    if name in ("", ".", ".."):
        return fallback
    if len(name.encode()) > MAX_NAME_BYTES:
        suffix = PurePosixPath(name).suffix
        suffix = suffix if len(suffix.encode()) <= 16 else ""
        stem = name[: len(name) - len(suffix)].encode()[: MAX_NAME_BYTES - len(suffix.encode())]
        name = stem.decode("utf-8", "ignore") + suffix
    return name


def uploads_dir(data_dir: Path) -> Path:
    """Where uploads wait for ingestion: inside the data dir, never in a shared /tmp."""
    return data_dir / "uploads"


def private_uploads_dir(data_dir: Path) -> Path:
    """The uploads folder, created if needed and readable by its owner only (0700)."""
    root = uploads_dir(data_dir)
    root.mkdir(mode=0o700, parents=True, exist_ok=True)
    root.chmod(0o700)
    return root


def clean_uploads(data_dir: Path) -> int:
    """Remove what uploads left behind after a crash (kill -9); the number removed.

    Called on start-up, before the service takes requests.
    """
    root = uploads_dir(data_dir)
    removed = 0
    if not root.is_dir():
        return removed
    for entry in root.iterdir():
        if entry.name.startswith(UPLOAD_PREFIX):
            if entry.is_dir() and not entry.is_symlink():
                shutil.rmtree(entry, ignore_errors=True)
            else:
                entry.unlink(missing_ok=True)
            removed += 1
    return removed


def write_private(path: Path, data: bytes) -> None:
    """Write ``data`` to a new file only its owner can read (0600, folders 0700)."""
    path.parent.mkdir(mode=0o700, parents=True)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(data)


async def _start(root: Root | None) -> Deps:
    assert root is not None
    return await root.start()


def create_app(settings: Settings | None = None, deps: Deps | Root | None = None) -> FastAPI:
    """The service's app over ``deps`` (started by the caller, or a root started and closed
    with the app; the environment's when not given)."""
    conf = settings or get_settings()
    root = deps if isinstance(deps, Root) else Root(conf) if deps is None else None

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
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
            if deps is None and root is not None:
                await root.aclose()

    app = FastAPI(title="finagent", version="0.1.0", lifespan=lifespan)
    app.router.route_class = Utf8JsonRoute

    app.state.settings = conf
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(StarletteHTTPException, _http_error)
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
            report = await ingestor.ingest_documents(user, [path])
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

    @app.post("/v1/documents", responses=BODY_ERRORS)
    async def upload_documents(files: list[UploadFile], user: User) -> dict[str, Any]:
        if not files or len(files) > conf.max_upload_files:
            raise HTTPException(422, FILE_COUNT.format(limit=conf.max_upload_files))
        total = sum(upload.size or 0 for upload in files)
        if total > conf.max_upload_bytes:
            raise HTTPException(413, UPLOAD_TOO_LARGE.format(limit=conf.max_upload_bytes))
        deps: Deps = app.state.deps
        ingestor = deps.ingestor()
        limit = conf.max_file_bytes
        results = []
        root = await asyncio.to_thread(private_uploads_dir, conf.data_dir)
        with tempfile.TemporaryDirectory(prefix=UPLOAD_PREFIX, dir=root) as tmp:  # 0700
            for i, upload in enumerate(files):
                name = safe_filename(upload.filename, f"file{i}")
                data = await upload.read(limit + 1)  # one byte more tells "too large"
                path = Path(tmp) / str(i) / name  # own folder: errors name the user's file
                await asyncio.to_thread(write_private, path, data)
                results.append(await ingest_one(ingestor, user, path))
        return {"results": results}

    from finagent.server.extras import mount_extras  # web chat, chats, research, LangServe

    mount_extras(app)
    return app
