"""Tool calls a model wrote as text instead of the API's ``tool_calls``.

Small models and servers that do not enforce ``tool_choice`` (llama.cpp, some vLLM
templates) write the call into the reply's text, in one of these shapes:

- Hermes/Qwen tags: ``<tool_call>{"name": "t", "arguments": {...}}</tool_call>``;
- a fenced block: ````json {"name": "t", "arguments": {...}} ````;
- a bare object, alone or inside prose: ``{"name": "t", "arguments": {...}}`` (also
  ``"parameters"`` for the arguments, ``{"function": {...}}`` around it, and arguments
  given as a JSON string).

:func:`text_tool_calls` finds them, :func:`bound_calls` keeps the ones that name a bound
tool with valid arguments (as LangChain tool calls, ready to run), and
:func:`holds_tool_markup` says whether a text is tool-call or tool-schema markup at all
(a call envelope counts even when its JSON does not parse), which is never an answer for
a reader.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from langchain_core.messages import ToolCall
from pydantic import BaseModel, ValidationError

Shape = Literal["tagged", "fenced", "bare"]

_TAGGED = re.compile(r"<tool_call>\s*(.*?)\s*(?:</tool_call>|$)", re.DOTALL)
_FENCE = re.compile(r"```[A-Za-z0-9_-]*[ \t]*\r?\n(.*?)```", re.DOTALL)
# what chat templates wrap tool definitions and calls in; a reply holding them echoes the
# template instead of answering
_MARKUP = re.compile(r"</?tool_call>|</?tools>|<\|?tool_calls?\|?>|\[TOOL_CALLS\]")
_ARGUMENT_KEYS = ("arguments", "parameters", "args")
# the opening of a call envelope, which marks a call even when its JSON is broken (a brace
# left out, a reply cut inside it): {"name": "t", "arguments": … or {"function": {"name": …
_ENVELOPE = re.compile(
    r'\{\s*"name"\s*:\s*"[^"\n]{1,100}"\s*,\s*"(?:arguments|parameters|args)"\s*:'
    r'|\{\s*"function"\s*:\s*\{\s*"name"\s*:'
)


@dataclass(frozen=True)
class TextToolCall:
    """One call found in text: the tool's name, its arguments and the shape it came in."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)
    shape: Shape = "bare"


def json_objects(text: str) -> Iterator[dict[str, Any]]:
    """Every top-level JSON object embedded in ``text``, in order (prose is skipped)."""
    decoder = json.JSONDecoder()
    start = text.find("{")
    while start != -1:
        try:
            data, end = decoder.raw_decode(text, start)
        except ValueError:
            start = text.find("{", start + 1)
            continue
        if isinstance(data, dict):
            yield data
        start = text.find("{", end)


def _is_schema(value: Any) -> bool:
    """A JSON schema of parameters (an echoed tool definition), not arguments."""
    return isinstance(value, dict) and value.get("type") == "object" and "properties" in value


def as_call(data: dict[str, Any], shape: Shape = "bare") -> TextToolCall | None:
    """``data`` read as a tool call envelope (``name`` + arguments), else None."""
    inner = data.get("function")
    if isinstance(inner, dict) and "name" in inner:
        data = inner
    name = data.get("name")
    if not isinstance(name, str) or not name.strip():
        return None
    keys = [k for k in _ARGUMENT_KEYS if k in data]
    if not keys or set(data) - {"name", "id", "type", *_ARGUMENT_KEYS}:
        return None
    args: Any = data[keys[0]]
    if isinstance(args, str):
        try:
            args = json.loads(args) if args.strip() else {}
        except ValueError:
            return None
    if not isinstance(args, dict) or _is_schema(args):
        return None
    return TextToolCall(name.strip(), args, shape)


def _calls_in(text: str, shape: Shape) -> list[TextToolCall]:
    found = [as_call(obj, shape) for obj in json_objects(text)]
    return [c for c in found if c is not None]


def text_tool_calls(text: str) -> list[TextToolCall]:
    """The tool calls written in ``text``: tagged ones if any, else fenced, else bare."""
    tagged = [c for block in _TAGGED.findall(text) for c in _calls_in(block, "tagged")]
    if tagged:
        return tagged
    fenced = [c for block in _FENCE.findall(text) for c in _calls_in(block, "fenced")]
    return fenced or _calls_in(text, "bare")


def _echoes_tool_schema(text: str) -> bool:
    for obj in json_objects(text):
        inner = obj.get("function") if isinstance(obj.get("function"), dict) else obj
        if isinstance(inner, dict) and "name" in inner and _is_schema(inner.get("parameters")):
            return True
    return False


def holds_tool_markup(text: str) -> bool:
    """``text`` holds a tool call (also one whose JSON is broken), chat-template tool tags
    or an echoed tool definition."""
    if _MARKUP.search(text) or _ENVELOPE.search(text):
        return True
    return bool(text_tool_calls(text)) or _echoes_tool_schema(text)


def bound_calls(calls: list[TextToolCall], tools: Mapping[str, type[BaseModel]]) -> list[ToolCall]:
    """The ``calls`` that name one of ``tools`` (name → input model) with arguments its
    model accepts, as LangChain tool calls with fresh ids; the others are dropped."""
    out: list[ToolCall] = []
    for call in calls:
        model = tools.get(call.name)
        if model is None:
            continue
        try:
            model.model_validate(call.args)
        except ValidationError:
            continue
        out.append(ToolCall(name=call.name, args=call.args, id=f"call_{uuid.uuid4().hex[:12]}"))
    return out
