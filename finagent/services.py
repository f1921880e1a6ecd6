"""Wires the real components together: index, embeddings, storage, LLM and tools."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Any

from finagent.clients.llm import ROLES, LLMRole, build_chat_model
from finagent.config import Settings, get_settings
from finagent.legal.catalog import LawCatalog
from finagent.observability import configure_logging, register_secrets
from finagent.prompts import preload_prompts
from finagent.retrieval.embedding_cache import CachedEmbedder, build_cached_embedder
from finagent.retrieval.embeddings import Embedder
from finagent.retrieval.factory import build_index
from finagent.retrieval.index import VectorIndex
from finagent.retrieval.ingest import Ingestor
from finagent.retrieval.query_vectors import QueryVectors
from finagent.retrieval.retriever import KB, Retriever
from finagent.retrieval.sparse import RussianBm25
from finagent.storage.backend import open_persistence
from finagent.storage.documents import DocumentStore
from finagent.storage.history import ChatHistory
from finagent.tools.registry import ToolRegistry

if TYPE_CHECKING:  # slow to import; annotations only
    from langchain_core.language_models import BaseChatModel
    from langgraph.checkpoint.base import BaseCheckpointSaver

    from finagent.clients.tavily import TavilyClient

_UNSET: Any = object()


class Services:
    """Everything the graphs, tools and CLI share; persistence opens lazily in the running loop."""

    def __init__(
        self,
        settings: Settings,
        *,
        llm: BaseChatModel | None = _UNSET,
        index: VectorIndex | None = None,
        embedder: Embedder | None = None,
        tools: bool = True,
    ) -> None:
        """``tools=False`` skips building the tool registry (``finagent route`` needs none)."""
        register_secrets(settings.secret_values())
        self.settings = settings
        self.llm: BaseChatModel | None = build_chat_model(settings) if llm is _UNSET else llm
        # one model per call role with its limits; an injected model serves every role
        self._role_llms: dict[LLMRole, BaseChatModel] = {}
        if llm is _UNSET and self.llm is not None:
            self._role_llms = {r: m for r in ROLES if (m := build_chat_model(settings, r))}
        self.index = index or build_index(settings)
        self.embedder = embedder or build_cached_embedder(settings)
        self.bm25 = RussianBm25()
        self.retriever = Retriever(self.index, self.embedder, self.bm25, settings)
        self.catalog = LawCatalog(self.index, self.retriever.collection(KB))
        self.query_vectors = QueryVectors(self.embedder.model_id)
        self._stack = AsyncExitStack()
        self._lock = asyncio.Lock()
        self._started = False
        self.documents: DocumentStore
        self.history: ChatHistory
        self.checkpointer: BaseCheckpointSaver[str]
        self.registry: ToolRegistry
        self.extra_tools: list[Any] = []
        self.closers: list[Callable[[], Awaitable[None]]] = []
        self.tavily: TavilyClient | None = None
        self._with_tools = tools

    def llm_for(self, role: LLMRole) -> BaseChatModel:
        """The chat model of ``role`` (its timeout and max_tokens); needs an LLM configured."""
        if self.llm is None:
            raise RuntimeError("no LLM is configured")
        return self._role_llms.get(role, self.llm)

    async def start(self) -> Services:
        async with self._lock:
            if self._started:
                return self
            await asyncio.to_thread(self._prepare_files)
            persistence = await open_persistence(self.settings, self._stack)
            self.documents = DocumentStore(persistence.store)
            self.history = ChatHistory(persistence.store)
            self.checkpointer = persistence.checkpointer
            # client construction may read files (WSDL, certificates): keep it off the loop
            if self._with_tools:
                self.registry = await asyncio.to_thread(self._build_registry)
            self._started = True
        return self

    def _prepare_files(self) -> None:
        self.settings.data_dir.mkdir(parents=True, exist_ok=True)
        self.settings.kb_root.mkdir(parents=True, exist_ok=True)
        preload_prompts()  # every prompt, research ones included: no file reads while serving

    def _build_registry(self) -> ToolRegistry:
        from finagent.tools.catalog import build_registry

        if self.settings.tavily_api_key is not None:
            from finagent.clients.tavily import TavilyClient

            self.tavily = TavilyClient(self.settings)
            self.closers.append(self.tavily.aclose)
        return build_registry(self)

    def ingestor(self) -> Ingestor:
        return Ingestor(self.retriever, self.documents, self.settings.kb_root)

    async def aclose(self) -> None:
        for close in self.closers:
            await close()
        self.closers.clear()
        await self._stack.aclose()
        await self.index.close()
        if isinstance(self.embedder, CachedEmbedder):
            self.embedder.cache.close()
        self._started = False

    async def __aenter__(self) -> Services:
        return await self.start()

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


_shared: Services | None = None


def get_services() -> Services:
    """Process-wide services from the environment (LangGraph API / Studio entry points)."""
    global _shared
    if _shared is None:
        settings = get_settings()
        configure_logging()
        _shared = Services(settings)
    return _shared
