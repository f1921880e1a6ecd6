"""Every scenario through the compiled graph, with no LLM and with a scripted fake LLM."""

from __future__ import annotations

from typing import Any

import pytest
from langchain_core.messages import AIMessage

from finagent.bootstrap import Deps
from finagent.graph.agent import Agent, InvalidRequestError, chat_thread_id
from tests.fakes.llm import ScriptedChatModel, tool_call_message


def decision(
    scenario: int,
    intents: list[str] | None = None,
    confidence: float = 0.9,
    sub_queries: list[str] | None = None,
    questions: list[str] | None = None,
) -> AIMessage:
    return tool_call_message(
        "OrchestratorOutput",
        {
            "scenario": scenario,
            "intents": intents or [],
            "confidence": confidence,
            "reason": "test",
            "sub_queries": sub_queries or [],
            "clarifying_questions": questions or [],
        },
    )


@pytest.fixture
async def agent(loaded: dict[str, Any]) -> Agent:
    return Agent(loaded["services"])


# --- no LLM --------------------------------------------------------------------------------
async def test_s2_kb_offline_extractive_answer_with_citations(agent: Agent):
    result = await agent.run(user_id="alice", query="Какая ставка НДС при экспорте?")
    assert result.scenario == 2
    assert "## Краткий вывод" in result.answer and "## Подробный анализ" in result.answer
    assert "## Источники" in result.answer and "[1]" in result.answer
    assert "Ставки НДС" in result.answer.split("## Источники")[1]
    assert any(c.document_id == "kb-1" for c in result.used_chunks)
    assert result.debug["search_kb"]["queries"][0] == "Какая ставка НДС при экспорте?"


async def test_s1_searches_only_own_documents(agent: Agent, loaded: dict[str, Any]):
    result = await agent.run(user_id="alice", query="какие пени в моём договоре аренды?")
    assert result.scenario == 1
    assert "0,1 %" in result.answer
    assert {c.source for c in result.used_chunks} == {"user_docs"}
    bob = await agent.run(user_id="bob", query="какие пени в моём договоре аренды?")
    assert bob.used_chunks == []
    assert bob.scenario == 1 and "нет загруженных документов" in bob.answer


async def test_s3_small_selection_is_read_whole(agent: Agent, loaded: dict[str, Any]):
    doc_id = loaded["doc_ids"]["invoice"]
    result = await agent.run(
        user_id="alice", query="Какая сумма НДС?", selected_document_ids=[doc_id]
    )
    assert result.scenario == 3
    # the whole document, and the card sentence the direct answer quotes from it
    assert [c.id for c in result.used_chunks] == [f"{doc_id}:full", f"{doc_id}:card:vat"]
    assert "40 000" in result.answer


async def test_s4_large_selection_is_searched(make_loaded):
    data = await make_loaded(full_documents_max_chars=50)
    services: Deps = data["services"]
    doc_id = data["doc_ids"]["lease"]
    result = await Agent(services).run(
        user_id="alice", query="какие пени за просрочку?", selected_document_ids=[doc_id]
    )
    assert result.scenario == 4
    assert result.debug["selected_total_chars"] > 50
    assert all(c.document_id == doc_id for c in result.used_chunks)
    # searched: passages of the selection, not only the whole text (the offline composer may
    # still quote a sentence of the selected document's full text, as in S1 and S3)
    searched = [c for c in result.used_chunks if c.id.split(":")[-1].isdigit()]
    assert searched


async def test_s5_clarifies_vague_question(agent: Agent):
    result = await agent.run(user_id="alice", query="а сколько?")
    assert result.scenario == 5
    assert result.answer.startswith("Чтобы ответить точно")
    assert result.used_chunks == []


async def test_rates_and_news_not_configured_in_parallel(agent: Agent):
    result = await agent.run(
        user_id="alice", query="какая сейчас ключевая ставка и какие новости по ней"
    )
    assert result.debug["decision"]["intents"] == ["rates", "news"]
    assert "«Банк России» не настроен" in result.answer
    assert "«финансовые новости» не настроен" in result.answer
    assert result.debug["fetch_cbr_data"] == "not configured"


async def test_smalltalk_offline(agent: Agent):
    result = await agent.run(user_id="alice", query="Привет! Что ты умеешь?")
    assert result.scenario == 2 and "finagent" in result.answer


async def test_history_resolves_follow_up(agent: Agent):
    await agent.run(user_id="alice", query="какой вычет на лечение по НДФЛ?", chat_id="c1")
    follow = await agent.run(user_id="alice", query="а сколько?", chat_id="c1")
    assert follow.scenario == 2
    other_user = await agent.run(user_id="bob", query="а сколько?", chat_id="c1")
    assert other_user.scenario == 5  # bob's "c1" is a different chat with no history
    turns = await agent.deps.history.last("alice", "c1", 10)
    assert [t.role for t in turns] == ["user", "assistant", "user", "assistant"]
    assert await agent.deps.history.last("bob", "c1", 10) != turns


async def test_chat_threads_of_different_users_never_collide(agent: Agent):
    """User ``a:b`` in chat ``c`` and user ``a`` in chat ``b:c`` are different threads."""
    assert chat_thread_id("a:b", "c") != chat_thread_id("a", "b:c")
    assert chat_thread_id("alice", "c1") == "alice:c1"  # plain ids keep their thread
    await agent.run(user_id="a:b", query="какой вычет на лечение по НДФЛ?", chat_id="c")
    graph = await agent.graph()
    own = await graph.aget_state({"configurable": {"thread_id": chat_thread_id("a:b", "c")}})
    other = await graph.aget_state({"configurable": {"thread_id": chat_thread_id("a", "b:c")}})
    assert own.values.get("query") == "какой вычет на лечение по НДФЛ?"
    assert not other.values
    follow = await agent.run(user_id="a", query="а сколько?", chat_id="b:c")
    assert follow.scenario == 5  # no history leaks in from the other user's chat


# --- bad input -------------------------------------------------------------------------------
@pytest.mark.parametrize("query", ["", "   ", "я" * 100_000])
async def test_bad_queries_are_rejected(agent: Agent, query: str):
    with pytest.raises(InvalidRequestError) as err:
        await agent.run(user_id="alice", query=query)
    assert "Вопрос" in str(err.value)


async def test_unknown_and_foreign_document_ids(agent: Agent, loaded: dict[str, Any]):
    with pytest.raises(InvalidRequestError, match="doc_missing"):
        await agent.run(user_id="alice", query="что там?", selected_document_ids=["doc_missing"])
    with pytest.raises(InvalidRequestError, match="Документы не найдены"):
        await agent.run(
            user_id="bob", query="что там?", selected_document_ids=[loaded["doc_ids"]["lease"]]
        )


async def test_graph_itself_answers_bad_input_without_raising(agent: Agent):
    graph = await agent.graph()
    config = {"configurable": {"user_id": "alice", "thread_id": "t-bad"}}
    state = await graph.ainvoke({"query": "x" * 5000}, config)
    assert state["error"] == "query_too_long" and "слишком длинный" in state["answer"]
    state = await graph.ainvoke({"query": "что такое НДС"}, {"configurable": {"thread_id": "t"}})
    assert state["error"] == "no_user"


async def test_search_unavailable_gives_clear_answer(make_services):
    services: Deps = await make_services(qdrant_url="http://127.0.0.1:9")
    result = await Agent(services).run(user_id="alice", query="какая ставка НДС?")
    assert "Поиск по документам и базе знаний сейчас недоступен" in result.answer


# --- scripted LLM ------------------------------------------------------------------------------
async def test_llm_orchestrator_and_answer_with_tool_loop(make_loaded):
    llm = ScriptedChatModel(
        [
            decision(2, ["kb"], sub_queries=["ставка НДС экспорт", "нулевая ставка НДС"]),
            tool_call_message("search_general_kb", {"query": "вычет на лечение"}),
            AIMessage(
                "## Краткий вывод\nЭкспорт облагается по ставке 0 % [1], лечение [5].\n\n"
                "## Подробный анализ\nСм. [1] и [9].\n\n## Источники\n[1] выдуманный"
            ),
        ]
    )
    services: Deps = (await make_loaded(llm))["services"]
    result = await Agent(services).run(user_id="alice", query="ставка НДС при экспорте?")
    assert result.debug["decision"]["source"] == "llm"
    assert result.debug["search_kb"]["queries"] == [
        "ставка НДС при экспорте?",
        "ставка НДС экспорт",
        "нулевая ставка НДС",
    ]
    assert result.debug["tool_calls"] == ["search_general_kb"]
    assert llm.calls == 3
    bound = {t.name for t in llm.bound_tools}  # a knowledge question: the KB's tools only
    assert "search_general_kb" in bound and "search_user_documents" not in bound
    assert "выдуманный" not in result.answer and "[9]" not in result.answer
    # 5 chunks from the 4 articles: one source number per article, the tool result is [5];
    # the answer cites [1] and [5] and shows them as [1] and [2], with no gap
    assert len({c.document_id for c in result.used_chunks}) == 4
    sources = result.answer.split("## Источники")[1]
    assert "лечение [2]" in result.answer and [5, 2] in result.debug["source_numbers"]
    assert "[1] Ставки НДС" in sources and "[2] база знаний" in sources
    assert "[3]" not in sources  # only cited sources are listed
    assert sources.count("Ставки НДС") == 1
    tool_message = llm.received[2][-1]
    assert tool_message.content.startswith("[5] ")


@pytest.mark.parametrize(
    ("first", "reason"),
    [
        (RuntimeError("provider down"), "RuntimeError"),
        (decision(2, []), "InvalidDecisionError"),
        (decision(2, ["news"], confidence=0.3), "low confidence"),
        (AIMessage("not structured"), ""),
    ],
)
async def test_orchestrator_falls_back_to_rules(make_loaded, first, reason):
    llm = ScriptedChatModel([first, AIMessage("## Краткий вывод\nОтвет [1].")])
    services: Deps = (await make_loaded(llm))["services"]
    result = await Agent(services).run(user_id="alice", query="какая ставка НДС?")
    assert result.debug["decision"]["source"] in {"rules", "classifier"}  # the offline router
    assert result.debug["decision"]["intents"] == ["kb"]
    assert reason in str(result.debug["orchestrator_fallback"])


async def test_llm_clarification_and_rules_threshold_setting(make_loaded):
    llm = ScriptedChatModel([decision(5, questions=["За какой год?"], confidence=0.65)])
    services: Deps = (await make_loaded(llm))["services"]
    result = await Agent(services).run(user_id="alice", query="сколько налога?")
    assert result.scenario == 5 and "За какой год?" in result.answer
    strict = ScriptedChatModel(
        [decision(5, questions=["За какой год?"], confidence=0.65), AIMessage("ответ")]
    )
    services2: Deps = (await make_loaded(strict, orchestrator_confidence_threshold=0.7))["services"]
    result2 = await Agent(services2).run(user_id="alice", query="сколько налога?")
    assert result2.debug["decision"]["source"] in {"rules", "classifier"}  # the offline router
    assert result2.scenario == 5  # too vague for the offline router too


async def test_answer_llm_failure_falls_back_to_extractive(make_loaded):
    llm = ScriptedChatModel([decision(2, ["kb"]), RuntimeError("timeout")])
    services: Deps = (await make_loaded(llm))["services"]
    result = await Agent(services).run(user_id="alice", query="какая ставка НДС?")
    assert result.debug["answer_mode"] == "extractive_fallback"
    assert "Языковая модель недоступна" in result.answer and "## Источники" in result.answer


async def test_tool_loop_is_bounded(make_loaded):
    calls = [tool_call_message("search_general_kb", {"query": f"q{i}"}) for i in range(2)]
    llm = ScriptedChatModel([decision(2, ["kb"]), *calls, AIMessage("итог [1]")])
    services: Deps = (await make_loaded(llm, max_tool_calls=2))["services"]
    result = await Agent(services).run(user_id="alice", query="какая ставка НДС?")
    assert result.debug["answer_mode"] == "llm"
    assert llm.calls == 4
    assert llm.bound_tools  # tools were offered while the budget lasted


async def test_tool_call_user_comes_from_config_not_llm(make_loaded):
    llm = ScriptedChatModel(
        [
            decision(2, ["kb"]),
            tool_call_message(
                "load_documents_full", {"document_ids": ["PLACEHOLDER"], "user_id": "alice"}
            ),
            AIMessage("итог"),
        ]
    )
    data = await make_loaded(llm, answer_tools="all")  # offer the document tools in S2
    services: Deps = data["services"]
    foreign = data["doc_ids"]["lease"]
    llm.responses[1].tool_calls[0]["args"]["document_ids"] = [foreign]
    await Agent(services).run(user_id="bob", query="какая ставка НДС?")
    tool_output = llm.received[2][-1].content
    assert "no such documents for this user" in tool_output
    assert "150 000" not in tool_output


async def test_agent_on_the_qdrant_client_backend(make_loaded):
    """The same graph over qdrant-client (in-process mode stands in for a server)."""
    data = await make_loaded(qdrant_url=":memory:")
    services: Deps = data["services"]
    assert services.index.backend == "qdrant"
    agent = Agent(services)
    result = await agent.run(user_id="alice", query="какие пени в моём договоре аренды?")
    assert result.scenario == 1 and "0,1 %" in result.answer
    bob = await agent.run(user_id="bob", query="какие пени в моём договоре аренды?")
    assert bob.used_chunks == []
    kb = await agent.run(user_id="bob", query="Какая ставка НДС при экспорте?")
    assert any(c.document_id == "kb-1" for c in kb.used_chunks)
