"""Redaction of every form of a secret, on text, on structure and on response bytes."""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import httpx
import pytest
from langchain_core.messages import AIMessage
from langchain_core.outputs import ChatGeneration, LLMResult
from starlette.applications import Starlette
from starlette.responses import JSONResponse, PlainTextResponse, Response, StreamingResponse
from starlette.routing import Route

from finagent.error_report import error_kind, report
from finagent.redaction import Redactor, redact_json, register, scrub
from finagent.server.langserve_routes import make_serializer
from finagent.server.redacting import RedactResponses
from finagent.storage.serde import checkpoint_serde
from tests.fakes.openai_api import key_forms

KEY = "sk-proj-Unit9Secret4b7e1c0d8aZxQv"
SHORT = "tok-bob-77"
register([KEY, SHORT, "postgresql://finagent:Pg7secretPass42x@db.local:5432/finagent"])


def runs(text: str, key: str = KEY) -> list[str]:
    low, secret = text.lower(), key.lower()
    return [secret[i : i + 16] for i in range(len(secret) - 15) if secret[i : i + 16] in low]


@pytest.mark.parametrize("form", key_forms(KEY))
def test_every_form_of_a_key_is_redacted(form: str) -> None:
    out = Redactor([KEY]).redact(f"the provider said: {form}; nothing else")
    assert runs(out) == [] and "***" in out
    assert out.startswith("the provider said: ") and out.endswith("; nothing else")


def test_a_run_is_redacted_whole_not_only_its_first_16_characters() -> None:
    run = KEY[5:27]  # 22 characters, mixed case, with no known prefix
    out = Redactor([KEY]).redact(f"id={run.swapcase()}.")
    assert out == "id=***."


def test_short_secrets_match_whole_and_without_prefix_in_any_case() -> None:
    redactor = Redactor([SHORT, "tvly-dev-abc123xyz"])
    assert redactor.redact(f"token {SHORT.upper()} sent") == "token *** sent"
    assert redactor.redact("tavily said ABC123XYZ is wrong") == "tavily said *** is wrong"
    assert redactor.redact("a tok-bob-7 is not the token") == "a tok-bob-7 is not the token"


def test_a_url_secret_hides_its_password_not_its_host() -> None:
    redactor = Redactor(["postgresql://finagent:Pg7secretPass42x@db.local:5432/finagent"])
    out = redactor.redact(
        "connect to postgresql://finagent:***@db.local:5432 failed; pg7SECRETpass42X"
    )
    assert "db.local:5432" in out  # a run of the URL's public part is not the secret
    assert "pg7secretpass42" not in out.lower() and out.endswith("failed; ***")


def test_text_without_secrets_is_unchanged() -> None:
    text = "Ставка НДС при экспорте 0 % (ст. 164 НК РФ). " * 300
    assert Redactor([KEY]).redact(text) == text


@dataclass
class Box:
    note: str
    count: int


def test_scrub_keeps_types_and_untouched_objects() -> None:
    message = AIMessage("ok", response_metadata={"body": {"error": f"bad key {KEY[3:]}"}})
    value = {"messages": [message], "box": Box(KEY.upper(), 2), "pair": ("a", KEY), "n": 1}
    out = scrub(value)
    assert isinstance(out["messages"][0], AIMessage) and out["messages"][0].content == "ok"
    assert out["messages"][0].response_metadata == {"body": {"error": "bad key ***"}}
    assert out["box"] == Box("***", 2) and out["pair"] == ("a", "***")
    assert runs(repr(out)) == []
    clean = {"a": ["b", ("c", 1)], "m": AIMessage("x")}
    assert scrub(clean) is clean  # nothing copied when nothing changed


def test_redact_json_walks_exceptions_models_and_bytes() -> None:
    error = RuntimeError(f"401: {KEY}")
    out = redact_json({KEY: [error, KEY.encode(), AIMessage(KEY[-20:]), {1, 2}]})
    text = json.dumps(out)
    assert runs(text) == [] and "RuntimeError" in text


def test_langserve_serializer_redacts_a_stream_log_patch() -> None:
    # what the red team saw: a ChatOpenAI run's final_output in a stream_log patch
    generation = ChatGeneration(
        message=AIMessage("", response_metadata={"body": f"Incorrect API key {KEY[8:]}"})
    )
    patch = {
        "ops": [
            {
                "op": "add",
                "path": "/logs/ChatOpenAI/final_output",
                "value": LLMResult(generations=[[generation]]),
            }
        ]
    }
    data = make_serializer().dumps(patch)
    assert runs(data.decode()) == []
    assert json.loads(data)["ops"][0]["path"] == "/logs/ChatOpenAI/final_output"


def test_checkpoint_serde_writes_redacted_values_it_reads_back() -> None:
    serde = checkpoint_serde()
    message = AIMessage("x", response_metadata={"body": KEY.upper()})
    kind, blob = serde.dumps_typed({"messages": [message], "debug": {"e": KEY}})
    assert runs(blob.decode("latin-1")) == []
    back = serde.loads_typed((kind, blob))
    assert isinstance(back["messages"][0], AIMessage) and back["debug"] == {"e": "***"}


async def _get(response: Callable[[], Response]) -> httpx.Response:
    async def endpoint(request: Any) -> Response:
        return response()

    app = RedactResponses(Starlette(routes=[Route("/", endpoint)]))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        return await c.get("/")


async def test_middleware_fixes_the_length_of_a_redacted_body() -> None:
    response = await _get(lambda: JSONResponse({"detail": f"upstream said {KEY}"}))
    assert response.json() == {"detail": "upstream said ***"}
    assert int(response.headers["content-length"]) == len(response.content)


async def test_middleware_finds_a_key_split_between_streamed_chunks() -> None:
    async def events() -> Any:
        half = len(KEY) // 2
        yield f'data: {{"a": "{KEY[:half]}'
        yield f'{KEY[half:]}"}}\n\n'
        yield 'data: {"b": 1}\n\n'

    response = await _get(lambda: StreamingResponse(events(), media_type="text/event-stream"))
    assert response.text == 'data: {"a": "***"}\n\ndata: {"b": 1}\n\n'


async def test_middleware_leaves_binary_bodies_alone() -> None:
    blob = KEY.encode() + b"\x00\xff"
    response = await _get(lambda: Response(blob, media_type="application/octet-stream"))
    assert response.content == blob
    text = await _get(lambda: PlainTextResponse(f"{KEY}\n"))
    assert text.text == "***\n"


def test_stdlib_log_records_are_redacted(capsys: pytest.CaptureFixture[str]) -> None:
    from finagent.observability import configure_logging

    configure_logging("INFO")
    logger = logging.getLogger("tests.redaction.stdlib")
    handler = logging.StreamHandler()
    logger.addHandler(handler)
    try:
        logger.warning("request failed: %s", KEY.upper())
        try:
            raise ValueError(f"body: {KEY[8:]}")
        except ValueError:
            logger.exception("upstream")
    finally:
        logger.removeHandler(handler)
    err = capsys.readouterr().err
    assert "request failed: ***" in err and "ValueError: body: ***" in err
    assert runs(err) == []


def test_report_keeps_kind_and_request_id_only() -> None:
    import openai

    request = httpx.Request("POST", "http://127.0.0.1/v1/chat/completions")
    response = httpx.Response(401, request=request, headers={"x-request-id": "req_42"})
    upstream = openai.AuthenticationError(f"bad key {KEY}", response=response, body=None)
    try:
        raise RuntimeError("the call failed") from upstream
    except RuntimeError as exc:
        assert error_kind(exc) == "AuthenticationError"
        assert report(exc, "test_failure") == {
            "error_kind": "AuthenticationError",
            "request_id": "req_42",
        }
    generated = report(ValueError(KEY), "test_failure")
    assert generated["error_kind"] == "ValueError" and generated["request_id"].startswith("fa-")


def test_an_echoed_key_in_json_output_keeps_the_json_valid() -> None:
    text = json.dumps(
        {"success": True, "query": "API KEY PROVIDED: ab12cd***1234", "results": []},
        separators=(",", ":"),
    )
    out = Redactor([]).redact(text)
    assert "ab12cd" not in out and "1234" not in out
    assert json.loads(out)["results"] == []  # the pattern stops at the key's last character
