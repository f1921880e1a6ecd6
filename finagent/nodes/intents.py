"""S2: route_intent fans out to kb / rates / news / smalltalk in parallel (Send)."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig
from langgraph.types import Send

from finagent.answering import messages
from finagent.bootstrap import Deps
from finagent.nodes.common import decision_of, run_context, sub_queries
from finagent.observability import get_logger, redact
from finagent.retrieval.index import IndexUnavailableError
from finagent.retrieval.retriever import KB
from finagent.routing.live_params import cbr_arguments, news_arguments
from finagent.state import AgentState, ExternalData
from finagent.tools.declared import declared_tool

INTENT_NODES = {
    "kb": "search_kb",
    "rates": "fetch_cbr",
    "news": "fetch_news",
    "smalltalk": "smalltalk",
    "calc": "calculate",
}
log = get_logger("finagent.intents")


async def route_intent(state: AgentState) -> dict[str, Any]:
    """A visible fan-out point; the branches are chosen by ``fan_out``."""
    return {}


def fan_out(state: AgentState) -> list[Send]:
    intents = decision_of(state).intents or ["kb"]
    return [Send(INTENT_NODES[i], {**state, "intent": i}) for i in dict.fromkeys(intents)]


def make_search_kb(services: Deps):  # type: ignore[no-untyped-def]
    async def search_kb(state: AgentState) -> dict[str, Any]:
        try:
            queries = sub_queries(state)
            shared = services.query_vectors.lookup(queries)  # the router's vector of this turn
            chunks, debug = await services.retriever.search_many(KB, queries, vectors=shared)
        except IndexUnavailableError as exc:
            return {
                "notices": [messages.SEARCH_UNAVAILABLE],
                "debug": {"search_kb_error": str(exc)},
            }
        return {"chunks": chunks, "debug": {"search_kb": debug}}

    return search_kb


def _make_live_node(services: Deps, tool_name: str, build_args):  # type: ignore[no-untyped-def]
    async def live(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        declared = declared_tool(tool_name)
        note, source_name = declared.source_note, declared.source_name
        if tool_name not in services.registry:
            text = messages.SOURCE_NOT_CONFIGURED.format(name=source_name)
            return {
                "external": [
                    ExternalData(tool=tool_name, source_note=note, content=text, ok=False)
                ],
                "debug": {tool_name: "not configured"},
            }
        args = build_args(state["query"])
        output = await services.registry.call(tool_name, args, run_context(config))
        content = output.text
        if not output.ok:  # the detail may quote the upstream service: it goes to the log only
            log.warning("live_source_failed", tool=tool_name, error=redact(content)[:500])
            content = messages.SOURCE_FAILED.format(name=source_name)
        return {
            "external": [
                ExternalData(tool=tool_name, source_note=note, content=content, ok=output.ok)
            ],
            "debug": {tool_name: {"args": args, "ok": output.ok}},
        }

    live.__name__ = tool_name
    return live


def make_fetch_cbr(services: Deps):  # type: ignore[no-untyped-def]
    return _make_live_node(services, "fetch_cbr_data", cbr_arguments)


def make_fetch_news(services: Deps):  # type: ignore[no-untyped-def]
    return _make_live_node(services, "fetch_finance_news", news_arguments)


async def smalltalk(state: AgentState) -> dict[str, Any]:
    return {"debug": {"smalltalk": True}}
