"""S2: route_intent fans out to kb / rates / news / smalltalk in parallel (Send)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from langgraph.runtime import Runtime
from langgraph.types import Send

from finagent.answering import messages
from finagent.bootstrap import Deps
from finagent.error_report import report
from finagent.nodes.common import decision_of, sub_queries
from finagent.nodes.context import AgentContext, caller, deps_of
from finagent.nodes.question import turn_question
from finagent.observability import get_logger, redact
from finagent.retrieval.index import IndexUnavailableError
from finagent.retrieval.retriever import KB
from finagent.retrieval.tax_focus import tax_focus, timed_focus
from finagent.retrieval.unit_pieces import with_preceding_pieces
from finagent.routing.live_params import cbr_arguments, news_arguments
from finagent.state import AgentState, ExternalData

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
    """One branch per intent; a calculation alone (the calc node answers the turn itself, or
    searches the knowledge base when there is nothing to compute)."""
    intents = decision_of(state).intents or ["kb"]
    if "calc" in intents:
        intents = ["calc"]
    return [Send(INTENT_NODES[i], {**state, "intent": i}) for i in dict.fromkeys(intents)]


async def search_kb(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    return await kb_passages(deps_of(runtime), state)


async def kb_passages(deps: Deps, state: AgentState) -> dict[str, Any]:
    """The knowledge-base passages of the turn's sub-queries (the ``kb`` branch's update)."""
    # the answer checks the Code's units next: they load while the passages are sought
    if deps.catalog is not None:  # tests' nodes may have none
        deps.catalog.prefetch()
    try:
        queries = sub_queries(state)
        await deps.query_vectors.settled(queries)  # the router's, maybe still embedding
        shared = deps.query_vectors.lookup(queries)  # the router's vectors of this turn
        question = await turn_question(dict(state), deps, None)  # the turn's, as understood
        focus = tax_focus(question, queries[0]) if queries else None
        chunks, debug = await deps.retriever.search_many(KB, queries, vectors=shared, focus=focus)
        chunks = await with_preceding_pieces(deps.retriever, KB, chunks)
        if queries and _quotes_code_extra(deps):
            extra = await deps.retriever.code_extra(
                KB,
                queries[0],
                chunks,
                limit=deps.settings.code_dense_extra,
                lexical=deps.settings.code_lexical_extra,
                vectors=shared,
                focus=focus,
                timed=deps.settings.code_timed_extra,
                timed_focus=timed_focus(question, queries[0]),
            )
            chunks = [*chunks, *extra]
            debug = {**debug, "code_extra": [c.id for c in extra]}
    except IndexUnavailableError as exc:
        return {
            "notices": [messages.SEARCH_UNAVAILABLE],
            "debug": {"search_kb_error": report(exc, "search_kb_failed")},
        }
    return {"chunks": chunks, "debug": {"search_kb": debug}}


def _quotes_code_extra(deps: Deps) -> bool:
    """Whether the answer may quote the Code-only search's passages: only the offline
    direct composer's «Норма НК РФ» does (an LLM's prompt is left as it was)."""
    settings = deps.settings
    return bool(
        settings.code_dense_extra or settings.code_lexical_extra or settings.code_timed_extra
    ) and (deps.llm is None and settings.answer_composer == "direct")


async def _live(
    tool_name: str,
    build_args: Callable[[str], dict[str, Any]],
    state: AgentState,
    runtime: Runtime[AgentContext],
) -> dict[str, Any]:
    """One live source's tool called for the question; its failure is a notice, not an error,
    and the knowledge base is searched instead (it dates past rates and explains the rules)."""
    # every tool module loads with it: only when a live source is asked
    from finagent.tools.declared import declared_tool

    deps = deps_of(runtime)
    declared = declared_tool(tool_name)
    note, source_name = declared.source_note, declared.source_name
    if tool_name not in deps.registry:
        text = messages.SOURCE_NOT_CONFIGURED.format(name=source_name)
        return await _with_kb_fallback(
            deps,
            state,
            {
                "external": [
                    ExternalData(tool=tool_name, source_note=note, content=text, ok=False)
                ],
                "debug": {tool_name: "not configured"},
            },
        )
    args = build_args(state["query"])
    output = await deps.registry.call(tool_name, args, caller(runtime))
    content = output.text
    if not output.ok:  # the detail may quote the upstream service: it goes to the log only
        log.warning("live_source_failed", tool=tool_name, error=redact(content)[:500])
        content = messages.SOURCE_FAILED.format(name=source_name)
    update: dict[str, Any] = {
        "external": [ExternalData(tool=tool_name, source_note=note, content=content, ok=output.ok)],
        "debug": {tool_name: {"args": args, "ok": output.ok}},
    }
    return update if output.ok else await _with_kb_fallback(deps, state, update)


async def _with_kb_fallback(
    deps: Deps, state: AgentState, update: dict[str, Any]
) -> dict[str, Any]:
    """A failed live source's update plus the knowledge-base passages of the question, unless
    the turn searches the knowledge base anyway."""
    if "kb" in decision_of(state).intents:
        return update
    found = await kb_passages(deps, state)
    debug = {**update["debug"], "live_kb_fallback": True, **found.get("debug", {})}
    return {**update, **{k: v for k, v in found.items() if k != "debug"}, "debug": debug}


async def fetch_cbr(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    return await _live("fetch_cbr_data", cbr_arguments, state, runtime)


async def fetch_news(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    return await _live("fetch_finance_news", news_arguments, state, runtime)


async def smalltalk(state: AgentState) -> dict[str, Any]:
    return {"debug": {"smalltalk": True}}
