"""The tool contract: generated schema, errors as text, identity from config, redaction."""

from __future__ import annotations

from typing import Any

import pytest
import structlog
from pydantic import BaseModel, Field

from finagent.observability import register_secrets
from finagent.tools.base import Tool, ToolContext, ToolError
from finagent.tools.registry import ToolRegistry


class EchoInput(BaseModel):
    text: str = Field(min_length=1, max_length=50, description="Text to echo back")
    mode: str = Field(default="plain", description="'plain', 'fail', 'crash' or 'long'")


class Echo(Tool[EchoInput]):
    """Echo text back. Use when testing the tool layer."""

    name = "echo"
    input_model = EchoInput
    output_limit = 100

    async def run(self, args: EchoInput, ctx: ToolContext) -> str:
        if args.mode == "fail":
            raise ToolError("echo refused: try mode=plain")
        if args.mode == "crash":
            raise RuntimeError("secret-token-12345 leaked in a stack")
        if args.mode == "long":
            return args.text * 100
        return f"{ctx.user_id}: {args.text}"


CTX = ToolContext(user_id="alice")


def test_schema_is_generated_from_the_model() -> None:
    schema = Echo().openai_schema()["function"]
    assert schema["name"] == "echo"
    assert schema["description"].startswith("Echo text back. Use when")
    props = schema["parameters"]["properties"]
    assert props["text"]["description"] == "Text to echo back"
    assert schema["parameters"]["required"] == ["text"]


@pytest.mark.parametrize(
    ("args", "expected", "kind"),
    [
        ({"text": "hi"}, "alice: hi", None),
        ({}, "Error: invalid arguments: text: Field required", "invalid_arguments"),
        (
            {"text": ""},
            "Error: invalid arguments: text: String should have at least 1 character",
            "invalid_arguments",
        ),
        ({"text": "x", "mode": "fail"}, "Error: echo refused: try mode=plain", "error"),
        (
            {"text": "x", "mode": "crash"},
            "Error: echo failed (RuntimeError); try again later",
            "failure",
        ),
    ],
)
async def test_errors_never_escape_and_the_outcome_is_typed(
    args: dict[str, str], expected: str, kind: str | None
) -> None:
    result = await Echo().invoke(args, CTX)
    assert result.text == expected  # what the LLM sees
    assert (result.ok, result.error_kind, result.tool) == (kind is None, kind, "echo")
    assert result.source_note == "echo"  # no note declared: the tool's name


async def test_output_is_truncated_with_a_marker() -> None:
    out = await Echo().invoke({"text": "abc", "mode": "long"}, CTX)
    assert len(out) == 100 and out.endswith("[...truncated]")


async def test_secrets_are_redacted_from_output_and_logs() -> None:
    register_secrets(["alice-api-key-0000"])
    with structlog.testing.capture_logs() as logs:
        out = await Echo().invoke({"text": "alice-api-key-0000"}, CTX)
    assert "alice-api-key-0000" not in out and "***" in out
    event = next(e for e in logs if e["event"] == "tool_call")
    assert event["tool"] == "echo" and event["outcome"] == "ok"
    assert "args_digest" in event and "alice-api-key-0000" not in str(event)


async def test_langchain_tool_takes_user_from_run_config() -> None:
    tool = Echo().as_langchain()
    out = await tool.ainvoke({"text": "hi"}, {"configurable": {"user_id": "bob"}})
    assert out == "bob: hi"
    assert (await tool.ainvoke({"text": "hi"})).startswith("Error: no user is set")
    assert "user_id" not in tool.args


async def test_registry_lookup_and_unknown_names() -> None:
    registry = ToolRegistry([Echo()])
    assert await registry.call("echo", {"text": "x"}, CTX) == "alice: x"
    unknown = await registry.call("nope", {}, CTX)
    assert unknown.startswith("Error: unknown tool 'nope'")
    assert (unknown.ok, unknown.error_kind) == (False, "unknown_tool")
    with pytest.raises(ValueError, match="already registered"):
        registry.register(Echo())
    with pytest.raises(KeyError):
        registry.subset(["echo", "nope"])
    assert registry.openai_schemas()[0]["function"]["name"] == "echo"


async def test_a_deferred_registry_builds_its_tools_once_at_the_first_read() -> None:
    builds: list[int] = []

    def build() -> list[Tool[Any]]:
        builds.append(1)
        return [Echo()]

    registry = ToolRegistry(build=build)
    assert not registry.built and builds == []
    assert "echo" in registry and registry.built
    assert await registry.call("echo", {"text": "y"}, CTX) == "alice: y"
    assert registry.names() == ["echo"] and len(builds) == 1


async def test_a_deferred_build_that_fails_is_tried_again_and_leaves_nothing_half_built() -> None:
    attempts: list[int] = []

    def build() -> list[Tool[Any]]:
        attempts.append(1)
        if len(attempts) == 1:
            raise OSError("the knowledge base folder is not readable yet")
        return [Echo()]

    registry = ToolRegistry(build=build)
    with pytest.raises(OSError):
        registry.names()
    assert not registry.built
    assert registry.names() == ["echo"] and registry.built and len(attempts) == 2
    assert await registry.call("echo", {"text": "z"}, CTX) == "alice: z"


def test_tool_metadata_is_declared_once_on_the_tool() -> None:
    from finagent.graph.research import CATALOGUE
    from finagent.tools.base import DECLARED
    from finagent.tools.declared import builtin_tool_names, declared_tool

    names = builtin_tool_names()
    # the research catalogue is the set of declared built-in tools; test tools stay out
    assert CATALOGUE == names and "echo" not in DECLARED
    assert {"fetch_cbr_data", "resolve_legal_reference", "kb_read_file"} <= names
    assert declared_tool("fetch_cbr_data").source_note == "cbr.ru"
    assert declared_tool("fetch_cbr_data").source_name == "Банк России"
    assert declared_tool("Req_Compare_Rates_For_Dates").source_note == "cbr.ru"
    assert declared_tool("search_user_documents").source_note == "документы пользователя"
