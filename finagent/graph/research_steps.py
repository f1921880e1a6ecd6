"""The research graph's steps that need no model or toolkit: start, clarify, the parsing
of a ``NextStep`` reply, the reference check of the final text and the edges."""

from __future__ import annotations

import uuid
from typing import Any

from langchain_core.messages import HumanMessage, ToolMessage
from langgraph.graph import END
from langgraph.types import interrupt
from pydantic import ValidationError

from finagent.answering.reference_check import check_references, sources_from_tool_outputs
from finagent.clients.text_tool_calls import as_call
from finagent.graph.research_schema import INVALID_STEP, ResearchState, _resume_text
from finagent.legal.catalog import LawCatalog
from finagent.prompts import load_prompt, research_messages
from finagent.tools.sgr import CLARIFICATION, FINAL_ANSWER, ClarificationInput, ReasoningInput


async def start(state: ResearchState) -> dict[str, Any]:
    query = (state.get("query") or "").strip()
    messages = list(state.get("messages") or [])
    if not query:
        humans = [m for m in messages if isinstance(m, HumanMessage)]
        query = str(humans[-1].content).strip() if humans else ""
    update: dict[str, Any] = {
        "query": query,
        "iteration": 0,
        "searches_used": 0,
        "clarifications_used": 0,
        "sources": [],
        "pending": None,
        "status": "running",
        "answer": "",
        "report": None,
        "mcp_errors": [],
        "call_digests": {},
        "output_chars": 0,
        "final_since": None,
    }
    if not query:
        update.update(status="failed", answer=research_messages.EMPTY_QUERY)
    elif not any(isinstance(m, HumanMessage) for m in messages):
        update["messages"] = [HumanMessage(content=query)]
    return update


async def clarify(state: ResearchState) -> dict[str, Any]:
    pending = dict(state.get("pending") or {})
    args = ClarificationInput.model_validate(pending.get("args") or {})
    reply = interrupt(
        {
            "type": "clarification",
            "questions": args.questions,
            "unclear_terms": args.unclear_terms,
            "assumptions": args.assumptions,
            "reasoning": args.reasoning,
        }
    )
    answer = _resume_text(reply)
    return {
        "pending": None,
        "clarifications_used": state.get("clarifications_used", 0) + 1,
        "messages": [
            ToolMessage(
                content=load_prompt("research_clarification").replace("{answer}", answer),
                tool_call_id=pending.get("id", "?"),
                name=CLARIFICATION,
            )
        ],
    }


def parse_step(
    payload: dict[str, Any] | None, names: list[str], error: str | None
) -> tuple[dict[str, Any], dict[str, Any], str | None]:
    """The pending tool call, the reasoning fields and the error of one ``NextStep`` reply
    (``payload`` None: it did not parse, ``error`` says why)."""
    pending: dict[str, Any] = {
        "id": f"call_{uuid.uuid4().hex[:12]}",
        "tool_name": "",
        "args": {},
    }
    reasoning: dict[str, Any] = {}
    if payload is not None and "tool" not in payload:
        # a tool call written as text ({"name": …, "arguments": …}) naming a tool offered
        written = as_call(payload)
        if written is not None and written.name in names:
            payload = {"tool": {"tool_name": written.name, **written.args}}
    if payload is not None:
        reasoning = {k: payload.get(k) for k in ReasoningInput.model_fields if k in payload}
        tool = payload.get("tool")
        if not isinstance(tool, dict) or not isinstance(tool.get("tool_name"), str):
            error = f"the step has no tool.tool_name; choose one of: {', '.join(names)}"
        else:
            pending["tool_name"] = tool["tool_name"]
            pending["args"] = {k: v for k, v in tool.items() if k != "tool_name"}
            if pending["tool_name"] not in names:
                error = (
                    f"unknown or unavailable tool {pending['tool_name']!r}; "
                    f"available tools: {', '.join(names)}"
                )
            elif pending["tool_name"] == CLARIFICATION:
                try:
                    ClarificationInput.model_validate(pending["args"])
                except ValidationError as exc:
                    error = f"invalid arguments for clarification: {exc.errors()[0]['msg']}"
    if error:
        pending["error"] = f"Error: {error}"
        pending["call_name"] = INVALID_STEP
    else:
        pending["call_name"] = pending["tool_name"]
    if error:
        pending["error"] = f"Error: {error}"
        pending["call_name"] = INVALID_STEP
    else:
        pending["call_name"] = pending["tool_name"]
    return pending, reasoning, error


async def checked_final_args(
    catalog: LawCatalog | None, name: str, args: dict[str, Any], state: ResearchState
) -> tuple[dict[str, Any], dict[str, Any]]:
    """The final tool's text with only the references the run's tool outputs support."""
    field = "answer" if name == FINAL_ANSWER else "content"
    text = args.get(field)
    if not isinstance(text, str):
        return args, {}
    outputs = [str(m.content) for m in state.get("messages") or [] if isinstance(m, ToolMessage)]
    chunks, retrieved = await sources_from_tool_outputs(outputs, catalog)
    checked, report = await check_references(text, chunks, catalog, retrieved)
    return {**args, field: checked}, report.as_debug()


def after_reason(state: ResearchState) -> str:
    if state.get("status") != "running":
        return END
    pending = state.get("pending") or {}
    if pending.get("tool_name") == CLARIFICATION and not pending.get("error"):
        return "clarify"
    return "act"


def after_act(state: ResearchState) -> str:
    return END if state.get("status") != "running" else "reason"


def after_start(state: ResearchState) -> str:
    return END if state.get("status") != "running" else "reason"
