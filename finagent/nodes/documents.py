"""S1, S3 and S4: the user's documents (all of them, selected whole, selected searched)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from finagent.answering import messages
from finagent.bootstrap import Deps
from finagent.error_report import report
from finagent.nodes.common import decision_of, sub_queries
from finagent.nodes.context import AgentContext, caller, deps_of
from finagent.nodes.not_held import held_titles, not_held_answer
from finagent.prompts import routing_messages
from finagent.retrieval.index import IndexUnavailableError, SearchFilter
from finagent.retrieval.retriever import DOCS
from finagent.state import AgentState, Chunk


async def _search(deps: Deps, state: AgentState, flt: SearchFilter, name: str) -> dict[str, Any]:
    try:
        queries = sub_queries(state)
        await deps.query_vectors.settled(queries)  # the router's, maybe still embedding
        shared = deps.query_vectors.lookup(queries)  # the router's vectors of this turn
        chunks, debug = await deps.retriever.search_many(DOCS, queries, flt=flt, vectors=shared)
    except IndexUnavailableError as exc:
        failure = report(exc, "search_documents_failed", search=name)
        return {"notices": [messages.SEARCH_UNAVAILABLE], "debug": {f"{name}_error": failure}}
    return {"chunks": chunks, "debug": {name: debug}}


def _selected(state: AgentState) -> list[str]:
    """The selected documents the question names (narrowed by ``orchestrate``), else all."""
    selected = list(state.get("selected_document_ids") or [])
    named = [doc_id for doc_id in decision_of(state).document_ids if doc_id in selected]
    return named or selected


async def search_all_documents(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    """S1: every document of the user, or those the question names by number, counterparty
    or person (``Decision.document_ids``)."""
    named = decision_of(state).document_ids
    flt = SearchFilter(
        user_id=caller(runtime).user_id, document_ids=list(named) or None, source="user_docs"
    )
    return await _search(deps_of(runtime), state, flt, "search_all_documents")


async def search_selected_documents(
    state: AgentState, runtime: Runtime[AgentContext]
) -> dict[str, Any]:
    flt = SearchFilter(
        user_id=caller(runtime).user_id, document_ids=_selected(state), source="user_docs"
    )
    return await _search(deps_of(runtime), state, flt, "search_selected_documents")


async def load_full_documents(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    ids = _selected(state)
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
    """S1 without the document asked: for a user with none, say so and how to upload; for a
    question naming a document the user does not hold, say so and list what they hold."""
    deps, who = deps_of(runtime), caller(runtime)
    missing = decision_of(state).missing_document
    if missing:
        titles = await held_titles(deps, who.user_id)
        answer = not_held_answer(missing, titles)
        debug: dict[str, Any] = {"document_not_held": missing, "held_documents": len(titles)}
    else:
        answer, debug = routing_messages.NO_DOCUMENTS, {"no_documents": True}
    return {"answer": answer, "debug": debug}
