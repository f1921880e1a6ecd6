"""The tolerant structured-output parser and the strict schema sent to providers."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from finagent.clients.structured import (
    StructuredCallError,
    StructuredOutputError,
    extract_json,
    invoke_structured,
    parse_json_text,
    strict_json_schema,
)
from finagent.routing.llm_router import OrchestratorOutput
from tests.fakes.llm import ScriptedChatModel, tool_call_message

DECISION = {"scenario": 2, "intents": ["kb"], "confidence": 0.8}


@pytest.mark.parametrize(
    ("text", "found"),
    [
        ('{"scenario": 2, "intents": ["kb"], "confidence": 0.8}', "text"),
        ('```json\n{"scenario": 2, "intents": ["kb"], "confidence": 0.8}\n```', "fence"),
        (
            'Вот решение:\n```\n{"scenario": 2, "intents": ["kb"], "confidence": 0.8}\n```\n',
            "fence",
        ),
        ('Решение: {"scenario": 2, "intents": ["kb"], "confidence": 0.8} — готово.', "text"),
        ('{"oops": } и потом {"scenario": 2, "intents": ["kb"], "confidence": 0.8}', "text"),
    ],
)
def test_json_is_found_in_text_fences_and_prose(text: str, found: str) -> None:
    assert parse_json_text(text) == (DECISION, found)


@pytest.mark.parametrize("text", ["", "   ", "нет JSON", "[1, 2]", "```json\n[1]\n```", "{oops"])
def test_text_without_an_object_gives_nothing(text: str) -> None:
    assert parse_json_text(text) is None


def test_tool_calls_come_first_and_malformed_calls_are_repaired() -> None:
    call = tool_call_message("OrchestratorOutput", DECISION, content='{"scenario": 5}')
    assert extract_json(call) == (DECISION, "tool_call")
    broken = AIMessage(
        content="",
        invalid_tool_calls=[
            {"name": "X", "args": '```json\n{"a": 1}\n```', "id": "c1", "error": "bad"}
        ],
    )
    assert extract_json(broken) == ({"a": 1}, "tool_call")


def _objects(node: Any) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = []
    if isinstance(node, dict):
        if "properties" in node:
            found.append(node)
        for value in node.values():
            found += _objects(value)
    elif isinstance(node, list):
        for value in node:
            found += _objects(value)
    return found


def test_strict_schema_closes_every_object_and_requires_every_property() -> None:
    from finagent.graph.research import next_step_model
    from finagent.tools.sgr import sgr_system_tools

    for model in (OrchestratorOutput, next_step_model(list(sgr_system_tools("/tmp/r")))):
        schema = strict_json_schema(model)
        objects = _objects(schema)
        assert schema["type"] == "object" and len(objects) >= 1
        for obj in objects:
            assert obj["additionalProperties"] is False
            assert sorted(obj["required"]) == sorted(obj["properties"])
        assert '"default"' not in str(schema).replace("'", '"')


async def test_invoke_structured_validates_and_names_the_failure() -> None:
    fenced = AIMessage('```json\n{"scenario": 2, "intents": ["kb"], "confidence": 0.8}\n```')
    out, reply = await invoke_structured(
        ScriptedChatModel([fenced]), OrchestratorOutput, [], "function_calling"
    )
    assert out.scenario == 2 and reply.found == "fence"

    invalid = AIMessage('{"scenario": 9, "confidence": 0.8}')
    with pytest.raises(StructuredOutputError, match="scenario"):
        await invoke_structured(ScriptedChatModel([invalid]), OrchestratorOutput, [], "json_schema")

    with pytest.raises(StructuredOutputError, match="no JSON object"):
        await invoke_structured(
            ScriptedChatModel([AIMessage("не знаю")]), OrchestratorOutput, [], "json_schema"
        )

    with pytest.raises(StructuredCallError, match="ConnectionError: down"):
        await invoke_structured(
            ScriptedChatModel([ConnectionError("down")]), OrchestratorOutput, [], "json_schema"
        )
