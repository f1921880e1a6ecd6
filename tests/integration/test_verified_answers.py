"""Verified answers end to end: key facts quoted, references checked, abstention, editions."""

from __future__ import annotations

import re
from typing import Any

import pytest
from langchain_core.messages import AIMessage

from finagent.bootstrap import Deps
from finagent.graph.agent import Agent
from finagent.retrieval.law_ingest import LawIngestor
from finagent.tools.base import ToolContext
from tests.fakes.llm import ScriptedChatModel, tool_call_message
from tests.integration.test_law_ingest import CODE


def decision(intents: list[str]) -> AIMessage:
    return tool_call_message(
        "OrchestratorOutput",
        {
            "scenario": 2,
            "intents": intents,
            "confidence": 0.9,
            "reason": "test",
            "sub_queries": [],
            "clarifying_questions": [],
        },
    )


async def with_code(services: Deps) -> Deps:
    ingestor = LawIngestor(services.index, services.embedder, services.bm25, services.settings)
    await ingestor.ingest_text(CODE, code="nk", part=1, progress=False)
    return services


@pytest.fixture
async def agent(make_loaded) -> Agent:  # type: ignore[no-untyped-def]
    return Agent(await with_code((await make_loaded())["services"]))


def summary(answer: str) -> str:
    return answer.split("## Подробный анализ")[0]


async def test_offline_answer_quotes_the_key_fact_with_its_point(agent: Agent) -> None:
    result = await agent.run(user_id="alice", query="Сколько длится камеральная проверка?")
    assert "в течение трех месяцев" in summary(result.answer)
    assert "п. 2 ст. 88 НК РФ" in summary(result.answer)
    assert "nk1.ch14.art88.p2" in result.debug["cited_units"]
    # the edition is the latest amending law named in the text
    assert "НК РФ в редакции от 29.05.2024" in result.answer
    assert result.debug["references"]["unsupported"] == 0


async def test_questions_outside_the_corpus_are_declined(agent: Agent) -> None:
    traps = {
        "Какая ставка НДС в Казахстане?": "Казахстан",
        "Какой штраф по КоАП за неприменение кассы?": "КоАП",
        "Что сказано в ст. 999 НК РФ?": "ст. 999 НК РФ",
        "Что разъяснено в письме Минфина России от 01.02.2023 № 03-04-05/99999?": "письм",
        "Какая ставка земельного налога?": "земельный налог",
    }
    for question, named in traps.items():
        result = await agent.run(user_id="alice", query=question)
        assert "нет оснований для ответа" in result.answer, question
        assert named in result.answer, question
        figures = set(re.findall(r"\d+", summary(result.answer)))
        assert figures <= set(re.findall(r"\d+", question)), question  # no figure of its own
        assert result.debug["answer_mode"] == "abstained"
        assert "## Источники\nИсточники не использовались." in result.answer
    # a Russian taxpayer's export to Kazakhstan is a Tax Code question
    export = await agent.run(user_id="alice", query="Какая ставка НДС при экспорте в Казахстан?")
    assert "нет оснований для ответа" not in export.answer


async def test_a_later_period_gets_a_warning(make_loaded) -> None:  # type: ignore[no-untyped-def]
    # the LLM decides the route, so the test is about the answer, not about routing
    llm = ScriptedChatModel(
        [decision(["kb"]), AIMessage("## Краткий вывод\nПроверка длится три месяца [1].")]
    )
    services = await with_code((await make_loaded(llm))["services"])
    result = await Agent(services).run(
        user_id="alice", query="Сколько длится камеральная проверка в 2027 году?"
    )
    assert "правила могли измениться" in result.answer and "с 1 января 2027 года" in result.answer
    assert result.answer.index("правила могли измениться") < result.answer.index("три месяца")


async def test_an_invented_reference_is_removed_from_an_llm_answer(make_loaded) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedChatModel(
        [
            decision(["kb"]),
            AIMessage(
                "## Краткий вывод\nПроверка длится три месяца (п. 2 ст. 88 НК РФ) [1]. "
                "Штраф — по ст. 999 НК РФ и п. 7 ст. 88 НК РФ, а также по ст. 15.5 КоАП [1].\n\n"
                "## Подробный анализ\nСм. [1]."
            ),
        ]
    )
    services = await with_code((await make_loaded(llm))["services"])
    result = await Agent(services).run(
        user_id="alice", query="Сколько длится камеральная проверка?"
    )
    assert result.debug["answer_mode"] == "llm"
    assert "п. 2 ст. 88 НК РФ" in result.answer
    for invented in ("ст. 999", "п. 7 ст. 88", "15.5 КоАП"):
        assert invented not in result.answer
    assert result.answer.count("[ссылка удалена: не подтверждена источниками]") == 3
    refs: dict[str, Any] = result.debug["references"]
    assert refs["unsupported"] == 3 and "п. 2 ст. 88 НК РФ" in refs["verified"]


async def test_document_answers_cite_only_the_users_documents(make_loaded) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedChatModel(
        [
            tool_call_message(
                "OrchestratorOutput",
                {
                    "scenario": 1,
                    "intents": [],
                    "confidence": 0.9,
                    "reason": "документы",
                    "sub_queries": [],
                    "clarifying_questions": [],
                },
            ),
            AIMessage("## Краткий вывод\nПени 0,1 % в день [1], а по закону иначе [7]."),
        ]
    )
    services = (await make_loaded(llm))["services"]
    result = await Agent(services).run(user_id="alice", query="какие пени в договоре аренды?")
    assert "[1]" in result.answer and "[7]" not in result.answer
    listed = result.answer.split("## Источники")[1]
    assert "файл lease.md" in listed and "doc_" not in listed  # title and file, not an id


async def test_resolve_legal_reference_tool(agent: Agent) -> None:
    registry = agent.deps.registry
    ctx = ToolContext(user_id="alice")
    point = await registry.call("resolve_legal_reference", {"citation": "п. 2 ст. 88 НК РФ"}, ctx)
    assert "в течение трех месяцев" in point and "Камеральная налоговая проверка" in point
    missing = await registry.call("resolve_legal_reference", {"citation": "п. 9 ст. 88 НК РФ"}, ctx)
    assert missing.startswith("Error:") and "п. 2 ст. 88 НК РФ" in missing
    other = await registry.call("resolve_legal_reference", {"citation": "ст. 15.5 КоАП"}, ctx)
    assert other.startswith("Error:") and "not ingested" in other
    junk = await registry.call("resolve_legal_reference", {"citation": "просто текст"}, ctx)
    assert junk.startswith("Error:")


async def test_research_answers_keep_only_references_the_run_retrieved(  # type: ignore[no-untyped-def]
    make_loaded, tmp_path
) -> None:
    from finagent.agents_config import AgentDefinition, ExecutionLimits
    from finagent.graph.research import build_research_graph
    from tests.integration.test_research_graph import REASONING

    services = await with_code((await make_loaded())["services"])

    def step(tool_name: str, **args: Any) -> AIMessage:
        return tool_call_message(
            "NextStep", {**REASONING, "tool": {"tool_name": tool_name, **args}}
        )

    llm = ScriptedChatModel(
        [
            step("search_general_kb", query="срок камеральной проверки"),
            step(
                "final_answer",
                reasoning="Данных достаточно",
                completed_steps=["Нашёл норму"],
                answer="Проверка длится три месяца (п. 2 ст. 88 НК РФ); штраф по ст. 999 НК РФ.",
                status="completed",
            ),
        ]
    )
    agent = AgentDefinition(
        name="t",
        tools=["search_general_kb", "final_answer"],
        execution=ExecutionLimits(reports_dir=tmp_path / "reports"),
    )
    registry = services.research_registry
    graph = build_research_graph(llm, registry, agent, catalog=services.catalog)
    result = await graph.ainvoke(
        {"query": "Сколько длится камеральная проверка?"},
        {"configurable": {"thread_id": "r1", "user_id": "alice"}},
    )
    assert result["status"] == "completed"
    assert "п. 2 ст. 88 НК РФ" in result["answer"] and "ст. 999" not in result["answer"]
    assert result["references"]["unsupported"] == 1


async def test_with_an_llm_a_trap_is_declined_before_the_answer_call(make_loaded) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedChatModel([decision(["kb"])])  # no answer reply scripted: none may be asked
    services = await with_code((await make_loaded(llm))["services"])
    result = await Agent(services).run(user_id="alice", query="Какая ставка НДС в Казахстане?")
    assert "нет оснований для ответа" in result.answer and llm.calls == 1
