"""Dependencies for node unit tests: real stores over LangGraph's in-memory store, real
tools and registries, no index, no embedder model and no network."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from langchain_core.runnables import RunnableConfig
from langchain_core.runnables.config import var_child_runnable_config
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.runtime import Runtime
from langgraph.store.memory import InMemoryStore
from pydantic import BaseModel, Field

from finagent.bootstrap import Deps
from finagent.config import Settings
from finagent.nodes.context import AgentContext
from finagent.retrieval.query_vectors import QueryVectors
from finagent.storage.documents import DocumentStore
from finagent.storage.history import ChatHistory
from finagent.tools.base import Tool, ToolContext, ToolError
from finagent.tools.registry import ToolRegistry


class EmbeddingsDown:
    """An embedder whose endpoint is unreachable: routing falls back to its rules."""

    model_id = "unreachable"

    async def embed_queries(self, texts: list[str]) -> Any:
        raise ConnectionError("the embeddings endpoint is unreachable")

    async def embed_documents(self, texts: list[str]) -> Any:
        raise ConnectionError("the embeddings endpoint is unreachable")


class RateInput(BaseModel):
    on_date: str | None = Field(default=None, description="Date")
    fail: bool = Field(default=False, description="Fail the call")


class FixedRate(Tool[RateInput]):
    """Answers a fixed key rate (or fails when asked to), as the Bank of Russia tool would."""

    name = "fetch_cbr_data"
    input_model = RateInput

    def __init__(self, fail: bool = False) -> None:
        self.fail = fail
        self.calls: list[tuple[dict[str, Any], str]] = []

    async def run(self, args: RateInput, ctx: ToolContext) -> str:
        self.calls.append((args.model_dump(), ctx.user_id))
        if self.fail:
            raise ToolError("upstream said: internal error 500")
        return "Ключевая ставка: 21 %"


def node_deps(*, tools: list[Tool[Any]] | None = None, **settings: Any) -> Deps:
    """Deps whose stores are in memory; what a node must not touch is None."""
    conf = Settings(_env_file=None, cbr_enabled=False, **settings)  # type: ignore[call-arg]
    store = InMemoryStore()
    registry = ToolRegistry(tools or [])
    none: Any = None
    return Deps(
        settings=conf,
        llm=None,
        role_llms={},
        index=none,
        embedder=EmbeddingsDown(),  # type: ignore[arg-type]
        bm25=none,
        retriever=none,
        catalog=none,
        query_vectors=QueryVectors(EmbeddingsDown.model_id),
        documents=DocumentStore(store),
        history=ChatHistory(store),
        store=store,
        checkpointer=InMemorySaver(),
        registry=registry,
        research_registry=registry,
    )


def with_llm(deps: Deps, llm: Any) -> Deps:
    return replace(deps, llm=llm)


def runtime(deps: Deps, user_id: str | None = "alice", **context: Any) -> Runtime[AgentContext]:
    return Runtime(context=AgentContext(user_id=user_id, deps=deps, **context))


class in_run_config:
    """Nodes read the run configuration LangGraph sets for them: set it as LangGraph does."""

    def __init__(self, config: RunnableConfig) -> None:
        self.config = config

    def __enter__(self) -> None:
        self.token = var_child_runnable_config.set(self.config)

    def __exit__(self, *exc: object) -> None:
        var_child_runnable_config.reset(self.token)
