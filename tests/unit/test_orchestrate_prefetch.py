"""The orchestrate node starts loading the Code's units at a knowledge-base decision (so
the answer does not wait for the catalogue's scroll after the search), and only then."""

from __future__ import annotations

import asyncio
from dataclasses import replace

from finagent.legal.catalog import LawCatalog
from finagent.nodes.orchestrate import orchestrate
from finagent.state import Scenario
from tests.unit.node_deps import node_deps, runtime
from tests.unit.test_catalog_join import GatedIndex


async def test_a_knowledge_question_starts_loading_the_code_at_its_decision() -> None:
    index = GatedIndex()
    catalog = LawCatalog(index, "kb")  # type: ignore[arg-type]
    deps = replace(node_deps(), catalog=catalog)
    update = await orchestrate(
        {"query": "Какая ставка НДС при экспорте товаров?"},  # type: ignore[typeddict-item]
        runtime(deps),
    )
    decision = update["decision"]
    assert decision.scenario == Scenario.ROUTED and "kb" in decision.intents
    # the scroll runs before any search asked for it (a bound: a missing start fails)
    await asyncio.wait_for(index.started.wait(), 30)
    index.release.set()
    assert (await catalog.unit("nk.a1")) is not None
    assert index.scrolls == 1  # the answer's lookup found it loaded


async def test_small_talk_loads_nothing() -> None:
    index = GatedIndex()
    catalog = LawCatalog(index, "kb")  # type: ignore[arg-type]
    deps = replace(node_deps(), catalog=catalog)
    update = await orchestrate(
        {"query": "Привет! Что ты умеешь?"},  # type: ignore[typeddict-item]
        runtime(deps),
    )
    assert update["decision"].intents == ["smalltalk"]
    assert catalog._warming is None  # no load was started
