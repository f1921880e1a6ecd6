"""Tool calls written as text, in every shape small models write them, and the schema
limits sent per provider capability."""

from __future__ import annotations

import json
from typing import Annotated

from langchain_core.messages import AIMessage
from pydantic import BaseModel, Field

from finagent.clients.llm import keeps_schema_limits
from finagent.clients.structured import extract_json, strict_json_schema
from finagent.clients.text_tool_calls import bound_calls, holds_tool_markup, text_tool_calls
from finagent.config import Settings
from finagent.routing.llm_router import OrchestratorOutput


class LookupInput(BaseModel):
    term: str = Field(min_length=1)
    limit: int = 3


ARGS = {"term": "вычет на обучение", "limit": 2}
CALL = json.dumps({"name": "lookup", "arguments": ARGS}, ensure_ascii=False)


def test_every_shape_is_recognised() -> None:
    shapes = {
        "tagged": f"<tool_call>\n{CALL}\n</tool_call>",
        "fenced": f"Сейчас найду.\n```json\n{CALL}\n```",
        "bare": CALL,
    }
    for shape, text in shapes.items():
        (call,) = text_tool_calls(text)
        assert (call.name, call.args, call.shape) == ("lookup", ARGS, shape)
    prose = json.dumps({"name": "lookup", "parameters": json.dumps(ARGS)}, ensure_ascii=False)
    (call,) = text_tool_calls(f"Вызову инструмент {prose}, затем отвечу.")
    assert call.args == ARGS
    nested = json.dumps({"type": "function", "function": {"name": "lookup", "arguments": ARGS}})
    assert text_tool_calls(nested)[0].args == ARGS


def test_an_echoed_tool_definition_is_markup_but_not_a_call() -> None:
    schema = {"type": "object", "properties": {"term": {"type": "string"}}}
    echo = json.dumps([{"type": "function", "function": {"name": "lookup", "parameters": schema}}])
    assert text_tool_calls(echo) == []
    assert holds_tool_markup(echo)
    assert holds_tool_markup(f"<tools>\n{echo}\n</tools>")
    assert not holds_tool_markup("## Краткий вывод\nСтавка — 13 % [1].")
    assert not holds_tool_markup('Пример JSON: {"ставка": 13}')


def test_a_call_whose_json_is_broken_is_markup_but_not_a_call() -> None:
    # a closing brace left out, a reply cut inside the arguments, a wrapped envelope
    broken = [
        CALL[:-1],
        '{"name": "lookup", "arguments": {"term": "вычет на обу',
        'Ищу: {"function": {"name": "lookup", "arguments": "{\\"term\\": ',
        '{\n  "name": "lookup",\n  "parameters": [1, 2',
    ]
    for text in broken:
        assert text_tool_calls(text) == [], text
        assert holds_tool_markup(text), text
    assert not holds_tool_markup('Поля ответа: {"name": "ООО Ромашка", "inn": "7700000000"}')


def test_only_bound_tools_with_valid_arguments_become_calls() -> None:
    found = text_tool_calls(
        f"<tool_call>{CALL}</tool_call>"
        '<tool_call>{"name": "lookup", "arguments": {"term": ""}}</tool_call>'
        '<tool_call>{"name": "delete_all", "arguments": {}}</tool_call>'
    )
    assert len(found) == 3
    (call,) = bound_calls(found, {"lookup": LookupInput})
    assert call["name"] == "lookup" and call["args"] == ARGS and call["id"]


def test_structured_output_reads_a_text_call_naming_the_schema() -> None:
    decision = {"scenario": 2, "intents": ["kb"], "confidence": 0.9}
    call = {"name": "OrchestratorOutput", "arguments": decision}
    echo = '<tools>[{"type": "function", "function": {"name": "OrchestratorOutput"}}]</tools>'
    text = f"{echo}\n<tool_call>{json.dumps(call)}</tool_call>"
    assert extract_json(AIMessage(text), "OrchestratorOutput") == (decision, "text_tool_call")


class Bounded(BaseModel):
    kind: str = Field(json_schema_extra={"enum": ["a", "b"]})
    items: list[Annotated[str, Field(max_length=20)]] = Field(default_factory=list, max_length=2)


def test_limits_are_kept_where_the_provider_accepts_them() -> None:
    kept = strict_json_schema(Bounded, keep_limits=True)
    assert kept["properties"]["items"]["maxItems"] == 2
    assert kept["properties"]["items"]["items"]["maxLength"] == 20
    assert kept["properties"]["kind"]["enum"] == ["a", "b"]
    assert "default" not in kept["properties"]["items"]
    stripped = strict_json_schema(Bounded)
    assert "maxItems" not in stripped["properties"]["items"]
    assert stripped["properties"]["kind"]["enum"] == ["a", "b"]
    orchestrator = strict_json_schema(OrchestratorOutput, keep_limits=True)["properties"]
    assert orchestrator["sub_queries"]["maxItems"] == 4
    assert orchestrator["sub_queries"]["items"]["maxLength"] > 0
    assert orchestrator["clarifying_questions"]["maxItems"] == 3


def test_the_capability_follows_the_provider() -> None:
    def settings(url: str, limits: str = "auto") -> Settings:
        return Settings(_env_file=None, llm_base_url=url, llm_schema_limits=limits)  # type: ignore[call-arg]

    assert keeps_schema_limits(settings("http://127.0.0.1:8080/v1"))
    assert not keeps_schema_limits(settings("https://api.openai.com/v1"))
    assert not keeps_schema_limits(settings("https://openrouter.ai/api/v1"))
    assert keeps_schema_limits(settings("https://openrouter.ai/api/v1", "keep"))
    assert not keeps_schema_limits(settings("http://127.0.0.1:8080/v1", "strip"))
