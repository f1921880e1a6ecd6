"""The research graph's names, state and ``NextStep`` schema: what the LLM may choose."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Annotated, Any, Literal, Union

from langchain_core.messages import AnyMessage
from langgraph.graph.message import add_messages
from pydantic import BaseModel, ConfigDict, Field, create_model
from typing_extensions import TypedDict

from finagent.agents_config import AgentDefinition
from finagent.tools.base import Tool
from finagent.tools.declared import builtin_tool_names
from finagent.tools.sgr import CLARIFICATION, FINAL_TOOLS, REASONING, ReasoningInput
from finagent.tools.web import WEB_SEARCH

NEXT_STEP = "NextStep"
#: Reasoning steps allowed past ``max_iterations`` (only final tools) before a forced stop.
FINAL_GRACE_STEPS = 2
ANONYMOUS_USER = "anonymous"
#: Tool-call name recorded for a step whose tool was unknown or invalid.
INVALID_STEP = "invalid_step"

#: Every built-in tool, as declared on the tool classes; a name here that the registry lacks
#: is skipped (not configured in this deployment), any other unknown name is a
#: configuration error.
CATALOGUE = builtin_tool_names()


#: Aggregate tools follow ``Req_<Verb>_<What>_For_<Inputs>``.
REQ_TOOL = re.compile(r"^Req_[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*_For_[A-Za-z0-9_]+$")


class ToolNames:
    """Names an agent may use before the registry exists: catalogue, extras and ``Req_*``."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._names = frozenset(names) | CATALOGUE

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._names or bool(REQ_TOOL.match(name)))

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._names | {"Req_<Verb>_<What>_For_<Inputs>"}))

    def __len__(self) -> int:
        return len(self._names)


_DOCUMENTED = ConfigDict(use_attribute_docstrings=True)


class ResearchInput(TypedDict, total=False):
    """A research task: ``query``, or chat messages whose last human message is the task."""

    __pydantic_config__ = _DOCUMENTED  # type: ignore[misc]

    query: str
    """The research question, in Russian."""
    messages: Annotated[list[AnyMessage], add_messages]
    """Chat messages (the last human message is the task when there is no query)."""


class ResearchOutput(TypedDict, total=False):
    """The research result: the answer or report, its sources and how the run ended."""

    __pydantic_config__ = _DOCUMENTED  # type: ignore[misc]

    messages: Annotated[list[AnyMessage], add_messages]
    """The run's steps; the last AI message is the answer."""
    status: Literal["running", "completed", "failed"]
    """How the run ended."""
    answer: str
    """The answer (or the report's text), Russian Markdown."""
    report: dict[str, Any] | None
    """The report written by create_report, if any."""
    sources: list[dict[str, Any]]
    """The sources the run's tools returned."""
    references: dict[str, Any]
    """The reference check of the final answer or report."""
    mcp_errors: list[str]
    """MCP servers that could not be reached."""
    query: str
    """The task researched."""
    iteration: int
    """Reasoning steps taken."""
    searches_used: int
    """Web searches made."""
    clarifications_used: int
    """Clarifying questions asked."""


class ResearchState(ResearchInput, ResearchOutput, total=False):
    """State of one research run (one thread): input, output and the working values."""

    pending: dict[str, Any] | None
    call_digests: dict[str, int]  # digest of each call made (tool + arguments) -> its step
    output_chars: int  # characters of tool output put in the prompt so far
    final_since: int | None  # the step from which only the final tools are offered


@dataclass(kw_only=True)
class ResearchContext:
    """Who asks, for one research run (the LangGraph API's authenticated user wins)."""

    user_id: str | None = field(
        default=None,
        metadata={"description": "The user whose documents the run's tools may search."},
    )


# --- the NextStep schema -------------------------------------------------------------------


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def tool_call_model(tool: Tool[Any]) -> type[BaseModel]:
    """The tool's input model tagged with ``tool_name: Literal[<name>]`` (first field)."""
    fields: dict[str, Any] = {
        "tool_name": (Literal[tool.name], Field(description="Имя инструмента")),  # type: ignore[valid-type]
    }
    for key, info in tool.input_model.model_fields.items():
        fields[key] = (info.annotation, info)
    return create_model(  # type: ignore[call-overload, no-any-return]
        f"{_camel(tool.name)}Call", __doc__=tool.description, **fields
    )


def next_step_model(tools: list[Tool[Any]]) -> type[BaseModel]:
    """``NextStep``: the reasoning fields plus ``tool``, a union tagged by ``tool_name``.

    The union is a plain ``Union`` (``anyOf`` in JSON schema, accepted by every provider's
    structured output); the ``Literal`` tags make it discriminated in practice.
    """
    if not tools:
        raise ValueError("no tools available for the next step")
    members = tuple(tool_call_model(t) for t in tools)
    union = Union[members]  # type: ignore[valid-type]  # noqa: UP007
    return create_model(  # type: ignore[call-overload, no-any-return]
        NEXT_STEP,
        __base__=ReasoningInput,
        __doc__="Следующий шаг исследования: рассуждение и один инструмент.",
        tool=(union, Field(description="Следующий инструмент и его аргументы")),
    )


def available_tool_names(
    agent: AgentDefinition, toolset: dict[str, Tool[Any]], state: ResearchState
) -> list[str]:
    """Tools the LLM may choose now, after the agent's limits are applied."""
    names = [n for n in toolset if n != REASONING]
    if at_limit(agent, state):
        return [n for n in names if n in FINAL_TOOLS]
    if state.get("clarifications_used", 0) >= agent.execution.max_clarifications:
        names = [n for n in names if n != CLARIFICATION]
    if state.get("searches_used", 0) >= agent.search.max_searches:
        names = [n for n in names if n != WEB_SEARCH]
    return names


def at_limit(agent: AgentDefinition, state: ResearchState) -> bool:
    """The run's steps or its tool-output budget are spent: only final tools remain."""
    limits = agent.execution
    return (
        state.get("iteration", 0) >= limits.max_iterations
        or state.get("output_chars", 0) >= limits.max_total_output_chars
    )


def _render_tools(tools: list[Tool[Any]]) -> str:
    return "\n".join(f"- `{t.name}`: {t.description.splitlines()[0]}" for t in tools)


def _resume_text(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("answer", value.get("text", json.dumps(value, ensure_ascii=False)))
    return str(value).strip() or "(пустой ответ)"
