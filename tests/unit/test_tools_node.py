"""The answer node's tool calls run concurrently, with deterministic source numbers."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace
from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime
from pydantic import BaseModel, Field

from finagent.config import Settings
from finagent.nodes.context import AgentContext
from finagent.nodes.tools import tools
from finagent.tools.base import Tool, ToolContext
from finagent.tools.registry import ToolRegistry


class MeetInput(BaseModel):
    wait_for: str = Field(description="The other tool that must have started first")


class Meet(Tool[MeetInput]):
    """Starts, then waits until the other tool has started too (only possible concurrently)."""

    input_model = MeetInput

    def __init__(self, name: str, started: dict[str, asyncio.Event]) -> None:
        self.name = name  # type: ignore[misc]
        self._started = started

    async def run(self, args: MeetInput, ctx: ToolContext) -> str:
        self._started[self.name].set()
        await self._started[args.wait_for].wait()
        return f"{self.name} met {args.wait_for} for {ctx.user_id}"


async def test_tool_calls_run_concurrently_and_keep_call_order_numbers() -> None:
    started = {"first": asyncio.Event(), "second": asyncio.Event()}
    registry = ToolRegistry([Meet("first", started), Meet("second", started)])
    deps = SimpleNamespace(settings=Settings(_env_file=None), registry=registry)  # type: ignore[call-arg]
    calls = [
        {"name": "first", "args": {"wait_for": "second"}, "id": "c1"},
        {"name": "second", "args": {"wait_for": "first"}, "id": "c2"},
        {"name": "missing", "args": {}, "id": "c3"},
    ]
    state: dict[str, Any] = {"answer_messages": [AIMessage(content="", tool_calls=calls)]}
    runtime = Runtime(context=AgentContext(user_id="alice", deps=deps))  # type: ignore[arg-type]
    # one after another, "first" would wait forever for "second": the timeout only
    # turns that deadlock into a failure, it does not synchronise anything
    update = await asyncio.wait_for(tools(state, runtime), 30)
    replies = update["answer_messages"]
    assert [m.tool_call_id for m in replies] == ["c1", "c2", "c3"]
    assert replies[0].content == "[1] first met second for alice"
    assert replies[1].content == "[2] second met first for alice"
    assert replies[2].content.startswith("[3] Error: unknown tool 'missing'")
    assert [r.ok for r in update["tool_results"]] == [True, True, False]
    assert update["debug"]["tool_calls"] == ["first", "second", "missing"]
