"""The one list of finagent's tools, over clients and stores built by finagent/bootstrap.py."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from finagent.clients.live import LiveClients
from finagent.legal.key_rates import KeyRateSource
from finagent.tools.base import Tool
from finagent.tools.calc import (
    Req_Calculate_Deadline_For_Events,
    Req_Calculate_Penalty_For_Payments,
)
from finagent.tools.documents import LoadDocumentsFull, SearchUserDocuments
from finagent.tools.kb_files import build_kb_file_tools
from finagent.tools.kb_search import ReqFindPassagesForQueries, SearchGeneralKb
from finagent.tools.legal import ResolveLegalReference
from finagent.tools.registry import ToolRegistry

if TYPE_CHECKING:
    from finagent.clients.tavily import TavilyClient
    from finagent.config import Settings
    from finagent.legal.catalog import LawCatalog
    from finagent.retrieval.retriever import Retriever
    from finagent.storage.documents import DocumentStore


def build_registry(
    settings: Settings,
    retriever: Retriever,
    documents: DocumentStore,
    catalog: LawCatalog,
    clients: LiveClients,
    extra_tools: Iterable[Tool[Any]] = (),
) -> ToolRegistry:
    """Domain tools; live sources are registered only when their client is configured (the
    пени calculator always is: without the Bank of Russia it uses the shipped history)."""
    tools: list[Tool[Any]] = [
        SearchUserDocuments(retriever),
        LoadDocumentsFull(documents, settings.full_documents_max_chars),
        SearchGeneralKb(retriever),
        ReqFindPassagesForQueries(retriever),
        ResolveLegalReference(catalog),
        Req_Calculate_Deadline_For_Events(),
        *build_kb_file_tools(settings.kb_root),
    ]
    if clients.cbr is not None:
        from finagent.tools.cbr import build_cbr_tools

        tools.extend(build_cbr_tools(settings, clients.cbr))
    else:  # пени on the shipped key-rate history alone
        tools.append(Req_Calculate_Penalty_For_Payments(KeyRateSource(None)))
    if clients.tavily is not None:
        from finagent.tools.news import build_news_tools

        tools.extend(build_news_tools(settings, clients.tavily))
    if clients.search is not None:
        from finagent.tools.internal_search import build_internal_search_tools

        tools.extend(build_internal_search_tools(settings, clients.search))
    names = {t.name for t in tools}
    tools.extend(t for t in extra_tools if t.name not in names)
    return ToolRegistry(tools)


def build_research_registry(
    registry: ToolRegistry, tavily: TavilyClient | None, reports_dir: Path
) -> ToolRegistry:
    """``registry`` plus the SGR system tools and (with a Tavily client) the web tools."""
    from finagent.tools.sgr import sgr_system_tools

    candidates = sgr_system_tools(reports_dir)
    if tavily is not None:  # the web tools' module imports the Tavily client's: slow
        from finagent.tools.web import web_tools

        candidates = [*candidates, *web_tools(tavily)]
    return ToolRegistry([*registry, *(t for t in candidates if t.name not in registry)])
