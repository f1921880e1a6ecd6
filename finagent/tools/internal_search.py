"""The corporate document-search API as the ``internal_knowledge_search`` tool."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, Field

from finagent.clients.internal_search import SearchClient
from finagent.clients.internal_search_models import InternalDocument, InternalSearchError
from finagent.config import Settings
from finagent.tools.base import Tool, ToolContext, ToolError

NOT_CONFIGURED = "internal search is not configured (set FINAGENT_DOC_API_URL)"


class InternalKnowledgeSearchInput(BaseModel):
    query: str = Field(
        min_length=2,
        max_length=500,
        description=(
            "Search query in Russian: the tax or finance topic, document type or number "
            "(e.g. 'НДФЛ проценты по вкладам письмо Минфина')."
        ),
    )
    limit: int = Field(default=3, ge=1, le=5, description="How many documents to return (1-5).")
    pub_alias: str | None = Field(
        default=None,
        max_length=100,
        description=(
            "Optional publication alias to restrict the search to one collection "
            "(e.g. 'letters' for official letters); omit to search everything."
        ),
    )


class InternalKnowledgeSearch(Tool[InternalKnowledgeSearchInput]):
    """Search the company's internal document system (regulations, official letters,
    court practice, internal guidance) and return the full text of the best documents.

    Use it for questions about internal rules and methodology, or when official letters
    and explanations are needed as sources. Each document comes with its title, ID and
    link; cite them. Texts are cut to about 4 000 characters.
    """

    name = "internal_knowledge_search"
    source_note = "внутренний поиск"
    source_name = "внутренний поиск"
    input_model = InternalKnowledgeSearchInput
    output_limit = 22_000  # up to 5 documents of ~4 000 characters

    def __init__(self, client: SearchClient | None) -> None:
        self._client = client

    async def run(self, args: InternalKnowledgeSearchInput, ctx: ToolContext) -> str:
        if self._client is None:
            raise ToolError(NOT_CONFIGURED)
        try:
            docs = await self._client.fetch_search_pages_and_docs(
                args.query, args.limit, pub_alias=args.pub_alias or None
            )
        except InternalSearchError as exc:
            raise ToolError(str(exc)) from None
        if not docs:
            scope = f" in '{args.pub_alias}'" if args.pub_alias else ""
            return (
                f"No internal documents found for «{args.query}»{scope}. "
                "Try other keywords or drop the pub_alias filter."
            )
        return "\n---\n".join(format_document(d) for d in docs)


def format_document(doc: InternalDocument) -> str:
    """``## Document: Title (ID: id)`` / ``Source: URL`` / ``Content:`` / text."""
    return (
        f"## Document: {doc.title} (ID: {doc.id})\nSource: {doc.url or 'n/a'}\nContent:\n{doc.text}"
    )


def build_internal_search_tools(
    settings: Settings, client: SearchClient | None = None
) -> list[Tool[Any]]:
    """The internal search tools; without FINAGENT_DOC_API_URL the tool says it is not set up."""
    if client is None and settings.doc_api_url:
        client = SearchClient(settings)
    return [InternalKnowledgeSearch(client)]
