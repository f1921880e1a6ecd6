"""The agent graph's reducers and conditional edges, and one whole run over in-memory
dependencies (rules routing: the embeddings endpoint is down; extractive answer)."""

from __future__ import annotations

from typing import Any

from langchain_core.messages import AIMessage, HumanMessage
from pydantic import TypeAdapter

from finagent.answering import messages
from finagent.graph.agent import by_scenario, compile_agent_graph, stop_on_error
from finagent.nodes.context import AgentContext
from finagent.nodes.intents import fan_out
from finagent.nodes.tools import after_answer
from finagent.state import (
    Chunk,
    Decision,
    Scenario,
    extend_list,
    merge_chunks,
    merge_debug,
    typed_decision,
)
from tests.unit.node_deps import node_deps


def chunk(id_: str, score: float) -> Chunk:
    return Chunk(id=id_, text=id_, score=score)


# --- reducers -------------------------------------------------------------------------------


def test_chunks_merge_by_id_keeping_the_best_score_and_none_resets() -> None:
    merged = merge_chunks([chunk("a", 0.2), chunk("b", 0.5)], [chunk("a", 0.9)])
    assert [(c.id, c.score) for c in merged] == [("a", 0.9), ("b", 0.5)]
    assert merge_chunks(merged, None) == []


def test_lists_concatenate_and_none_resets() -> None:
    assert extend_list(["x"], ["y"]) == ["x", "y"]
    assert extend_list(["x"], None) == []


def test_debug_is_redacted_on_the_way_in() -> None:
    merged = merge_debug({"a": 1}, {"error": "key sk-abcdefghijklmnopqrstuvwxyz123456 refused"})
    assert merged["a"] == 1 and "sk-abcdefghijklmnopqrstuvwxyz123456" not in merged["error"]
    assert merge_debug(merged, None) == {}


def test_a_decision_written_as_json_is_kept_typed() -> None:
    written = typed_decision(None, {"scenario": 5, "clarifying_questions": ["Какой год?"]})
    assert isinstance(written, Decision) and written.scenario == Scenario.CLARIFY
    kept = typed_decision(written, None)
    assert kept is written


# --- conditional edges ----------------------------------------------------------------------


def test_a_refused_input_stops_the_run() -> None:
    assert stop_on_error({"error": "empty_query"}) == "reply"
    assert stop_on_error({"error": None}) == "orchestrate"


def test_scenarios_pick_their_node_and_no_documents_short_circuits() -> None:
    def route(**kwargs: Any) -> str:
        return by_scenario({"decision": Decision(**kwargs)})

    assert route(scenario=Scenario.ALL_DOCUMENTS, user_documents=0) == "no_documents"
    assert route(scenario=Scenario.ALL_DOCUMENTS, user_documents=3) == "search_all_documents"
    assert route(scenario=Scenario.ROUTED, intents=["kb"]) == "route_intent"
    assert route(scenario=Scenario.FULL_DOCUMENTS) == "load_full_documents"
    assert route(scenario=Scenario.SELECTED_SEARCH) == "search_selected_documents"
    assert route(scenario=Scenario.CLARIFY) == "clarify"
    assert by_scenario({"error": "unknown_documents"}) == "reply"


def test_intents_fan_out_once_each_in_order() -> None:
    decision = Decision(scenario=Scenario.ROUTED, intents=["rates", "kb", "rates"])
    sends = fan_out({"query": "q", "decision": decision})
    assert [(s.node, s.arg["intent"]) for s in sends] == [
        ("fetch_cbr", "rates"),
        ("search_kb", "kb"),
    ]


def test_tool_calls_loop_to_the_tools_node_until_there_is_an_answer() -> None:
    calling = AIMessage("", tool_calls=[{"name": "t", "args": {}, "id": "1"}])
    assert after_answer({"answer_messages": [calling]}) == "tools"
    assert after_answer({"answer_messages": [calling], "answer": "done"}) == "end"
    assert after_answer({"answer_messages": [AIMessage("text")]}) == "end"


# --- the graph ------------------------------------------------------------------------------


def test_the_run_context_schema_shows_user_chat_and_options_but_not_the_deps() -> None:
    schema = TypeAdapter(AgentContext).json_schema()
    assert set(schema["properties"]) == {"user_id", "chat_id", "answer_tools"}
    assert set(compile_agent_graph().get_context_jsonschema()["properties"]) == set(  # type: ignore[index]
        schema["properties"]
    )


async def test_a_whole_turn_over_in_memory_dependencies() -> None:
    deps = node_deps()
    graph = compile_agent_graph(deps.checkpointer)
    config: Any = {"configurable": {"thread_id": "t1"}}
    context = AgentContext(user_id="alice", chat_id="c1", deps=deps)
    out = await graph.ainvoke(
        {"query": "Привет! Что ты умеешь?", "chat_id": "c1"}, config, context=context
    )
    assert out["answer"] == messages.SMALLTALK and out["decision"].intents == ["smalltalk"]
    assert "classifier_unavailable" in out["debug"]  # the rules routed it
    assert "answer_messages" not in out and "history" not in out  # internal state is not output
    question, reply = out["messages"]  # the turn joins the conversation
    assert isinstance(question, HumanMessage) and question.text == "Привет! Что ты умеешь?"
    assert isinstance(reply, AIMessage) and reply.text == messages.SMALLTALK
    assert reply.response_metadata["scenario"] == 2
    assert [t.role for t in await deps.history.last("alice", "c1", 10)] == ["user", "assistant"]
    refused = await graph.ainvoke({"query": " "}, config, context=context)
    assert refused["error"] == "empty_query"


async def test_the_last_human_message_is_the_question_and_the_answer_joins_the_chat() -> None:
    deps = node_deps()
    graph = compile_agent_graph(deps.checkpointer)
    config: Any = {"configurable": {"thread_id": "t2"}}
    context = AgentContext(user_id="bob", chat_id="c2", deps=deps)
    await graph.ainvoke({"query": "Добрый день!"}, config, context=context)
    chat = {"messages": [{"role": "user", "content": "Спасибо, всего хорошего!"}]}
    second = await graph.ainvoke(chat, config, context=context)
    assert second["query"] == "Спасибо, всего хорошего!"  # not the first turn's query
    assert [m.type for m in second["messages"]] == ["human", "ai", "human", "ai"]
    saved = await deps.history.last("bob", "c2", 10)
    assert [t.content for t in saved[::2]] == ["Добрый день!", "Спасибо, всего хорошего!"]
    # after an answer, a new query is the question again; a refusal is an AI message too
    refused = await graph.ainvoke({"query": "   "}, config, context=context)
    assert refused["error"] == "empty_query"
    assert refused["messages"][-1].type == "ai"
    assert refused["messages"][-1].response_metadata == {
        "sources": [],
        "scenario": None,
        "error": "empty_query",
    }
