"""reply: the turn's answer as the conversation's AI message (Studio chat, Agent Chat UI).

Every path ends here, a refused input included. The message's ``response_metadata``
holds the numbered sources the answer cites and the scenario, as the service's
``citations`` are (without the passages' text).
"""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage
from langgraph.runtime import Runtime

from finagent.answering.citations import citations
from finagent.nodes.context import AgentContext, deps_of
from finagent.state import AgentState

SOURCE_FIELDS = ("number", "title", "kind", "reference")


async def reply(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    answer = state.get("answer") or ""
    if not answer:
        return {}
    sources = citations(
        list(state.get("chunks") or []),
        list(state.get("external") or []),
        deps_of(runtime).settings.max_context_chars,
        (state.get("debug") or {}).get("source_numbers"),
    )
    decision = state.get("decision")
    error = state.get("error")
    metadata: dict[str, Any] = {
        "sources": [{k: s[k] for k in SOURCE_FIELDS} for s in sources],
        "scenario": int(decision.scenario) if decision is not None and not error else None,
    }
    if error:
        metadata["error"] = error
    return {"messages": [AIMessage(content=answer, response_metadata=metadata)]}
