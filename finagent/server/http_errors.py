"""The service's error bodies: Russian texts, and the handlers that render every
validation and HTTP error as ``{"detail": "<message>"}`` (docs/serving.md)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field
from starlette.exceptions import HTTPException as StarletteHTTPException

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


def error_response(
    status: int, detail: str, headers: Mapping[str, str] | None = None
) -> JSONResponse:
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


async def invalid_request(request: Request, exc: Exception) -> JSONResponse:
    """422 in Russian; never echoes the input (it may not even be renderable)."""
    assert isinstance(exc, RequestValidationError)
    errors = list(exc.errors())
    problems = [_problem(e) for e in errors[:3]]
    if len(errors) > 3:
        problems.append(f"и ещё {len(errors) - 3}")
    return error_response(422, INVALID_BODY.format(problems="; ".join(problems)))


async def http_error(request: Request, exc: Exception) -> JSONResponse:
    """Every HTTP error in Russian: the framework's 400s (a body that is not JSON or
    multipart) become the documented 422; its 404 and 405 get Russian texts."""
    assert isinstance(exc, StarletteHTTPException)
    status = exc.status_code
    if status == 400:
        return error_response(422, UNPARSABLE_BODY.format(reason=BROKEN_BODY))
    if status == 404:
        return error_response(404, NOT_FOUND, exc.headers)
    if status == 405:
        allowed = (exc.headers or {}).get("Allow", "")
        text = METHOD_NOT_ALLOWED.format(method=request.method, allowed=allowed or "нет")
        return error_response(405, text, exc.headers)
    if status in (401, 413, 422):  # raised by our code with Russian texts
        return error_response(status, str(exc.detail), exc.headers)
    return error_response(status, HTTP_ERROR.format(status=status), exc.headers)
