"""User-document tools: hybrid search within the caller's documents and full-text loading."""

from __future__ import annotations

from pydantic import BaseModel, Field

from finagent.retrieval.index import SearchFilter
from finagent.retrieval.retriever import DOCS, Retriever
from finagent.state import Chunk
from finagent.storage.documents import DocumentStore
from finagent.tools.base import Tool, ToolContext, ToolError, to_json


def format_chunks(chunks: list[Chunk], text_limit: int = 1500) -> str:
    """Compact JSON list of passages for the LLM."""
    rows = []
    for chunk in chunks:
        row = {
            "id": chunk.id,
            "score": round(chunk.score, 4),
            "title": chunk.title,
            "document_id": chunk.document_id,
            "text": chunk.text[:text_limit],
        }
        if citation := chunk.metadata.get("citation"):
            row["citation"] = citation
        rows.append(row)
    return to_json({"results": rows, "count": len(rows)})


class SearchUserDocumentsInput(BaseModel):
    query: str = Field(
        min_length=1, max_length=2000, description="What to look for, in Russian, as a phrase"
    )
    top_k: int = Field(default=5, ge=1, le=20, description="How many passages to return")
    score_threshold: float = Field(
        default=0.0, ge=0.0, description="Minimum fused relevance score (0 keeps all)"
    )
    document_ids: list[str] | None = Field(
        default=None, max_length=50, description="Limit the search to these document ids"
    )


class SearchUserDocuments(Tool[SearchUserDocumentsInput]):
    """Search the current user's uploaded documents (contracts, invoices, statements, notices).

    Use when the question is about the user's own files; returns the best passages with
    their document ids. Pass document_ids to search only inside selected documents.
    """

    name = "search_user_documents"
    source_note = "документы пользователя"
    input_model = SearchUserDocumentsInput

    def __init__(self, retriever: Retriever) -> None:
        self._retriever = retriever

    async def run(self, args: SearchUserDocumentsInput, ctx: ToolContext) -> str:
        flt = SearchFilter(user_id=ctx.user_id, document_ids=args.document_ids, source="user_docs")
        chunks = await self._retriever.search(
            DOCS, args.query, flt=flt, top_k=args.top_k, score_threshold=args.score_threshold
        )
        if not chunks:
            return to_json({"results": [], "count": 0, "note": "nothing found"})
        return format_chunks(chunks)


class LoadDocumentsFullInput(BaseModel):
    document_ids: list[str] = Field(
        min_length=1, max_length=10, description="Ids of the user's documents to read in full"
    )


class LoadDocumentsFull(Tool[LoadDocumentsFullInput]):
    """Load the full text of the user's documents by id.

    Use when a question needs a whole document (totals, all clauses) and it is not too
    long; long texts are cut with a marker, so prefer search_user_documents for big files.
    """

    name = "load_documents_full"
    source_note = "документы пользователя"
    input_model = LoadDocumentsFullInput
    output_limit = 60_000

    def __init__(self, documents: DocumentStore, max_chars: int = 50_000) -> None:
        self._documents = documents
        self._max_chars = max_chars

    async def run(self, args: LoadDocumentsFullInput, ctx: ToolContext) -> str:
        found, missing = await self._documents.get_many(ctx.user_id, args.document_ids)
        if not found:
            raise ToolError(
                "no such documents for this user: "
                + ", ".join(missing)
                + "; use search_user_documents to find document ids"
            )
        budget = self._max_chars
        parts = []
        for doc in found:
            text = doc.text[: max(0, budget)]
            budget -= len(text)
            marker = "" if len(text) == len(doc.text) else "\n[...truncated]"
            parts.append(f"## {doc.title} (ID: {doc.id}, {doc.size} символов)\n\n{text}{marker}")
        if missing:
            parts.append("Not found for this user: " + ", ".join(missing))
        return "\n\n---\n\n".join(parts)
