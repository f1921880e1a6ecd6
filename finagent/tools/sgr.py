"""Schema-guided reasoning (SGR) system tools of the research graph.

The research graph asks the LLM, at every step, for a ``NextStep``: the fields of
:class:`ReasoningInput` plus the next tool to call. The tools here are the "system"
part of that toolkit (planning, clarification, the final answer and the report); web
search and page extraction live in :mod:`finagent.tools.web`.

Per-run state (numbered sources, the reports directory and search limits of the agent)
is a :class:`ResearchRun` (finagent/tools/research_run.py) that the graph passes in
``ToolContext.research``; the graph keeps it in its checkpointed state, so it is per thread,
never global.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, Field

from finagent.tools.base import Tool, ToolContext, ToolError, to_json
from finagent.tools.research_run import (  # noqa: F401  (ResearchRun: re-exported)
    ResearchRun,
    SourceRef,
    research_run,
)

REASONING = "reasoning"
GENERATE_PLAN = "generate_plan"
ADAPT_PLAN = "adapt_plan"
CLARIFICATION = "clarification"
FINAL_ANSWER = "final_answer"
CREATE_REPORT = "create_report"

FINAL_TOOLS = frozenset({FINAL_ANSWER, CREATE_REPORT})
SYSTEM_TOOLS = frozenset(
    {REASONING, GENERATE_PLAN, ADAPT_PLAN, CLARIFICATION, FINAL_ANSWER, CREATE_REPORT}
)


# --- input models ------------------------------------------------------------------------


class ReasoningInput(BaseModel):
    """The reasoning part of every research step."""

    reasoning_steps: list[Annotated[str, Field(max_length=300)]] = Field(
        description="Пошаговое рассуждение: 2-3 коротких пункта, по одному предложению",
        min_length=2,
        max_length=3,
    )
    current_situation: str = Field(
        description="Текущая ситуация исследования: 2-3 предложения", max_length=300
    )
    plan_status: str = Field(description="Состояние плана: одно предложение", max_length=150)
    enough_data: bool = Field(
        default=False, description="Достаточно ли собрано данных для ответа или отчёта"
    )
    remaining_steps: list[Annotated[str, Field(max_length=200)]] = Field(
        description="1-3 оставшихся шага, кратко и по делу", min_length=1, max_length=3
    )
    task_completed: bool = Field(description="Завершена ли задача исследования")


class GeneratePlanInput(BaseModel):
    reasoning: str = Field(description="Почему выбран такой подход к исследованию")
    research_goal: str = Field(description="Главная цель исследования")
    planned_steps: list[str] = Field(
        description="3-4 запланированных шага", min_length=3, max_length=4
    )
    search_strategies: list[str] = Field(
        description="2-3 стратегии поиска информации", min_length=2, max_length=3
    )


class AdaptPlanInput(BaseModel):
    reasoning: str = Field(description="Почему план нужно изменить с учётом новых данных")
    original_goal: str = Field(description="Исходная цель исследования")
    new_goal: str = Field(description="Уточнённая цель исследования")
    plan_changes: list[str] = Field(description="1-3 изменения плана", min_length=1, max_length=3)
    next_steps: list[str] = Field(description="2-4 следующих шага", min_length=2, max_length=4)


class ClarificationInput(BaseModel):
    reasoning: str = Field(description="Почему нужно уточнение: 1-2 предложения", max_length=300)
    unclear_terms: list[str] = Field(
        description="1-3 неясных термина (1-3 слова каждый)", min_length=1, max_length=3
    )
    assumptions: list[str] = Field(
        description="2-3 возможных толкования запроса, по одному предложению",
        min_length=2,
        max_length=3,
    )
    questions: list[str] = Field(
        description="1-3 конкретных уточняющих вопроса пользователю", min_length=1, max_length=3
    )


class FinalAnswerInput(BaseModel):
    reasoning: str = Field(description="Почему задача завершена и как проверен ответ")
    completed_steps: list[str] = Field(
        description="1-5 выполненных шагов, включая проверку", min_length=1, max_length=5
    )
    answer: str = Field(
        description="Итоговый ответ на русском с точными фактами (даты, суммы, ставки) "
        "и ссылками на источники [1], [2]",
        min_length=1,
    )
    status: Literal["completed", "failed"] = Field(
        description="completed - задача решена; failed - решить не удалось"
    )


class CreateReportInput(BaseModel):
    title: str = Field(description="Заголовок отчёта", min_length=1, max_length=200)
    user_request_language_reference: str = Field(
        description="Копия исходного запроса пользователя: отчёт пишется на его языке"
    )
    content: str = Field(
        description="Полный текст отчёта в Markdown. Каждое фактическое утверждение "
        "сопровождается ссылкой [1], [2] на номер источника из результатов web_search; "
        "список источников добавляется автоматически",
        min_length=1,
    )
    confidence: Literal["high", "medium", "low"] = Field(
        description="Уверенность в выводах: high, medium или low"
    )


# --- tools -------------------------------------------------------------------------------


class ReasoningTool(Tool[ReasoningInput]):
    """Зафиксировать рассуждение: текущую ситуацию, статус плана и оставшиеся шаги.

    Используй перед каждым действием, чтобы оценить, хватает ли данных для ответа.
    """

    name = REASONING
    input_model = ReasoningInput

    async def run(self, args: ReasoningInput, ctx: ToolContext) -> str:
        return to_json(
            {
                "remaining_steps": args.remaining_steps,
                "enough_data": args.enough_data,
                "task_completed": args.task_completed,
            }
        )


class GeneratePlanTool(Tool[GeneratePlanInput]):
    """Составить план исследования: цель, 3-4 шага и стратегии поиска.

    Используй в начале работы над сложным запросом, чтобы разбить его на шаги.
    """

    name = GENERATE_PLAN
    input_model = GeneratePlanInput

    async def run(self, args: GeneratePlanInput, ctx: ToolContext) -> str:
        return to_json(
            {
                "research_goal": args.research_goal,
                "planned_steps": args.planned_steps,
                "search_strategies": args.search_strategies,
            }
        )


class AdaptPlanTool(Tool[AdaptPlanInput]):
    """Изменить план исследования с учётом найденных данных.

    Используй, когда найденное меняет цель или порядок шагов.
    """

    name = ADAPT_PLAN
    input_model = AdaptPlanInput

    async def run(self, args: AdaptPlanInput, ctx: ToolContext) -> str:
        return to_json(
            {
                "original_goal": args.original_goal,
                "new_goal": args.new_goal,
                "plan_changes": args.plan_changes,
                "next_steps": args.next_steps,
            }
        )


class ClarificationTool(Tool[ClarificationInput]):
    """Задать пользователю уточняющие вопросы, если запрос неоднозначен.

    Используй только когда без ответа пользователя нельзя продолжить; работа
    приостанавливается до его ответа. Вопросы короткие и конкретные.
    """

    name = CLARIFICATION
    input_model = ClarificationInput

    async def run(self, args: ClarificationInput, ctx: ToolContext) -> str:
        return "\n".join(f"{i}. {q}" for i, q in enumerate(args.questions, 1))


class FinalAnswerTool(Tool[FinalAnswerInput]):
    """Завершить задачу и дать итоговый ответ пользователю.

    Используй, когда все шаги выполнены и ответ проверен, или когда решить задачу
    невозможно (status=failed, в answer объясни почему).
    """

    name = FINAL_ANSWER
    input_model = FinalAnswerInput

    async def run(self, args: FinalAnswerInput, ctx: ToolContext) -> str:
        return to_json({"status": args.status, "answer": args.answer})


class CreateReportTool(Tool[CreateReportInput]):
    """Создать подробный отчёт с цитатами как последний шаг исследования.

    ВАЖНО: каждое фактическое утверждение в content сопровождается ссылкой [1], [2]
    на номер источника из результатов web_search, прямо в тексте предложения.
    Используй, только когда собрано достаточно информации. Раздел «Sources»
    со списком источников добавляется автоматически.
    """

    name = CREATE_REPORT
    input_model = CreateReportInput

    def __init__(self, reports_dir: Path | str) -> None:
        self._reports_dir = Path(reports_dir)

    async def run(self, args: CreateReportInput, ctx: ToolContext) -> str:
        run = research_run(ctx)
        directory = run.reports_dir or self._reports_dir
        created = datetime.now(UTC)
        text = render_report(args, run.sources, created)
        path = directory / f"{created.strftime('%Y%m%d_%H%M%S')}_{safe_title(args.title)}.md"
        try:
            directory.mkdir(parents=True, exist_ok=True)
            path = _unique(path)
            path.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise ToolError(
                f"could not write the report ({type(exc).__name__}); check reports_dir"
            ) from exc
        return to_json(
            {
                "path": str(path),
                "title": args.title,
                "chars": len(text),
                "sources": len(run.sources),
                "confidence": args.confidence,
            }
        )


def safe_title(title: str, limit: int = 60) -> str:
    """A file-name-safe form of ``title`` (letters of any script, digits, ``_`` and ``-``)."""
    cleaned = re.sub(r"[^\w\-]+", "_", title, flags=re.UNICODE).strip("_")
    return cleaned[:limit].rstrip("_") or "report"


def render_report(args: CreateReportInput, sources: list[SourceRef], created: datetime) -> str:
    """The Markdown file: title, metadata line, content and the ``## Sources`` list."""
    lines = [
        f"# {args.title.strip()}",
        "",
        f"*Created: {created.strftime('%Y-%m-%d %H:%M:%S UTC')} | confidence: {args.confidence}*",
        "",
        args.content.strip(),
        "",
        "## Sources",
        "",
    ]
    if sources:
        lines += [f"[{s.number}] [{s.title or s.url}]({s.url})" for s in sources]
    else:
        lines.append("(no web sources were used)")
    return "\n".join(lines) + "\n"


def _unique(path: Path) -> Path:
    candidate, n = path, 1
    while candidate.exists():
        n += 1
        candidate = path.with_name(f"{path.stem}_{n}{path.suffix}")
    return candidate


def sgr_system_tools(reports_dir: Path | str) -> list[Tool[Any]]:
    """Every SGR system tool, ready to register."""
    return [
        ReasoningTool(),
        GeneratePlanTool(),
        AdaptPlanTool(),
        ClarificationTool(),
        FinalAnswerTool(),
        CreateReportTool(reports_dir),
    ]
