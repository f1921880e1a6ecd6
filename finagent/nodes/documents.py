"""S1, S3 and S4: the user's documents (all of them, selected whole, selected searched)."""

from __future__ import annotations

from typing import Any

from langchain_core.runnables import RunnableConfig

from finagent.answering import messages
from finagent.bootstrap import Deps
from finagent.nodes.common import run_context, save_turn, sub_queries
from finagent.prompts import routing_messages
from finagent.retrieval.index import IndexUnavailableError, SearchFilter
from finagent.retrieval.retriever import DOCS
from finagent.state import AgentState, Chunk


async def _search(
    services: Deps, state: AgentState, flt: SearchFilter, name: str
) -> dict[str, Any]:
    try:
        queries = sub_queries(state)
        shared = services.query_vectors.lookup(queries)  # the router's vector of this turn
        chunks, debug = await services.retriever.search_many(DOCS, queries, flt=flt, vectors=shared)
    except IndexUnavailableError as exc:
        return {"notices": [messages.SEARCH_UNAVAILABLE], "debug": {f"{name}_error": str(exc)}}
    return {"chunks": chunks, "debug": {name: debug}}


def make_search_all_documents(services: Deps):  # type: ignore[no-untyped-def]
    async def search_all_documents(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        ctx = run_context(config)
        flt = SearchFilter(user_id=ctx.user_id, source="user_docs")
        return await _search(services, state, flt, "search_all_documents")

    return search_all_documents


def make_search_selected_documents(services: Deps):  # type: ignore[no-untyped-def]
    async def search_selected_documents(
        state: AgentState, config: RunnableConfig
    ) -> dict[str, Any]:
        ctx = run_context(config)
        flt = SearchFilter(
            user_id=ctx.user_id,
            document_ids=list(state.get("selected_document_ids") or []),
            source="user_docs",
        )
        return await _search(services, state, flt, "search_selected_documents")

    return search_selected_documents


def make_load_full_documents(services: Deps):  # type: ignore[no-untyped-def]
    async def load_full_documents(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        ctx = run_context(config)
        ids = list(state.get("selected_document_ids") or [])
        docs, _missing = await services.documents.get_many(ctx.user_id, ids)
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

    return load_full_documents


def make_no_documents(services: Deps):  # type: ignore[no-untyped-def]
    """S1 for a user with no documents: say so and how to upload, then stop."""

    async def no_documents(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        answer = routing_messages.NO_DOCUMENTS
        await save_turn(services.history, state, config, answer)
        return {"answer": answer, "debug": {"no_documents": True}}

    return no_documents
