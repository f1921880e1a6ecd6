"""The composition root: builds every client, index, store, model and tool from Settings.

No other module constructs a client. ``Root`` opens everything in the running event loop
and owns the closers (one AsyncExitStack); what it opens is handed out as one immutable
``Deps``. Graph nodes reach it through their runtime context (finagent/graph/context.py).
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping, Sequence
from contextlib import AsyncExitStack
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from pydantic_core import core_schema

from finagent.clients.llm import ROLES, LLMRole, build_chat_model
from finagent.config import Settings, get_settings
from finagent.language.lemmas import load_lemmas, save_lemmas
from finagent.legal.catalog import LawCatalog
from finagent.observability import register_secrets
from finagent.prompts import preload_prompts
from finagent.retrieval.embedding_cache import CachedEmbedder, build_cached_embedder
from finagent.retrieval.embeddings import Embedder
from finagent.retrieval.factory import build_index
from finagent.retrieval.index import VectorIndex
from finagent.retrieval.query_vectors import QueryVectors
from finagent.retrieval.retriever import KB, Retriever
from finagent.retrieval.sparse import RussianBm25
from finagent.storage.backend import open_persistence
from finagent.storage.documents import DocumentStore
from finagent.storage.history import ChatHistory
from finagent.tools.registry import ToolRegistry
from finagent.tracing import configure_tracing

if TYPE_CHECKING:  # slow to import; annotations only
    from langchain_core.language_models import BaseChatModel
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.store.base import BaseStore

    from finagent.clients.live import LiveClients
    from finagent.retrieval.ingest import Ingestor
    from finagent.tools.base import Tool

_UNSET: Any = object()


@dataclass(frozen=True, eq=False)
class Deps:
    """Everything the graphs, tools, CLI and servers share; built once by ``Root``."""

    settings: Settings
    llm: BaseChatModel | None
    role_llms: Mapping[LLMRole, BaseChatModel]
    index: VectorIndex
    embedder: Embedder
    bm25: RussianBm25
    retriever: Retriever
    catalog: LawCatalog
    query_vectors: QueryVectors
    documents: DocumentStore
    history: ChatHistory
    store: BaseStore
    checkpointer: BaseCheckpointSaver[str]
    registry: ToolRegistry
    research_registry: ToolRegistry
    extra_tools: Sequence[Tool[Any]] = field(default=())

    @classmethod
    def __get_pydantic_core_schema__(cls, source: Any, handler: Any) -> core_schema.CoreSchema:
        """Opaque to pydantic: a run context may carry it, JSON schemas skip it."""
        return core_schema.is_instance_schema(cls)

    def llm_for(self, role: LLMRole) -> BaseChatModel:
        """The chat model of ``role`` (its timeout and max_tokens); needs an LLM configured."""
        if self.llm is None:
            raise RuntimeError("no LLM is configured")
        return self.role_llms.get(role, self.llm)

    def ingestor(self) -> Ingestor:
        # loaded when a command ingests, not by every answer
        from finagent.answering.document_sentences import document_sentences
        from finagent.answering.stored_profiles import DocumentProfiler
        from finagent.retrieval.ingest import Ingestor

        # user documents' sentences are embedded and profiled as the answer reads them
        return Ingestor(
            self.retriever,
            self.documents,
            self.settings.kb_root,
            document_sentences,
            DocumentProfiler(),
        )


class Root:
    """Opens the dependencies of ``settings`` once, in the running loop, and closes them.

    ``llm``, ``index`` and ``embedder`` replace the configured ones (tests, evaluations);
    ``tools=False`` skips the live clients and tools (``finagent route`` needs none);
    ``defer_tools`` builds the tools when a node first reads the registry, in the caller's
    thread (``finagent ask``: most questions call no tool, and a CLI has no event loop to
    keep free); ``extra_tools`` (e.g. MCP tools) join the registry after the domain tools.
    """

    def __init__(
        self,
        settings: Settings,
        *,
        llm: BaseChatModel | None = _UNSET,
        index: VectorIndex | None = None,
        embedder: Embedder | None = None,
        tools: bool = True,
        defer_tools: bool = False,
        extra_tools: Sequence[Tool[Any]] = (),
    ) -> None:
        register_secrets(settings.secret_values())
        configure_tracing()  # traces go out redacted, or not at all
        self.settings = settings
        self._llm = llm
        self._index = index
        self._embedder = embedder
        self._with_tools = tools
        self._defer_tools = defer_tools
        self._extra_tools = tuple(extra_tools)
        self._deps: Deps | None = None
        self._stack = AsyncExitStack()
        self._lock = asyncio.Lock()

    @property
    def deps(self) -> Deps:
        """The started dependencies (RuntimeError before ``start``)."""
        if self._deps is None:
            raise RuntimeError("the dependencies are not started: await Root.start() first")
        return self._deps

    @property
    def started(self) -> bool:
        return self._deps is not None

    async def start(self) -> Deps:
        async with self._lock:
            if self._deps is None:
                try:
                    self._deps = await self._open()
                except BaseException:  # close what opened before the failure
                    await self._stack.aclose()
                    self._stack = AsyncExitStack()
                    raise
        return self._deps

    def _models(self) -> tuple[BaseChatModel | None, dict[LLMRole, BaseChatModel]]:
        settings = self.settings
        llm = build_chat_model(settings) if self._llm is _UNSET else self._llm
        # one model per call role with its limits; an injected model serves every role
        role_llms: dict[LLMRole, BaseChatModel] = {}
        if self._llm is _UNSET and llm is not None:
            role_llms = {r: m for r in ROLES if (m := build_chat_model(settings, r))}
        return llm, role_llms

    async def _open(self) -> Deps:
        """Open everything; blocking work (files, model and client construction) runs in
        worker threads, so a server's event loop never waits on it."""
        settings = self.settings
        stack = self._stack
        llm, role_llms = await asyncio.to_thread(self._models)
        index = self._index
        if index is None:
            index = await asyncio.to_thread(build_index, settings)
        stack.push_async_callback(index.close)
        embedder = self._embedder
        if embedder is None:
            embedder = await asyncio.to_thread(build_cached_embedder, settings)
        if isinstance(embedder, CachedEmbedder):
            stack.callback(embedder.cache.close)
        bm25 = RussianBm25()
        retriever = Retriever(index, embedder, bm25, settings)
        catalog = LawCatalog(index, retriever.collection(KB))
        stack.push_async_callback(catalog.stop)  # a load still running ends before the index
        await asyncio.to_thread(_prepare_files, settings)
        # the lemmas of the last process: its words are not parsed again (saved at close)
        await asyncio.to_thread(load_lemmas, settings.lemma_file)
        stack.push_async_callback(asyncio.to_thread, save_lemmas, settings.lemma_file)
        persistence = await open_persistence(settings, stack)
        documents = DocumentStore(persistence.store)
        if self._with_tools:
            clients = await asyncio.to_thread(_open_clients, settings)
            for close in clients.closers():
                stack.push_async_callback(close)
            build = (settings, retriever, documents, catalog, clients, self._extra_tools)
            if self._defer_tools:
                registry, research = _deferred_tools(*build)
            else:
                registry, research = await asyncio.to_thread(_build_tools, *build)
        else:  # ``finagent route``: no tool module (and no client library) is imported
            registry = research = ToolRegistry(self._extra_tools)
        return Deps(
            settings=settings,
            llm=llm,
            role_llms=role_llms,
            index=index,
            embedder=embedder,
            bm25=bm25,
            retriever=retriever,
            catalog=catalog,
            query_vectors=QueryVectors(embedder.model_id),
            documents=documents,
            history=ChatHistory(persistence.store),
            store=persistence.store,
            checkpointer=persistence.checkpointer,
            registry=registry,
            research_registry=research,
            extra_tools=self._extra_tools,
        )

    async def aclose(self) -> None:
        async with self._lock:
            await self._stack.aclose()
            self._stack = AsyncExitStack()
            self._deps = None

    async def __aenter__(self) -> Deps:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


def _prepare_files(settings: Settings) -> None:
    settings.data_dir.mkdir(parents=True, exist_ok=True)
    settings.kb_root.mkdir(parents=True, exist_ok=True)
    preload_prompts()  # every prompt, research ones included: no file reads while serving


def _answer_registry(
    settings: Settings,
    retriever: Retriever,
    documents: DocumentStore,
    catalog: LawCatalog,
    clients: LiveClients,
    extra_tools: Sequence[Tool[Any]],
) -> ToolRegistry:
    """The answer's registry (tool construction reads the KB folder)."""
    from finagent.tools.catalog import build_registry

    return build_registry(settings, retriever, documents, catalog, clients, extra_tools)


def _research_registry(
    registry: ToolRegistry, settings: Settings, clients: LiveClients
) -> ToolRegistry:
    from finagent.tools.catalog import build_research_registry

    return build_research_registry(registry, clients.tavily, settings.reports_path)


def _build_tools(
    settings: Settings,
    retriever: Retriever,
    documents: DocumentStore,
    catalog: LawCatalog,
    clients: LiveClients,
    extra_tools: Sequence[Tool[Any]],
) -> tuple[ToolRegistry, ToolRegistry]:
    """The answer's and the research registries, built now."""
    registry = _answer_registry(settings, retriever, documents, catalog, clients, extra_tools)
    return registry, _research_registry(registry, settings, clients)


def _deferred_tools(
    settings: Settings,
    retriever: Retriever,
    documents: DocumentStore,
    catalog: LawCatalog,
    clients: LiveClients,
    extra_tools: Sequence[Tool[Any]],
) -> tuple[ToolRegistry, ToolRegistry]:
    """The registries of ``_build_tools``, each built when first read."""
    registry = ToolRegistry(
        build=lambda: _answer_registry(
            settings, retriever, documents, catalog, clients, extra_tools
        )
    )
    return registry, ToolRegistry(build=lambda: _research_registry(registry, settings, clients))


def _open_clients(settings: Settings) -> LiveClients:
    """The clients of the configured live sources (imported only when configured: slow)."""
    from finagent.clients.live import LiveClients

    cbr = tavily = search = None
    if settings.cbr_enabled:
        from finagent.clients.cbr import CentralBankClient

        cbr = CentralBankClient(settings)
    if settings.tavily_api_key is not None:
        from finagent.clients.tavily import TavilyClient

        tavily = TavilyClient(settings)
    if settings.doc_api_url:
        from finagent.clients.internal_search import SearchClient

        search = SearchClient(settings)
    return LiveClients(cbr=cbr, tavily=tavily, search=search)


def open_root(settings: Settings | None = None, **overrides: Any) -> Root:
    """A root over ``settings`` (the environment's by default): ``async with open_root() as
    deps`` in CLI commands."""
    return Root(settings or get_settings(), **overrides)


_default: Root | None = None


def default_root() -> Root:
    """The process-wide root from the environment (LangGraph API / Studio, MCP server)."""
    global _default
    if _default is None:
        _default = Root(get_settings())
    return _default
