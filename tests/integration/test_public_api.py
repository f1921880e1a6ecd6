"""The public API: graph factories over a caller's model, checkpointer and store; a model
without tool calling; ``Agent.run`` with a RunnableConfig; sync calls fail clearly."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import AsyncCallbackHandler
from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
from langchain_core.messages import AIMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.store.memory import InMemoryStore

import finagent
from finagent import Agent, AgentResult, aclose_graphs, create_agent_graph, create_research_graph
from finagent.config import Settings

ANSWER = "Экспорт облагается по ставке 0 процентов [1]."


def toolless_model(*replies: str) -> GenericFakeChatModel:
    """A chat model with no ``bind_tools`` (and so no structured output either)."""
    return GenericFakeChatModel(messages=iter([AIMessage(r) for r in replies]))


@pytest.fixture(autouse=True)
async def graphs_closed() -> AsyncIterator[None]:
    """What a test's factories started is closed (an open store would hold the process)."""
    yield
    await aclose_graphs()


EXITS = """
import asyncio, sys
from finagent import aclose_graphs, create_research_graph
from finagent.config import Settings

async def main() -> None:
    settings = Settings(data_dir=sys.argv[1], cbr_enabled=False, _env_file=None)
    await create_research_graph(settings, llm=None)
    await aclose_graphs()

asyncio.run(main())
print("done")
"""


def test_a_process_with_factory_graphs_exits_once_they_are_closed(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", EXITS, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=120,  # an open store's worker thread would keep the interpreter waiting
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.strip() == "done"


FORGETFUL = """
import asyncio, sys
from finagent import create_agent_graph, create_research_graph
from finagent.config import Settings

async def main() -> None:
    settings = Settings(data_dir=sys.argv[1], cbr_enabled=False, _env_file=None)
    await create_research_graph(settings, llm=None)
    graph = await create_agent_graph(settings, llm=None)
    out = await graph.ainvoke({"query": "Привет!"}, context={"user_id": "frank"})
    print(out["decision"].scenario)

asyncio.run(main())  # the host never calls aclose_graphs
print("done")
"""


def test_a_host_that_never_closes_the_factory_graphs_still_exits(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-c", FORGETFUL, str(tmp_path / "data")],
        capture_output=True,
        text=True,
        timeout=60,  # the SQLite stores' worker threads stop at interpreter exit
    )
    assert run.returncode == 0, run.stderr
    assert run.stdout.split() == ["2", "done"]
    assert "Traceback" not in run.stderr and "Exception in thread" not in run.stderr


def offline(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path / "data", cbr_enabled=False, _env_file=None)  # type: ignore[call-arg]


def test_the_package_exports_its_version_and_api() -> None:
    assert finagent.__version__.count(".") >= 1
    assert set(finagent.__all__) >= {"Agent", "AgentResult", "create_agent_graph", "aclose_graphs"}
    with pytest.raises(AttributeError):
        finagent.nothing_here  # noqa: B018


async def test_the_agent_graph_over_a_toolless_model_a_checkpointer_and_a_store(
    tmp_path: Path, kb_csv: Path
) -> None:
    store = InMemoryStore()
    graph = await create_agent_graph(
        offline(tmp_path),
        llm=toolless_model(ANSWER, ANSWER),
        checkpointer=InMemorySaver(),
        store=store,
    )
    deps = graph.config["configurable"]["__finagent_deps"]  # type: ignore[index]
    await deps.ingestor().ingest_kb([kb_csv])
    config: Any = {"configurable": {"thread_id": "th-1"}}
    question = {"messages": [{"role": "user", "content": "Какая ставка НДС при экспорте?"}]}
    out = await graph.ainvoke(question, config, context={"user_id": "carol"})
    reply = out["messages"][-1]
    assert reply.type == "ai" and reply.text == out["answer"]
    assert out["answer"].startswith("Экспорт облагается по ставке 0 процентов [1].")
    assert [s["number"] for s in reply.response_metadata["sources"]][:1] == [1]
    # the thread is the chat, kept in the caller's store
    saved = await store.asearch(("chats", "carol", "th-1"))
    assert saved and "Какая ставка НДС при экспорте?" in str(saved[0].value)
    with pytest.raises(TypeError, match="ainvoke"):
        graph.invoke(question, config)


class FailingOnceStore(InMemoryStore):
    """A store whose first write fails: the turn crashes in ``save_turn``."""

    failed = False

    async def aput(self, *args: Any, **kwargs: Any) -> None:
        if not self.failed:
            self.failed = True
            raise OSError("disk full")
        await super().aput(*args, **kwargs)


CRASHED = "Какая ставка НДС при экспорте?"
GREETING = "Привет!"


@pytest.mark.parametrize(
    "next_input",
    [{"query": GREETING}, {"messages": [{"role": "user", "content": GREETING}]}],
    ids=["then-query", "then-messages"],
)
@pytest.mark.parametrize(
    "crashed",
    [{"messages": [{"role": "user", "content": CRASHED}]}, {"query": CRASHED}],
    ids=["messages", "query"],
)
async def test_a_run_after_a_crashed_turn_answers_its_own_question(
    tmp_path: Path, crashed: dict[str, Any], next_input: dict[str, Any]
) -> None:
    store = FailingOnceStore()
    graph = await create_agent_graph(
        offline(tmp_path), llm=None, checkpointer=InMemorySaver(), store=store
    )
    config: Any = {"configurable": {"thread_id": "th-crash"}}
    with pytest.raises(OSError, match="disk full"):
        await graph.ainvoke(crashed, config, context={"user_id": "erin"})
    out = await graph.ainvoke(next_input, config, context={"user_id": "erin"})
    assert out["query"] == GREETING
    assert out["decision"].scenario == 2  # small talk, not the crashed tax question
    # the crashed turn is not half saved: its question left the thread and the chat
    assert [(m.type, m.text) for m in out["messages"]][:1] == [("human", GREETING)]
    assert [m.type for m in out["messages"]] == ["human", "ai"]
    [saved] = await store.asearch(("chats", "erin", "th-crash"))
    assert "при экспорте" not in str(saved.value) and GREETING in str(saved.value)
    # an answered turn stays: the next one continues the conversation
    out = await graph.ainvoke({"query": "Спасибо!"}, config, context={"user_id": "erin"})
    assert out["query"] == "Спасибо!"
    human = [m.text for m in out["messages"] if m.type == "human"]
    assert human == [GREETING, "Спасибо!"] and out["messages"][-1].type == "ai"


async def test_agent_run_takes_a_runnable_config(tmp_path: Path) -> None:
    seen: list[tuple[str | None, list[str], dict[str, Any]]] = []

    class Recorder(AsyncCallbackHandler):
        async def on_chain_start(self, serialized: Any, inputs: Any, **kw: Any) -> None:
            if kw.get("parent_run_id") is None:
                seen.append((kw.get("name"), kw.get("tags") or [], kw.get("metadata") or {}))

    agent = await Agent.create(offline(tmp_path), llm=None)
    async with agent:
        config: Any = {
            "tags": ["notebook"],
            "metadata": {"case": "c-7"},
            "run_name": "ask-vat",
            "callbacks": [Recorder()],
        }
        result = await agent.run(user_id="dave", query="Привет!", config=config)
    assert isinstance(result, AgentResult) and result.scenario == 2
    [(name, tags, metadata)] = seen
    assert name == "ask-vat" and "notebook" in tags and metadata["case"] == "c-7"


async def test_the_research_graph_factory_takes_a_checkpointer(tmp_path: Path) -> None:
    graph = await create_research_graph(offline(tmp_path), llm=None, checkpointer=InMemorySaver())
    out = await graph.ainvoke({"query": "Ставка НДС?"}, {"configurable": {"thread_id": "r1"}})
    assert out["status"] == "failed" and out["answer"]  # no model: it says so, in Russian
    assert "pending" not in out  # working values are not output
