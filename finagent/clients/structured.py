"""Structured output from any OpenAI-compatible server, tolerant of provider quirks.

Both methods of ``FINAGENT_LLM_STRUCTURED_METHOD`` go through ``invoke_json``:

- ``json_schema``: the schema is sent as a strict JSON schema we build ourselves (every
  object closed with ``additionalProperties: false`` and every property required, as
  OpenAI's strict mode demands); the reply is validated by our own parser, so a server
  that ignores ``response_format`` still works.
- ``function_calling``: the schema is offered as the only tool with
  ``tool_choice="required"`` (a string). langchain-openai would name the function in an
  object, which llama.cpp, vLLM and others reject or ignore.

Whatever the server does, the JSON object is looked for in the tool calls, then in a
tool call written as text that names the schema (``<tool_call>`` tags, a fence or a bare
``{"name": …, "arguments": …}``: servers that ignore ``tool_choice`` get these), then in
```json fences, then in the plain text of the reply (``extract_json``). A
``function_calling`` reply that calls no tool and holds no valid object (the server did
not enforce ``tool_choice``, the model wrote prose) is asked once more with the schema as
``response_format``, which llama.cpp and vLLM enforce with a grammar.

The schema's limits (``maxItems``, ``maxLength``, ``minItems``, ``minLength``) are sent
when the provider accepts them (``keep_limits``, ``FINAGENT_LLM_SCHEMA_LIMITS``): a local
server's grammar then stops a list at its bound instead of repeating items until
``max_tokens``. OpenAI's strict mode rejects them, so they are stripped there; pydantic
checks them on our side either way. Enums and constants are always sent.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal, TypeVar

from langchain_core.messages import BaseMessage
from langchain_core.runnables import RunnableConfig
from pydantic import BaseModel, ValidationError

from finagent.clients.text_tool_calls import text_tool_calls
from finagent.observability import get_logger, redact

if TYPE_CHECKING:  # slow to import; annotations only
    from langchain_core.language_models import BaseChatModel

M = TypeVar("M", bound=BaseModel)
Found = Literal["tool_call", "text_tool_call", "fence", "text"]

#: Keywords no strict schema carries (the reply is validated by pydantic, defaults included).
_UNSUPPORTED = ("default",)
#: Length limits: sent where the provider accepts them (``keep_limits``), else stripped.
LIMITS = ("minLength", "maxLength", "minItems", "maxItems")
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\r?\n(.*?)```", re.DOTALL)
_NAME = re.compile(r"[^A-Za-z0-9_-]+")
_CUT = "the reply was cut at max_tokens before its JSON ended"

log = get_logger("finagent.clients.structured")


class StructuredOutputError(RuntimeError):
    """The model's reply holds no usable JSON object; the message says why (redacted)."""


class StructuredCallError(StructuredOutputError):
    """The call itself failed (network, HTTP error, timeout); the reason is redacted."""


@dataclass
class JsonReply:
    """The JSON object found in a reply, where it was found, and the reply itself."""

    data: dict[str, Any]
    found: Found
    raw: BaseMessage
    #: asked again with the schema as response format (the server ignored tool_choice)
    reasked: bool = False


# --- parsing ------------------------------------------------------------------------------


def _load_object(text: str) -> dict[str, Any] | None:
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _first_object(text: str) -> dict[str, Any] | None:
    """The first complete JSON object embedded in ``text`` (prose around it is ignored)."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            data, _ = decoder.raw_decode(text, start)
        except ValueError:
            data = None
        if isinstance(data, dict):
            return data
        start = text.find("{", start + 1)
    return None


def parse_json_text(text: str) -> tuple[dict[str, Any], Found] | None:
    """A JSON object from model text: the whole text, a fenced block, or embedded in prose."""
    stripped = text.strip()
    if not stripped:
        return None
    whole = _load_object(stripped)
    if whole is not None:
        return whole, "text"
    for block in _FENCE.findall(stripped):
        data = _load_object(block.strip()) or _first_object(block)
        if data is not None:
            return data, "fence"
    embedded = _first_object(stripped)
    return (embedded, "text") if embedded is not None else None


def extract_json(
    message: BaseMessage, schema_name: str | None = None
) -> tuple[dict[str, Any], Found] | None:
    """The JSON object of a reply: first tool call, a malformed tool call, a tool call
    written as text naming ``schema_name`` (its arguments), fence or text."""
    for call in getattr(message, "tool_calls", None) or []:
        if isinstance(call.get("args"), dict) and call["args"]:
            return dict(call["args"]), "tool_call"
    for call in getattr(message, "invalid_tool_calls", None) or []:
        args = call.get("args")
        parsed = parse_json_text(args) if isinstance(args, str) else None
        if parsed is not None:
            return parsed[0], "tool_call"
    text = message.text if isinstance(message.text, str) else str(message.content)
    if schema_name is not None:
        for written in text_tool_calls(text):
            if written.name == schema_name and written.args:
                return written.args, "text_tool_call"
    return parse_json_text(text)


# --- the schema sent --------------------------------------------------------------------------


def _strict(node: Any, defs: dict[str, Any], dropped: tuple[str, ...]) -> Any:
    if isinstance(node, list):
        return [_strict(item, defs, dropped) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node and len(node) > 1:  # OpenAI rejects siblings of $ref: inline it
        target = defs.get(str(node["$ref"]).rsplit("/", 1)[-1], {})
        node = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
    out = {
        k: v if k in ("enum", "const") else _strict(v, defs, dropped)
        for k, v in node.items()
        if k not in dropped
    }
    if "properties" in out or out.get("type") == "object":
        out.setdefault("properties", {})
        out["required"] = list(out["properties"])
        out["additionalProperties"] = False
    return out


def strict_json_schema(schema: type[BaseModel], keep_limits: bool = False) -> dict[str, Any]:
    """``schema`` as an OpenAI strict JSON schema: objects closed, every property required;
    its length limits kept when ``keep_limits`` (the provider accepts them)."""
    raw = copy.deepcopy(schema.model_json_schema())
    defs = raw.get("$defs", {})
    dropped = _UNSUPPORTED if keep_limits else (*_UNSUPPORTED, *LIMITS)
    strict = _strict(raw, defs, dropped)
    if "$defs" in strict:
        strict["$defs"] = {k: _strict(v, defs, dropped) for k, v in defs.items()}
    return dict(strict)


def response_format(schema: type[BaseModel], keep_limits: bool = False) -> dict[str, Any]:
    """The ``json_schema`` response format for ``schema`` (name, description, strict)."""
    name = _NAME.sub("_", schema.__name__)[:64] or "Output"
    body: dict[str, Any] = {
        "name": name,
        "schema": strict_json_schema(schema, keep_limits),
        "strict": True,
    }
    if schema.__doc__:
        body["description"] = schema.__doc__.strip()[:500]
    return {"type": "json_schema", "json_schema": body}


# --- the call -------------------------------------------------------------------------------


def _speaks_openai(llm: BaseChatModel) -> bool:
    try:
        from langchain_openai.chat_models.base import BaseChatOpenAI
    except ImportError:  # pragma: no cover - langchain-openai is a dependency
        return False
    return isinstance(llm, BaseChatOpenAI)


def _runnable(llm: BaseChatModel, schema: type[BaseModel], method: str, keep_limits: bool) -> Any:
    if method == "function_calling":
        # a string tool_choice: servers that only accept strings honour it
        return llm.with_structured_output(
            schema, method="function_calling", include_raw=True, tool_choice="required"
        )
    if _speaks_openai(llm):
        # our own strict response format, and the raw message back: our parser validates,
        # not the SDK's (which raises on a fenced or slightly invalid reply)
        return llm.bind(response_format=response_format(schema, keep_limits))
    return llm.with_structured_output(schema, method="json_schema", include_raw=True)


def _reason(exc: BaseException) -> str:
    # redact before cutting: a cut could leave half a key that no pattern matches
    return redact(f"{type(exc).__name__}: {exc}")[:300]


async def _reply(
    llm: BaseChatModel,
    schema: type[BaseModel],
    messages: Sequence[BaseMessage],
    method: str,
    config: RunnableConfig | None,
    keep_limits: bool,
) -> tuple[BaseMessage, JsonReply | None]:
    """One call with ``method``: the reply and the JSON object found in it, if any."""
    try:
        runnable = _runnable(llm, schema, method, keep_limits)
        result = await runnable.ainvoke(list(messages), config)
    except Exception as exc:
        from openai import LengthFinishReasonError  # slow to import; only failures need it

        if isinstance(exc, LengthFinishReasonError):
            # the server answered: the reply was cut at max_tokens, a bad reply, not an outage
            raise StructuredOutputError(_CUT) from exc
        raise StructuredCallError(_reason(exc)) from exc
    raw = result.get("raw") if isinstance(result, dict) else result
    parsed = result.get("parsed") if isinstance(result, dict) else None
    if not isinstance(raw, BaseMessage):
        raise StructuredOutputError("the model returned no message")
    if isinstance(parsed, BaseModel):
        return raw, JsonReply(parsed.model_dump(mode="json"), "tool_call", raw)
    found = extract_json(raw, schema.__name__)
    return raw, JsonReply(found[0], found[1], raw) if found is not None else None


def _ignored_tool_choice(
    llm: BaseChatModel,
    schema: type[BaseModel],
    method: str,
    raw: BaseMessage,
    reply: JsonReply | None,
    validate: bool,
) -> bool:
    """``function_calling`` on a server that let the model answer without calling the tool
    (llama.cpp does not enforce ``tool_choice``), and its text holds no object (no object
    valid for ``schema`` when ``validate``: the caller validates it strictly)."""
    if method != "function_calling" or not _speaks_openai(llm):
        return False
    if getattr(raw, "tool_calls", None) or getattr(raw, "invalid_tool_calls", None):
        return False
    if reply is None:
        return True
    if not validate:
        return False
    try:
        schema.model_validate(reply.data)
    except ValidationError:
        return True
    return False


def _no_json(raw: BaseMessage, method: str) -> StructuredOutputError:
    meta = getattr(raw, "response_metadata", None) or {}
    if meta.get("finish_reason") == "length":
        return StructuredOutputError(_CUT)
    text = raw.text if isinstance(raw.text, str) else ""
    return StructuredOutputError(
        f"no JSON object in the reply ({method}): {redact(text.strip())[:120]!r}"
    )


async def _invoke(
    llm: BaseChatModel,
    schema: type[BaseModel],
    messages: Sequence[BaseMessage],
    method: str,
    config: RunnableConfig | None,
    keep_limits: bool,
    validate: bool,
) -> JsonReply:
    raw, reply = await _reply(llm, schema, messages, method, config, keep_limits)
    if _ignored_tool_choice(llm, schema, method, raw, reply, validate):
        # the server does not enforce tool_choice: worth an operator's look (use json_schema)
        log.warning("structured_reask", schema=schema.__name__, had_json=reply is not None)
        method = "json_schema"
        raw, reply = await _reply(llm, schema, messages, method, config, keep_limits)
        if reply is not None:
            reply.reasked = True
    if reply is None:
        raise _no_json(raw, method)
    return reply


async def invoke_json(
    llm: BaseChatModel,
    schema: type[BaseModel],
    messages: Sequence[BaseMessage],
    method: str,
    config: RunnableConfig | None = None,
    keep_limits: bool = False,
) -> JsonReply:
    """Ask for ``schema`` with ``method``; the JSON object found in the reply, unvalidated.

    ``keep_limits``: the provider accepts the schema's length limits (see the module
    docstring). With ``function_calling``, a reply that calls no tool and holds no JSON
    object (the server ignored ``tool_choice``) is asked once more with the schema as the
    response format, which such servers enforce (``JsonReply.reasked``). Raises
    ``StructuredOutputError`` (redacted reason) when the call fails or the reply holds no
    JSON object.
    """
    return await _invoke(llm, schema, messages, method, config, keep_limits, validate=False)


async def invoke_structured(
    llm: BaseChatModel,
    schema: type[M],
    messages: Sequence[BaseMessage],
    method: str,
    config: RunnableConfig | None = None,
    keep_limits: bool = False,
) -> tuple[M, JsonReply]:
    """Like ``invoke_json``, validated against ``schema`` (``StructuredOutputError`` if not);
    a ``function_calling`` reply without a tool call is asked again when its object does
    not validate either."""
    reply = await _invoke(llm, schema, messages, method, config, keep_limits, validate=True)
    try:
        return schema.model_validate(reply.data), reply
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first["loc"]) or "root"
        raise StructuredOutputError(
            f"the reply does not match {schema.__name__}: {where}: {first['msg']}"
        ) from exc
