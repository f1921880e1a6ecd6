"""Builds the tool registry from the services: the one list of finagent's tools."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from finagent.tools.base import Tool
from finagent.tools.calc import Req_Calculate_Deadline_For_Events
from finagent.tools.documents import LoadDocumentsFull, SearchUserDocuments
from finagent.tools.kb_files import build_kb_file_tools
from finagent.tools.kb_search import ReqFindPassagesForQueries, SearchGeneralKb
from finagent.tools.legal import ResolveLegalReference
from finagent.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from finagent.services import Services


def build_registry(services: Services) -> ToolRegistry:
    """Domain tools; live sources are registered only when configured."""
    settings = services.settings
    tools: list[Tool[Any]] = [
        SearchUserDocuments(services.retriever),
        LoadDocumentsFull(services.documents, settings.full_documents_max_chars),
        SearchGeneralKb(services.retriever),
        ReqFindPassagesForQueries(services.retriever),
        ResolveLegalReference(services.catalog),
        Req_Calculate_Deadline_For_Events(),
        *build_kb_file_tools(settings.kb_root),
    ]
    if settings.cbr_enabled:
        from finagent.clients.cbr import CentralBankClient
        from finagent.tools.cbr import build_cbr_tools

        cbr = CentralBankClient(settings)
        services.closers.append(cbr.aclose)
        tools.extend(build_cbr_tools(settings, cbr))
    if services.tavily is not None:
        from finagent.tools.news import build_news_tools

        tools.extend(build_news_tools(settings, services.tavily))
    if settings.doc_api_url:
        from finagent.clients.internal_search import SearchClient
        from finagent.tools.internal_search import build_internal_search_tools

        search = SearchClient(settings)
        services.closers.append(search.aclose)
        tools.extend(build_internal_search_tools(settings, search))
    names = {t.name for t in tools}
    tools.extend(t for t in services.extra_tools if t.name not in names)
    return ToolRegistry(tools)
