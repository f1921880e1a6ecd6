"""Knowledge-base search tool and the aggregate passage finder."""

from __future__ import annotations

from typing import Annotated

from pydantic import BaseModel, Field

from finagent.retrieval.index import SearchFilter
from finagent.retrieval.retriever import KB, Retriever
from finagent.tools.base import AggregateResult, ErrorInfo, Tool, ToolContext, to_json
from finagent.tools.documents import format_chunks


class KbFilters(BaseModel):
    source: str | None = Field(
        default=None, description="'kb' for articles, 'law' for Tax Code text; empty for both"
    )
    document_id: str | None = Field(default=None, description="Only this KB article id")


class SearchGeneralKbInput(BaseModel):
    query: str = Field(min_length=1, max_length=2000, description="The question or key phrase")
    top_k: int = Field(default=5, ge=1, le=20, description="How many passages to return")
    filters: KbFilters | None = Field(default=None, description="Optional narrowing filters")


class SearchGeneralKb(Tool[SearchGeneralKbInput]):
    """Search the corporate knowledge base on Russian taxes and finance (НДС, НДФЛ, УСН...).

    Use for definitions, rules, rates of taxes, deadlines, penalties and procedures.
    Returns passages with titles (and Tax Code citations where present).
    """

    name = "search_general_kb"
    source_note = "база знаний"
    source_name = "база знаний"
    input_model = SearchGeneralKbInput

    def __init__(self, retriever: Retriever) -> None:
        self._retriever = retriever

    async def run(self, args: SearchGeneralKbInput, ctx: ToolContext) -> str:
        flt = SearchFilter()
        if args.filters:
            flt.source = args.filters.source
            if args.filters.document_id:
                flt.document_ids = [args.filters.document_id]
        chunks = await self._retriever.search(KB, args.query, flt=flt, top_k=args.top_k)
        return format_chunks(chunks) if chunks else to_json({"results": [], "count": 0})


class FindPassagesInput(BaseModel):
    # each query is embedded once per collection: bounded like search_general_kb's query
    queries: list[Annotated[str, Field(max_length=2000)]] = Field(
        min_length=1, max_length=8, description="Several phrasings or sub-questions to search"
    )
    top_k: int = Field(default=3, ge=1, le=10, description="Passages per query")
    include_user_documents: bool = Field(
        default=True, description="Also search the user's own documents"
    )


class ReqFindPassagesForQueries(Tool[FindPassagesInput]):
    """Search the knowledge base (and the user's documents) for several queries at once.

    Prefer this over repeated single searches when exploring a topic: one call returns
    the passages per query and records failures per item.
    """

    name = "Req_Find_Passages_For_Queries"
    source_note = "база знаний"
    input_model = FindPassagesInput

    def __init__(self, retriever: Retriever) -> None:
        self._retriever = retriever

    async def run(self, args: FindPassagesInput, ctx: ToolContext) -> str:
        result = AggregateResult(success=True)
        targets = [(KB, SearchFilter())]
        if args.include_user_documents:
            targets.append(("docs", SearchFilter(user_id=ctx.user_id, source="user_docs")))
        for query in args.queries:
            for collection, flt in targets:
                try:
                    chunks = await self._retriever.search(
                        collection, query, flt=flt, top_k=args.top_k
                    )
                except Exception as exc:  # recorded per item; the loop goes on
                    result.errors.append(
                        ErrorInfo(
                            method="search",
                            error_text=f"{type(exc).__name__}: search unavailable",
                            params={"query": query, "collection": collection},
                        )
                    )
                    continue
                result.results.append(
                    {
                        "query": query,
                        "collection": collection,
                        "passages": [
                            {"id": c.id, "title": c.title, "text": c.text[:600]} for c in chunks
                        ],
                    }
                )
        result.success = not result.errors or bool(result.results)
        if not result.results and result.errors:
            result.fatal_error = "search is unavailable for every query"
        return to_json(result)
