"""S1, S3 and S4: the user's documents (all of them, selected whole, selected searched)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from finagent.answering import messages
from finagent.bootstrap import Deps
from finagent.error_report import report
from finagent.nodes.common import sub_queries
from finagent.nodes.context import AgentContext, caller, deps_of
from finagent.prompts import routing_messages
from finagent.retrieval.index import IndexUnavailableError, SearchFilter
from finagent.retrieval.retriever import DOCS
from finagent.state import AgentState, Chunk


async def _search(deps: Deps, state: AgentState, flt: SearchFilter, name: str) -> dict[str, Any]:
    try:
        queries = sub_queries(state)
        shared = deps.query_vectors.lookup(queries)  # the router's vector of this turn
        chunks, debug = await deps.retriever.search_many(DOCS, queries, flt=flt, vectors=shared)
    except IndexUnavailableError as exc:
        failure = report(exc, "search_documents_failed", search=name)
        return {"notices": [messages.SEARCH_UNAVAILABLE], "debug": {f"{name}_error": failure}}
    return {"chunks": chunks, "debug": {name: debug}}


async def search_all_documents(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    flt = SearchFilter(user_id=caller(runtime).user_id, source="user_docs")
    return await _search(deps_of(runtime), state, flt, "search_all_documents")


async def search_selected_documents(
    state: AgentState, runtime: Runtime[AgentContext]
) -> dict[str, Any]:
    flt = SearchFilter(
        user_id=caller(runtime).user_id,
        document_ids=list(state.get("selected_document_ids") or []),
        source="user_docs",
    )
    return await _search(deps_of(runtime), state, flt, "search_selected_documents")


async def load_full_documents(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ids = list(state.get("selected_document_ids") or [])
    docs, _missing = await deps_of(runtime).documents.get_many(caller(runtime).user_id, ids)
    chunks = [
        Chunk(
            id=f"{doc.id}:full",
            text=doc.text,
            score=1.0,
            source="user_docs",
            title=doc.title,
            document_id=doc.id,
            metadata={"filename": doc.filename, "full": True},
        )
        for doc in docs
    ]
    return {"chunks": chunks, "debug": {"load_full_documents": [d.id for d in docs]}}


async def no_documents(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """S1 for a user with no documents: say so and how to upload, then stop."""
    answer = routing_messages.NO_DOCUMENTS
    return {"answer": answer, "debug": {"no_documents": True}}
