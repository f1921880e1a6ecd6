"""The agent graph's nodes, one at a time, over in-memory dependencies (no index, no
embedder model, no network)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage

from finagent.answering import messages
from finagent.nodes.answer import answer
from finagent.nodes.clarify import clarify
from finagent.nodes.context import caller
from finagent.nodes.documents import load_full_documents, no_documents
from finagent.nodes.intents import fetch_cbr, fetch_news
from finagent.nodes.load_history import load_history
from finagent.nodes.save_turn import save_turn
from finagent.prompts import routing_messages
from finagent.state import Decision, ExternalData, Scenario, Turn
from tests.fakes.llm import ScriptedChatModel, tool_call_message
from tests.unit.node_deps import FixedRate, in_run_config, node_deps, runtime, with_llm

ROUTED_KB = Decision(scenario=Scenario.ROUTED, intents=["kb"])


# --- load_history ---------------------------------------------------------------------------


async def test_load_history_refuses_a_run_without_a_user() -> None:
    update = await load_history({"query": "вопрос"}, runtime(node_deps(), user_id=None))
    assert update["error"] == "no_user" and "user_id" in update["answer"]


async def test_load_history_checks_the_question() -> None:
    deps = node_deps(max_query_chars=10)
    empty = await load_history({"query": "   "}, runtime(deps))
    assert (empty["error"], empty["answer"]) == ("empty_query", messages.EMPTY_QUERY)
    long = await load_history({"query": "я" * 11}, runtime(deps))
    assert long["error"] == "query_too_long" and "11" in long["answer"]


async def test_load_history_reads_only_the_callers_chat_and_resets_the_turn() -> None:
    deps = node_deps(history_turns=1)
    turns = [Turn(role="user", content="q1"), Turn(role="assistant", content="a1")]
    await deps.history.append("alice", "c1", turns)
    await deps.history.append("bob", "c1", [Turn(role="user", content="bob's")])
    update = await load_history({"query": "  а сколько? ", "chat_id": "c1"}, runtime(deps))
    assert update["query"] == "а сколько?" and update["history"] == turns
    assert update["error"] is None and update["answer"] == "" and update["chunks"] is None
    other = await load_history({"query": "x"}, runtime(deps, user_id="alice", chat_id="c2"))
    assert other["chat_id"] == "c2" and other["history"] == []


# --- who asks -------------------------------------------------------------------------------


def test_the_authenticated_user_wins_over_the_context_and_the_configuration() -> None:
    rt = runtime(node_deps(), user_id="mallory")
    assert caller(rt).user_id == "mallory"
    with in_run_config({"configurable": {"langgraph_auth_user_id": "bob", "user_id": "eve"}}):
        assert caller(rt).user_id == "bob"
    with in_run_config({"configurable": {"user_id": "carol", "chat_id": "c9"}}):
        from_config = caller(runtime(node_deps(), user_id=None))
    assert (from_config.user_id, from_config.chat_id) == ("carol", "c9")


def test_selected_documents_narrow_the_callers_scope() -> None:
    state = {"selected_document_ids": ["d1", "d2"], "chat_id": "c1"}
    ctx = caller(runtime(node_deps()), state)
    assert ctx.selected_document_ids == ("d1", "d2") and ctx.chat_id == "c1"


# --- stop nodes save the turn --------------------------------------------------------------


async def test_clarify_asks_bounded_questions_and_save_turn_stores_them() -> None:
    deps = node_deps()
    decision = Decision(
        scenario=Scenario.CLARIFY, clarifying_questions=["За какой год?", "  ", "x" * 500]
    )
    state: dict[str, Any] = {"query": "сколько налога?", "chat_id": "c1", "decision": decision}
    update = await clarify(state, runtime(deps))  # type: ignore[arg-type]
    lines = update["answer"].splitlines()
    assert lines[0] == messages.CLARIFY_HEADER and lines[1] == "- За какой год?"
    assert len(lines) == 3 and len(lines[2]) == 2 + 300
    assert await deps.history.last("alice", "c1", 10) == []  # the node itself saves nothing
    await save_turn({**state, **update}, runtime(deps))  # type: ignore[arg-type]
    saved = await deps.history.last("alice", "c1", 10)
    assert [t.content for t in saved] == ["сколько налога?", update["answer"]]


async def test_no_documents_says_how_to_upload_and_saves_nothing_without_a_chat() -> None:
    deps = node_deps()
    update = await no_documents({"query": "что в договоре?"}, runtime(deps))
    assert update["answer"] == routing_messages.NO_DOCUMENTS
    assert await deps.history.chats("alice") == []


async def test_full_documents_are_read_from_the_callers_store_only() -> None:
    deps = node_deps()
    mine = await deps.documents.put("alice", "Договор", "lease.md", "Аренда 150 000 рублей.")
    theirs = await deps.documents.put("bob", "Счёт", "invoice.md", "Итого 240 000 рублей.")
    state = {"selected_document_ids": [mine.id, theirs.id]}
    update = await load_full_documents(state, runtime(deps))  # type: ignore[arg-type]
    assert [c.id for c in update["chunks"]] == [f"{mine.id}:full"]
    assert update["chunks"][0].text == "Аренда 150 000 рублей."


# --- live sources ---------------------------------------------------------------------------


async def test_a_live_source_that_is_not_configured_is_a_notice() -> None:
    update = await fetch_news({"query": "новости"}, runtime(node_deps()))
    (item,) = update["external"]
    assert not item.ok and "не настроен" in item.content


async def test_a_live_source_is_called_as_the_caller_and_its_failure_is_not_quoted() -> None:
    good = FixedRate()
    update = await fetch_cbr(
        {"query": "ключевая ставка на 28.10.2024"}, runtime(node_deps(tools=[good]))
    )
    (item,) = update["external"]
    assert item.ok and item.content == "Ключевая ставка: 21 %"
    assert good.calls and good.calls[0][1] == "alice"
    bad = await fetch_cbr(
        {"query": "ключевая ставка"}, runtime(node_deps(tools=[FixedRate(fail=True)]))
    )
    (failed,) = bad["external"]
    assert not failed.ok and "500" not in failed.content and "Банк России" in failed.content


# --- answer ---------------------------------------------------------------------------------


async def test_offline_smalltalk_answer_is_the_greeting() -> None:
    deps = node_deps()
    state = {
        "query": "привет",
        "chat_id": "c1",
        "decision": Decision(scenario=Scenario.ROUTED, intents=["smalltalk"]),
    }
    update = await answer(state, runtime(deps))  # type: ignore[arg-type]
    assert update["answer"] == messages.SMALLTALK
    assert await deps.history.last("alice", "c1", 10) == []  # saved by save_turn only


async def test_a_failed_search_answers_with_its_notice_alone() -> None:
    state = {"query": "ставка НДС", "decision": ROUTED_KB, "notices": ["Поиск недоступен."]}
    update = await answer(state, runtime(node_deps()))  # type: ignore[arg-type]
    assert update == {"answer": "Поиск недоступен."}


async def test_the_answer_model_may_ask_for_tools_and_then_answers_citing_them() -> None:
    tool_round = tool_call_message("fetch_cbr_data", {"on_date": "2024-10-28"})
    llm = ScriptedChatModel([tool_round, AIMessage("Ставка 21 % [1].")])
    deps = with_llm(node_deps(tools=[FixedRate()], verified_answers=False), llm)
    rates = Decision(scenario=Scenario.ROUTED, intents=["rates"])
    external = ExternalData(tool="fetch_cbr_data", source_note="cbr.ru", content="21 %")
    state: dict[str, Any] = {"query": "ключевая ставка?", "decision": rates, "external": [external]}
    first = await answer(state, runtime(deps))  # type: ignore[arg-type]
    assert "answer" not in first and first["answer_messages"][-1].tool_calls
    assert [t.name for t in llm.bound_tools] == ["fetch_cbr_data"]
    state["answer_messages"] = first["answer_messages"]
    final = await answer(state, runtime(deps))  # type: ignore[arg-type]
    assert final["answer"].startswith("Ставка 21 % [1].") and "cbr.ru" in final["answer"]
    assert final["debug"]["answer_mode"] == "llm"


async def test_a_run_option_offers_the_answer_model_every_tool() -> None:
    """A knowledge question is offered no live-data tool, unless the run asks for all."""
    llm = ScriptedChatModel([AIMessage("Ответ."), AIMessage("Ответ.")])
    deps = with_llm(node_deps(tools=[FixedRate()], verified_answers=False), llm)
    external = ExternalData(tool="x", source_note="kb", content="НДС — налог.")
    state: dict[str, Any] = {"query": "что такое НДС?", "decision": ROUTED_KB}
    state["external"] = [external]
    await answer(state, runtime(deps))  # type: ignore[arg-type]
    assert llm.bound_tools == []
    await answer(state, runtime(deps, answer_tools="all"))  # type: ignore[arg-type]
    assert [t.name for t in llm.bound_tools] == ["fetch_cbr_data"]
