"""tools: runs the answer model's tool calls; ``after_answer`` loops back or ends."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, ToolMessage
from langgraph.runtime import Runtime

from finagent.answering.final import context_of
from finagent.nodes.common import decision_of
from finagent.nodes.context import AgentContext, answer_tools_option, caller, deps_of
from finagent.state import AgentState, ExternalData
from finagent.tools.scopes import answer_tools


async def tools(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """The answer's tool calls, run concurrently; source numbers follow the calls' order."""
    deps = deps_of(runtime)
    last = (state.get("answer_messages") or [])[-1]
    assert isinstance(last, AIMessage)
    ctx = context_of(deps, state)
    done = list(state.get("tool_results") or [])
    number = len(ctx.sources) + len(done) + 1
    tool_ctx = caller(runtime, dict(state))
    # a tool the answer was not offered is an unknown tool (the LLM may invent calls)
    offered = answer_tools(deps.registry, decision_of(state), answer_tools_option(runtime, deps))
    replies: list[ToolMessage] = []
    results: list[ExternalData] = []
    # the calls run concurrently; numbering follows the order the LLM asked for them
    outputs = await asyncio.gather(
        *(offered.call(c["name"], c["args"], tool_ctx) for c in last.tool_calls)
    )
    for call, output in zip(last.tool_calls, outputs, strict=True):
        replies.append(
            ToolMessage(
                content=f"[{number}] {output}", tool_call_id=call["id"] or "", name=call["name"]
            )
        )
        results.append(
            ExternalData(
                tool=call["name"],
                source_note=output.source_note,
                content=output.text[:2000],
                ok=output.ok,
            )
        )
        number += 1
    return {
        "answer_messages": replies,
        "tool_results": results,
        "debug": {"tool_calls": [c["name"] for c in last.tool_calls]},
    }


def tool_rounds(history: Sequence[BaseMessage]) -> int:
    return sum(1 for m in history if isinstance(m, AIMessage) and m.tool_calls)


def after_answer(state: AgentState) -> str:
    messages_ = state.get("answer_messages") or []
    if (
        not state.get("answer")
        and messages_
        and isinstance(messages_[-1], AIMessage)
        and messages_[-1].tool_calls
    ):
        return "tools"
    return "end"
