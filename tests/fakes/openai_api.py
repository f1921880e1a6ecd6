"""Loopback fakes of OpenAI-compatible endpoints: embeddings and chat completions.

Embedding vectors are deterministic (hashed bag of words), unnormalised, and answered out
of order, so the client's sorting by ``index`` and its normalisation are exercised.

The chat fake replays a script and can behave like the real servers finagent meets
(``FakeChat.mode``): OpenAI's strict json_schema checks, llama.cpp's string-only
``tool_choice``, a model that fences its JSON, a model that writes text instead of calling
a tool, an error that echoes the API key, and slow streaming.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import re
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response, StreamingResponse
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


#: Provider behaviours of the chat fake (see ``FakeChat``).
MODES = (
    "openai",
    "openai_strict",
    "llamacpp",
    "llamacpp_weak",
    "fenced_json",
    "text_instead_of_tool",
    "echo_key_401",
    "echo_key_forms_401",
    "slow_stream",
)
_SCHEMA_NAME = re.compile(r"^[A-Za-z0-9_-]{1,64}$")


class StrictSchemaError(ValueError):
    """A schema OpenAI's strict mode rejects (the message mimics OpenAI's)."""


def check_strict_schema(node: Any, context: str = "()") -> None:
    """OpenAI strict mode: every object closed and every property required, recursively."""
    if isinstance(node, list):
        for item in node:
            check_strict_schema(item, context)
        return
    if not isinstance(node, dict):
        return
    if "properties" in node or node.get("type") == "object":
        properties = node.get("properties") or {}
        if node.get("additionalProperties") is not False:
            raise StrictSchemaError(
                f"In context={context}, 'additionalProperties' is required to be supplied "
                "and to be false."
            )
        missing = [k for k in properties if k not in (node.get("required") or [])]
        if missing:
            raise StrictSchemaError(
                f"In context={context}, 'required' is required to be supplied and to be an "
                f"array including every key in properties. Missing '{missing[0]}'."
            )
    for key, value in node.items():
        check_strict_schema(value, f"{context}/{key}" if context != "()" else f"('{key}',)")


KEY_PREFIXES = ("sk-proj-", "sk-or-v1-", "sk-", "tvly-dev-", "tvly-")


def key_forms(key: str) -> list[str]:
    """The forms of ``key`` an echoing provider repeats: whole, without its prefix,
    upper-cased and a 16-character run from the middle."""
    bare = next((key[len(p) :] for p in KEY_PREFIXES if key.startswith(p)), key)
    middle = len(key) // 2 - 8
    return [key, bare, key.upper(), key[middle : middle + 16]]


def key_forms_text(key: str) -> str:
    whole, bare, upper, run = key_forms(key)
    return (
        f"Incorrect API key provided: {whole}. Key id {bare}; normalised {upper}; "
        f"fingerprint {run}."
    )


#: The shapes in which ``llamacpp_weak`` writes a tool call as text, in turn.
TEXT_CALL_SHAPES = ("tagged", "bare", "fenced", "echo_tools", "prose_string_args")


def text_call(shape: str, call: dict[str, Any], body: dict[str, Any]) -> str:
    """``call`` written as text the way a small model on llama.cpp writes it."""
    envelope = {"name": call["name"], "arguments": call["arguments"]}
    data = json.dumps(envelope, ensure_ascii=False)
    if shape == "tagged":
        return f"<tool_call>\n{data}\n</tool_call>"
    if shape == "fenced":
        return f"```json\n{data}\n```"
    if shape == "echo_tools":
        tools = json.dumps(body.get("tools") or [], ensure_ascii=False)
        return f"<tools>\n{tools}\n</tools>\n<tool_call>\n{data}\n</tool_call>"
    if shape == "prose_string_args":
        as_string = {"name": call["name"], "arguments": json.dumps(call["arguments"])}
        return f"Я вызову функцию. {json.dumps(as_string, ensure_ascii=False)} Готово."
    return data


def finish_reason(message: dict[str, Any]) -> str:
    if message.get("finish_reason"):
        return str(message.pop("finish_reason"))
    return "tool_calls" if message.get("tool_calls") else "stop"


@dataclass
class FakeChat:
    """OpenAI ``/v1/chat/completions`` replaying a script of replies, recording requests.

    A reply is ``{"content": "..."}``, ``{"tool_calls": [{"name": ..., "arguments": {...}}]}``
    or ``{"json": {...}}``: the object a model means to return for a structured call, put
    where the request and the server's behaviour (``mode``) put it:

    - ``openai``: a ``json_schema`` response format gets the JSON as content; offered tools
      get a call of the named (object ``tool_choice``) or first tool; else plain text.
    - ``openai_strict``: like ``openai``, but a ``strict`` schema (response format or tool)
      that is not closed and fully required is rejected with HTTP 400, as OpenAI does.
    - ``llamacpp``: ``tool_choice`` must be a string: an object is ignored (recorded in
      ``ignored``, the server falls back to ``auto``) and the model writes the JSON as text
      in a ```json fence; ``"required"`` forces a call of the first tool; a json_schema
      response format is honoured.
    - ``llamacpp_weak``: llama.cpp serving a small model: ``tool_choice`` is never
      enforced (neither ``"required"`` nor an object; recorded in ``ignored``), so the JSON
      and every scripted tool call come back as text, in the shapes small models write in
      turn (``TEXT_CALL_SHAPES``): Hermes/Qwen ``<tool_call>`` tags, a bare ``{"name",
      "arguments"}`` object, a fenced one, an echo of the ``<tools>`` block before the
      call, prose around a call with string arguments. A json_schema response format is
      honoured.
    - ``fenced_json``: the model always writes the JSON in a ```json fence, never a call.
    - ``text_instead_of_tool``: the model writes the JSON as plain text in a sentence
      instead of calling a tool, and a scripted tool call as a bare ``{"name",
      "arguments"}`` object in a sentence.
    - ``echo_key_401``: every request gets HTTP 401 whose message repeats the API key,
      whole and as a masked prefix, as real providers do.
    - ``echo_key_forms_401``: HTTP 401 whose message repeats the key in every form a
      provider or proxy may echo it: whole, without its prefix, upper-cased and as a
      16-character run from its middle; the response carries an ``x-request-id``.
    - ``slow_stream``: streamed replies come in small chunks with ``chunk_delay_s`` awaited
      on the server between them.

    A reply may also set ``finish_reason`` (``"length"``: the reply was cut at
    ``max_tokens``), or be ``{"error": {"code": 400, "message": ..., "type": ...}}``: the
    server refuses the request with that status and body. Streaming (``"stream": true``) is
    served as server-sent events in every mode. Past the end of the script it answers
    HTTP 500, so an unexpected call is visible.
    """

    script: list[dict[str, Any]] = field(default_factory=list)
    requests: list[dict[str, Any]] = field(default_factory=list)
    auth: list[str | None] = field(default_factory=list)
    url: str = ""
    mode: str = "openai"
    #: kept for older tests: the same as ``mode="echo_key_401"``
    echo_key_401: bool = False
    chunk_chars: int = 8
    chunk_delay_s: float = 0.05
    #: request parts the server ignored (llama.cpp's object tool_choice) or rejected
    ignored: list[str] = field(default_factory=list)
    rejected: list[str] = field(default_factory=list)
    #: number of SSE chunks sent per streamed request
    streamed_chunks: list[int] = field(default_factory=list)
    _text_calls: int = 0

    def __post_init__(self) -> None:
        if self.mode not in MODES:
            raise ValueError(f"unknown FakeChat mode {self.mode!r}; known: {', '.join(MODES)}")
        if self.echo_key_401:
            self.mode = "echo_key_401"

    # --- what the model says -----------------------------------------------------------

    def _strict_errors(self, body: dict[str, Any]) -> str | None:
        fmt = body.get("response_format") or {}
        if fmt.get("type") == "json_schema":
            spec = fmt.get("json_schema") or {}
            name = str(spec.get("name", ""))
            if not _SCHEMA_NAME.match(name):
                return f"Invalid 'response_format.json_schema.name': {name!r}."
            if spec.get("strict") is True:
                schema = spec.get("schema") or {}
                if schema.get("type") != "object":
                    return f"Invalid schema for response_format '{name}': root must be an object."
                try:
                    check_strict_schema(schema)
                except StrictSchemaError as exc:
                    return f"Invalid schema for response_format '{name}': {exc}"
        for tool in body.get("tools") or []:
            function = tool.get("function") or {}
            if function.get("strict") is True:
                try:
                    check_strict_schema(function.get("parameters") or {})
                except StrictSchemaError as exc:
                    return f"Invalid schema for function '{function.get('name')}': {exc}"
        return None

    def _forced_tool(self, body: dict[str, Any]) -> str | None:
        """The tool the server makes the model call, if any (after the mode's quirks)."""
        tools = [t["function"]["name"] for t in body.get("tools") or []]
        choice = body.get("tool_choice")
        if not tools:
            return None
        if self.mode == "llamacpp_weak" and choice not in (None, "auto"):
            self.ignored.append(f"tool_choice {json.dumps(choice)}")  # never enforced
            return None
        if isinstance(choice, dict):
            if self.mode == "llamacpp":
                self.ignored.append("tool_choice object")  # llama.cpp: type error -> auto
                return None
            return str(choice.get("function", {}).get("name") or choice.get("name") or tools[0])
        if choice == "required":
            return tools[0]
        return None

    def _message(self, reply: dict[str, Any], body: dict[str, Any]) -> dict[str, Any]:
        message: dict[str, Any] = {"role": "assistant", "content": reply.get("content")}
        calls = list(reply.get("tool_calls") or [])
        if "json" in reply:
            data = json.dumps(reply["json"], ensure_ascii=False)
            fmt = (body.get("response_format") or {}).get("type")
            forced = self._forced_tool(body)
            tools = [t["function"]["name"] for t in body.get("tools") or []]
            if self.mode == "llamacpp_weak" and tools and fmt != "json_schema":
                calls = [{"name": forced or tools[0], "arguments": reply["json"]}]
            elif self.mode == "fenced_json":
                message["content"] = f"Вот результат:\n```json\n{data}\n```"
            elif self.mode == "text_instead_of_tool":
                message["content"] = f"Мой ответ: {data}"
            elif fmt == "json_schema":
                message["content"] = data
            elif forced:
                calls = [{"name": forced, "arguments": reply["json"]}]
            elif tools and self.mode != "llamacpp":
                calls = [{"name": tools[0], "arguments": reply["json"]}]
            elif tools:  # llama.cpp under "auto": the JSON comes back as fenced text
                message["content"] = f"```json\n{data}\n```"
            else:
                message["content"] = data
        if calls and self.mode == "text_instead_of_tool":
            message["content"] = " ".join(
                "Вызываю инструмент: "
                + json.dumps({"name": c["name"], "arguments": c["arguments"]}, ensure_ascii=False)
                for c in calls
            )
            calls = []
        if calls and self.mode == "llamacpp_weak":
            shape = TEXT_CALL_SHAPES[self._text_calls % len(TEXT_CALL_SHAPES)]
            self._text_calls += 1
            message["content"] = "\n".join(text_call(shape, c, body) for c in calls)
            calls = []
        if calls:
            message["tool_calls"] = [
                {
                    "id": f"call_{len(self.requests)}_{i}",
                    "type": "function",
                    "function": {
                        "name": c["name"],
                        "arguments": json.dumps(c["arguments"], ensure_ascii=False),
                    },
                }
                for i, c in enumerate(calls)
            ]
        return message

    # --- the wire ------------------------------------------------------------------------

    async def _events(self, message: dict[str, Any], body: dict[str, Any]) -> AsyncIterator[str]:
        n = len(self.requests)
        base = {"id": f"chatcmpl-{n}", "object": "chat.completion.chunk", "created": 0}
        base["model"] = body.get("model", "fake")

        def event(delta: dict[str, Any], finish: str | None = None) -> str:
            choice = {"index": 0, "delta": delta, "finish_reason": finish}
            return "data: " + json.dumps({**base, "choices": [choice]}, ensure_ascii=False) + "\n\n"

        slow = self.mode == "slow_stream"
        size = self.chunk_chars if slow else 64
        pieces = [event({"role": "assistant", "content": ""})]
        text = message.get("content") or ""
        pieces += [event({"content": text[i : i + size]}) for i in range(0, len(text), size)]
        for i, call in enumerate(message.get("tool_calls") or []):
            function = call["function"]
            head = {"index": i, "id": call["id"], "type": "function"}
            head["function"] = {"name": function["name"], "arguments": ""}
            pieces.append(event({"tool_calls": [head]}))
            args = function["arguments"]
            for j in range(0, len(args), size):
                part = {"index": i, "function": {"arguments": args[j : j + size]}}
                pieces.append(event({"tool_calls": [part]}))
        finish = finish_reason(message)
        pieces.append(event({}, finish))
        if (body.get("stream_options") or {}).get("include_usage"):
            usage = {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
            chunk = {**base, "choices": [], "usage": usage}
            pieces.append("data: " + json.dumps(chunk) + "\n\n")
        self.streamed_chunks.append(len(pieces))
        for piece in pieces:
            if slow:
                await asyncio.sleep(self.chunk_delay_s)  # the server is slow, not the test
            yield piece
        yield "data: [DONE]\n\n"

    def app(self) -> Starlette:
        async def completions(request: Request) -> Response:
            body = await request.json()
            self.requests.append(body)
            self.auth.append(request.headers.get("authorization"))
            if self.mode == "echo_key_401":
                key = (request.headers.get("authorization") or "").removeprefix("Bearer ")
                text = f"Incorrect API key provided: {key}. Also seen as {key[:9]}****."
                return JSONResponse(
                    {"error": {"message": text, "type": "invalid_request_error"}},
                    status_code=401,
                )
            if self.mode == "echo_key_forms_401":
                key = (request.headers.get("authorization") or "").removeprefix("Bearer ")
                return JSONResponse(
                    {"error": {"message": key_forms_text(key), "type": "invalid_request_error"}},
                    status_code=401,
                    headers={"x-request-id": f"req_fake_{len(self.requests)}"},
                )
            if self.mode == "openai_strict":
                problem = self._strict_errors(body)
                if problem:
                    self.rejected.append(problem)
                    return JSONResponse(
                        {"error": {"message": problem, "type": "invalid_request_error"}},
                        status_code=400,
                    )
            if len(self.requests) > len(self.script):
                return JSONResponse(
                    {"error": {"code": 500, "message": "script exhausted"}}, status_code=500
                )
            reply = self.script[len(self.requests) - 1]
            if "error" in reply:  # the server refuses the request, as its error body says
                status = int(reply["error"].get("code", 400))
                return JSONResponse({"error": reply["error"]}, status_code=status)
            message = self._message(reply, body)
            if reply.get("finish_reason"):
                message["finish_reason"] = reply["finish_reason"]
            if body.get("stream"):
                return StreamingResponse(
                    self._events(message, body), media_type="text/event-stream"
                )
            finish = finish_reason(message)
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
