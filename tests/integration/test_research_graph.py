"""The SGR research graph with a scripted LLM, real tools and a loopback Tavily."""

from __future__ import annotations

import typing
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from langchain_core.messages import BaseMessage, ToolMessage
from langgraph.checkpoint.memory import InMemorySaver
from langgraph.types import Command
from pydantic import BaseModel, Field

from finagent.agents_config import AgentDefinition, ExecutionLimits, SearchLimits
from finagent.clients.tavily import TavilyClient
from finagent.config import Settings
from finagent.graph.research import build_research_graph, next_step_model
from finagent.prompts import research_messages
from finagent.tools.base import Tool, ToolContext
from finagent.tools.registry import ToolRegistry
from finagent.tools.sgr import sgr_system_tools
from finagent.tools.web import web_tools
from tests.fakes.llm import ScriptedChatModel, tool_call_message
from tests.fakes.tavily import FAKE_TAVILY_KEY, FakeTavily, run_fake_tavily

REASONING = {
    "reasoning_steps": ["Нужно найти данные", "Затем оформить ответ"],
    "current_situation": "Исследование идёт",
    "plan_status": "План выполняется",
    "enough_data": False,
    "remaining_steps": ["Следующий шаг"],
    "task_completed": False,
}


def step(tool_name: str, **args: Any) -> Any:
    """A scripted NextStep reply choosing ``tool_name``."""
    return tool_call_message("NextStep", {**REASONING, "tool": {"tool_name": tool_name, **args}})


class RecordingModel(ScriptedChatModel):
    """ScriptedChatModel that keeps the schema bound at every structured-output call."""

    schemas: list[Any] = []  # a pydantic field, copied per instance

    def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
        self.schemas = [*self.schemas, tools[0]]
        return super().bind_tools(tools, **kwargs)


def offered(schema: Any) -> list[str]:
    """Tool names of the NextStep union the model was offered."""
    union = schema.model_fields["tool"].annotation
    members = typing.get_args(union) or (union,)
    return sorted(typing.get_args(m.model_fields["tool_name"].annotation)[0] for m in members)


class RateInput(BaseModel):
    currency: str = Field(description="ISO code, e.g. USD")


class LookupRateTool(Tool[RateInput]):
    """Look up a currency rate (test domain tool); echoes who called it."""

    name = "lookup_rate"
    input_model = RateInput

    async def run(self, args: RateInput, ctx: ToolContext) -> str:
        return f"{args.currency}=90.1 (user {ctx.user_id})"


@pytest.fixture(scope="module")
def tavily() -> Iterator[FakeTavily]:
    with run_fake_tavily() as fake:
        yield fake


@pytest.fixture
def registry(tavily: FakeTavily, tmp_path: Path) -> ToolRegistry:
    tavily.reset()
    settings = Settings(tavily_base_url=tavily.url, tavily_api_key=FAKE_TAVILY_KEY)
    client = TavilyClient(settings)
    return ToolRegistry(
        [*sgr_system_tools(tmp_path / "default-reports"), *web_tools(client), LookupRateTool()]
    )


def agent(tmp_path: Path, **limits: Any) -> AgentDefinition:
    execution = {k: v for k, v in limits.items() if k in ExecutionLimits.model_fields}
    search = {k: v for k, v in limits.items() if k in SearchLimits.model_fields}
    return AgentDefinition(
        name="test",
        tools=[
            "generate_plan",
            "adapt_plan",
            "clarification",
            "web_search",
            "extract_page_content",
            "lookup_rate",
            "final_answer",
            "create_report",
        ],
        execution=ExecutionLimits(reports_dir=tmp_path / "reports", **execution),
        search=SearchLimits(**search),
    )


def config(thread: str = "t1", user: str | None = "alice") -> dict[str, Any]:
    configurable: dict[str, Any] = {"thread_id": thread}
    if user:
        configurable["user_id"] = user
    return {"configurable": configurable}


def tool_outputs(messages: list[BaseMessage]) -> list[str]:
    return [str(m.content) for m in messages if isinstance(m, ToolMessage)]


PLAN = {
    "reasoning": "Нужен план",
    "research_goal": "Узнать ключевую ставку",
    "planned_steps": ["Поиск", "Чтение", "Отчёт"],
    "search_strategies": ["Новости ЦБ", "Пресс-релизы"],
}


async def test_full_run_writes_report_with_numbered_sources(
    registry: ToolRegistry, tavily: FakeTavily, tmp_path: Path
) -> None:
    llm = RecordingModel(
        [
            step("generate_plan", **PLAN),
            step("web_search", reasoning="Свежие данные", query="ключевая ставка ЦБ"),
            step(
                "extract_page_content",
                reasoning="Полный текст",
                urls=["https://www.cbr.ru/press/pr/?file=14022025_133000Key.htm"],
            ),
            step("lookup_rate", currency="USD"),
            step(
                "create_report",
                title="Ключевая ставка: февраль 2025",
                user_request_language_reference="Какая ключевая ставка?",
                content="Банк России сохранил ставку 21% [1]. Минфин готовит поправки [2].",
                confidence="high",
            ),
        ]
    )
    graph = build_research_graph(llm, registry, agent(tmp_path, max_results=2))
    result = await graph.ainvoke({"query": "Какая ключевая ставка?"}, config())

    assert result["status"] == "completed"
    report = result["report"]
    path = Path(report["path"])
    assert path.parent == tmp_path / "reports" and path.name.endswith("_2025.md")
    assert report["sources"] == 2 and report["title"] == "Ключевая ставка: февраль 2025"
    text = path.read_text(encoding="utf-8")  # noqa: ASYNC240
    assert report["chars"] == len(text)
    assert "Банк России сохранил ставку 21% [1]" in text
    sources = text.split("## Sources", 1)[1]
    assert "[1] [Банк России сохранил ключевую ставку на уровне 21%]" in sources
    assert "[2] [Минфин предложил" in sources
    outputs = tool_outputs(result["messages"])
    assert "[1] Банк России" in outputs[1] and "[3]" not in outputs[1]  # max_results=2
    assert outputs[2].startswith("## [1] https://www.cbr.ru/")  # extract reuses number [1]
    assert outputs[3] == "USD=90.1 (user alice)"  # identity from the run config
    assert tavily.requests["search"] == 1 and tavily.bodies[0]["max_results"] == 2
    assert llm.calls == 5
    # the web_search result reached the LLM before it chose to extract
    assert "[1] Банк России" in str(llm.received[2][-1].content)


async def test_clarification_interrupts_and_resumes(registry: ToolRegistry, tmp_path: Path) -> None:
    llm = RecordingModel(
        [
            step(
                "clarification",
                reasoning="Неясно, о каком налоге речь",
                unclear_terms=["налог"],
                assumptions=["НДФЛ физлица", "налог на прибыль организации"],
                questions=["Вы физлицо или организация?"],
            ),
            step(
                "final_answer",
                reasoning="Ответ известен",
                completed_steps=["Уточнил запрос"],
                answer="Для физлица ставка НДФЛ 13%.",
                status="completed",
            ),
        ]
    )
    graph = build_research_graph(
        llm, registry, agent(tmp_path, max_clarifications=1), checkpointer=InMemorySaver()
    )
    cfg = config("clarify-1")
    paused = await graph.ainvoke({"query": "Какая ставка налога?"}, cfg)

    interrupts = paused["__interrupt__"]
    assert interrupts[0].value["questions"] == ["Вы физлицо или организация?"]
    assert interrupts[0].value["type"] == "clarification"
    state = await graph.aget_state(cfg)
    assert state.next == ("clarify",)
    assert llm.calls == 1

    result = await graph.ainvoke(Command(resume="Я физлицо"), cfg)
    assert result["status"] == "completed"
    assert result["answer"] == "Для физлица ставка НДФЛ 13%."
    assert result["clarifications_used"] == 1
    assert "Я физлицо" in str(llm.received[1][-1].content)
    assert "clarification" in offered(llm.schemas[0])
    assert "clarification" not in offered(llm.schemas[1])  # max_clarifications=1 used up


async def test_limits_shrink_the_offered_union(registry: ToolRegistry, tmp_path: Path) -> None:
    llm = RecordingModel(
        [
            step("web_search", reasoning="Поиск", query="НДФЛ по вкладам"),
            step("generate_plan", **PLAN),
            step(
                "final_answer",
                reasoning="Лимит",
                completed_steps=["Поиск"],
                answer="Проценты по вкладам облагаются НДФЛ [1].",
                status="completed",
            ),
        ]
    )
    graph = build_research_graph(llm, registry, agent(tmp_path, max_iterations=2, max_searches=1))
    result = await graph.ainvoke({"query": "НДФЛ по вкладам"}, config())

    assert result["status"] == "completed" and result["searches_used"] == 1
    first, second, third = (offered(s) for s in llm.schemas)
    assert "web_search" in first and "generate_plan" in first
    assert "web_search" not in second and "generate_plan" in second
    assert third == ["create_report", "final_answer"]
    assert len(first) == 8 and len(second) == 7  # every named tool, then minus web_search


async def test_unknown_tool_and_invalid_args_are_errors_and_the_loop_continues(
    registry: ToolRegistry, tmp_path: Path
) -> None:
    llm = RecordingModel(
        [
            step("delete_everything", path="/"),
            step("generate_plan", reasoning="План", research_goal="Цель", planned_steps=["один"]),
            step("lookup_rate"),
            step(
                "final_answer",
                reasoning="Готово",
                completed_steps=["Исправил ошибки"],
                answer="Ответ",
                status="completed",
            ),
        ]
    )
    graph = build_research_graph(llm, registry, agent(tmp_path))
    result = await graph.ainvoke({"query": "Вопрос"}, config())

    assert result["status"] == "completed"
    unknown, invalid_plan, invalid_rate = tool_outputs(result["messages"])[:3]
    assert unknown.startswith("Error: unknown or unavailable tool 'delete_everything'")
    assert "generate_plan" in unknown  # tells the LLM what it can use
    assert invalid_plan.startswith("Error: invalid arguments") and "planned_steps" in invalid_plan
    assert invalid_rate.startswith("Error: invalid arguments") and "currency" in invalid_rate
    # each error reached the LLM on the next step
    assert str(llm.received[1][-1].content) == unknown
    assert str(llm.received[3][-1].content) == invalid_rate


async def test_domain_tool_without_user_is_an_error(registry: ToolRegistry, tmp_path: Path) -> None:
    llm = RecordingModel(
        [
            step("lookup_rate", currency="EUR"),
            step(
                "final_answer",
                reasoning="Нет пользователя",
                completed_steps=["Попытка"],
                answer="Не удалось",
                status="failed",
            ),
        ]
    )
    graph = build_research_graph(llm, registry, agent(tmp_path))
    result = await graph.ainvoke({"query": "Курс евро"}, config(user=None))

    assert tool_outputs(result["messages"])[0].startswith("Error: no user is set")
    assert result["status"] == "failed" and result["answer"] == "Не удалось"


async def test_stubborn_llm_is_stopped_after_the_grace_steps(
    registry: ToolRegistry, tmp_path: Path
) -> None:
    llm = RecordingModel([step("web_search", reasoning="r", query="q1")] * 3)
    graph = build_research_graph(llm, registry, agent(tmp_path, max_iterations=1))
    result = await graph.ainvoke({"query": "Вопрос"}, config())

    # stopped, never silently: why, then the best it has (the sources the search found)
    assert result["status"] == "failed"
    assert result["answer"].startswith(research_messages.STEP_LIMIT)
    assert research_messages.SOURCES_FOUND in result["answer"]
    assert llm.calls == 3  # 1 normal step + 2 final-only steps, then a forced stop
    outputs = tool_outputs(result["messages"])
    assert outputs[1].startswith("Error: unknown or unavailable tool 'web_search'")


async def test_llm_failure_ends_the_run_with_a_clear_error(
    registry: ToolRegistry, tmp_path: Path
) -> None:
    llm = RecordingModel([ConnectionError("boom")])
    graph = build_research_graph(llm, registry, agent(tmp_path))
    result = await graph.ainvoke({"query": "Вопрос"}, config())
    assert result["status"] == "failed"
    assert result["answer"] == research_messages.LLM_UNAVAILABLE  # Russian, no upstream text


async def test_search_failure_is_reported_to_the_llm(
    registry: ToolRegistry, tavily: FakeTavily, tmp_path: Path
) -> None:
    tavily.error_status = 401
    llm = RecordingModel(
        [
            step("web_search", reasoning="r", query="ставка"),
            step(
                "final_answer",
                reasoning="Поиск недоступен",
                completed_steps=["Попытка поиска"],
                answer="Поиск недоступен",
                status="failed",
            ),
        ]
    )
    graph = build_research_graph(llm, registry, agent(tmp_path))
    result = await graph.ainvoke({"query": "ставка"}, config())
    output = tool_outputs(result["messages"])[0]
    assert output.startswith("Error: web search failed")
    assert FAKE_TAVILY_KEY not in output


def test_next_step_schema_is_a_tagged_union(registry: ToolRegistry) -> None:
    tools = [registry.get("web_search"), registry.get("final_answer")]
    schema = next_step_model([t for t in tools if t is not None]).model_json_schema()
    assert set(schema["required"]) >= {"reasoning_steps", "tool", "task_completed"}
    members = schema["properties"]["tool"]["anyOf"]
    tags = sorted(
        schema["$defs"][m["$ref"].split("/")[-1]]["properties"]["tool_name"]["const"]
        for m in members
    )
    assert tags == ["final_answer", "web_search"]


async def test_cli_runner_asks_and_resumes_or_returns_the_questions(
    registry: ToolRegistry, tmp_path: Path
) -> None:
    from finagent.commands.research import run_research, summary

    clarify = step(
        "clarification",
        reasoning="Неясен период",
        unclear_terms=["период"],
        assumptions=["2024 год", "2025 год"],
        questions=["За какой год?"],
    )
    final = step(
        "final_answer",
        reasoning="Ясно",
        completed_steps=["Уточнил год"],
        answer="За 2025 год ставка 21%.",
        status="completed",
    )

    async def provider() -> ToolRegistry:
        return registry

    def graph_for(llm: ScriptedChatModel) -> Any:
        return build_research_graph(llm, provider, agent(tmp_path), checkpointer=InMemorySaver())

    asked: list[dict[str, Any]] = []

    def ask(request: dict[str, Any]) -> str:
        asked.append(request)
        return "2025"

    llm = RecordingModel([clarify, final])
    result = summary(await run_research(graph_for(llm), "Ставка?", user="u", ask=ask))
    assert asked[0]["questions"] == ["За какой год?"]
    assert result["status"] == "completed" and result["answer"] == "За 2025 год ставка 21%."
    assert "2025" in str(llm.received[1][-1].content)

    llm = RecordingModel([clarify, final])
    graph = graph_for(llm)  # one checkpointer for both calls, as the CLI's SQLite one
    result = summary(await run_research(graph, "Ставка?", user="u", ask=None))
    thread_id = result.pop("thread_id")
    assert result == {
        "status": "needs_clarification",
        "questions": ["За какой год?"],
        "unclear_terms": ["период"],
        "assumptions": ["2024 год", "2025 год"],
    }
    resumed = summary(
        await run_research(graph, None, user="u", ask=None, thread_id=thread_id, resume="2025")
    )
    assert resumed["status"] == "completed" and resumed["thread_id"] == thread_id
    assert "2025" in str(llm.received[1][-1].content)
    with pytest.raises(LookupError, match="no research run waiting"):
        await run_research(graph, None, user="u", ask=None, thread_id=thread_id, resume="x")


async def test_extract_reports_failed_pages(registry: ToolRegistry, tmp_path: Path) -> None:
    llm = RecordingModel(
        [
            step("extract_page_content", reasoning="r", urls=["https://broken.example/a"]),
            step(
                "extract_page_content",
                reasoning="r",
                urls=["https://ok.example/a", "https://broken.example/b"],
            ),
            step(
                "final_answer",
                reasoning="r",
                completed_steps=["Чтение"],
                answer="Ставка 21% [1].",
                status="completed",
            ),
        ]
    )
    graph = build_research_graph(llm, registry, agent(tmp_path, content_limit=200))
    result = await graph.ainvoke({"query": "Ставка"}, config())
    failed, mixed = tool_outputs(result["messages"])[:2]
    assert failed.startswith("Error: no page could be extracted") and "broken.example/a" in failed
    assert mixed.startswith("## [1] https://ok.example/a") and "Ключевая ставка 21%" in mixed
    assert "## https://broken.example/b\n\nError: Failed to fetch url" in mixed
    assert result["sources"] == [{"number": 1, "url": "https://ok.example/a", "title": ""}]


async def test_a_reply_cut_at_max_tokens_is_reported_to_the_llm_not_an_outage(
    registry: ToolRegistry, tmp_path: Path
) -> None:
    """A small model's step that runs into max_tokens is a bad reply: the model is told
    and the run goes on (seen on llama.cpp with a 135M model)."""
    from openai import LengthFinishReasonError
    from openai.types.chat import ChatCompletion

    cut = LengthFinishReasonError(completion=ChatCompletion.model_construct(usage=None))
    final = step(
        "final_answer",
        reasoning="Ответ известен",
        completed_steps=["Ответил"],
        answer="Основная ставка НДС 20 %.",
        status="completed",
    )
    llm = RecordingModel([cut, final])
    graph = build_research_graph(llm, registry, agent(tmp_path))
    result = await graph.ainvoke({"query": "Вопрос"}, config())
    assert result["status"] == "completed", result.get("answer")
    assert "cut at max_tokens" in str(llm.received[1])


FINAL = step(
    "final_answer",
    reasoning="Ответ известен",
    completed_steps=["Ответил"],
    answer="Курс доллара 90,1.",
    status="completed",
)


async def test_a_repeated_identical_call_is_refused_and_the_model_told(
    registry: ToolRegistry, tmp_path: Path
) -> None:
    again = step("lookup_rate", currency="USD")
    llm = RecordingModel([step("lookup_rate", currency="USD"), again, FINAL])
    graph = build_research_graph(llm, registry, agent(tmp_path))
    result = await graph.ainvoke({"query": "Курс доллара"}, config())
    first, second, _final = tool_outputs(result["messages"])
    assert first.startswith("USD=90.1")
    assert second.startswith("Error: this exact call (same tool, same arguments)")
    assert "step 1" in second and result["status"] == "completed"


async def test_the_tool_output_budget_leaves_only_the_final_tools(
    registry: ToolRegistry, tmp_path: Path
) -> None:
    search = step("web_search", reasoning="r", query="ставка НДС")
    llm = RecordingModel([search, *[step("web_search", query="x")] * 3])
    limits = {"max_step_output_chars": 300, "max_total_output_chars": 300}
    graph = build_research_graph(llm, registry, agent(tmp_path, **limits))
    result = await graph.ainvoke({"query": "Ставка НДС"}, config())
    first = tool_outputs(result["messages"])[0]
    assert len(first) <= 300 + len(research_messages.OUTPUT_CUT)
    assert first.endswith(research_messages.OUTPUT_CUT)
    assert offered(llm.schemas[1]) == ["create_report", "final_answer"]
    assert result["answer"].startswith(research_messages.BUDGET_LIMIT)


async def test_a_tool_call_written_as_text_runs(registry: ToolRegistry, tmp_path: Path) -> None:
    from langchain_core.messages import AIMessage

    text = '<tool_call>\n{"name": "lookup_rate", "arguments": {"currency": "EUR"}}\n</tool_call>'
    llm = RecordingModel([AIMessage(text), FINAL])
    graph = build_research_graph(llm, registry, agent(tmp_path))
    result = await graph.ainvoke({"query": "Курс евро"}, config())
    assert tool_outputs(result["messages"])[0].startswith("EUR=90.1")
    assert result["status"] == "completed"
