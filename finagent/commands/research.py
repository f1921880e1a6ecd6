"""``finagent research "QUERY"``: run the SGR research agent and print the report and answer."""

from __future__ import annotations

import json
import sys
import uuid
from collections.abc import Callable
from typing import Annotated, Any

import typer

from finagent.commands.running import fail, run_command

app = typer.Typer(help="Research a question with the SGR agent.", rich_markup_mode=None)

AskFn = Callable[[dict[str, Any]], str | None]
NO_LLM = (
    "для research нужна LLM: задайте FINAGENT_LLM_API_KEY (OpenRouter) или "
    "FINAGENT_LLM_BASE_URL и FINAGENT_LLM_MODEL (свой OpenAI-совместимый сервер); "
    'без LLM отвечает finagent ask "..."'
)


class LLMRequiredError(RuntimeError):
    """The command needs a configured LLM."""


async def run_research(
    graph: Any,
    query: str | None,
    *,
    user: str,
    ask: AskFn | None,
    thread_id: str | None = None,
    resume: str | None = None,
) -> dict[str, Any]:
    """Run ``graph`` to the end; on a clarification interrupt call ``ask`` and resume.

    With ``resume`` the run continues a stopped ``thread_id`` with that answer instead
    of starting anew. When ``ask`` is None (or returns None) the run stops and the
    result carries ``status="needs_clarification"``, the questions and the thread id to
    resume later (the checkpointer keeps the run).
    """
    from langgraph.types import Command

    thread = thread_id or uuid.uuid4().hex
    config = {"configurable": {"thread_id": thread, "user_id": user}}
    if resume is not None:
        state = await graph.aget_state(config)
        if not any(task.interrupts for task in state.tasks):
            raise LookupError("no research run waiting for an answer on this thread")
        result: dict[str, Any] = await graph.ainvoke(Command(resume=resume), config)
    else:
        result = await graph.ainvoke({"query": query}, config)
    while result.get("__interrupt__"):
        request = dict(result["__interrupt__"][0].value)
        reply = ask(request) if ask else None
        if reply is None:
            return {
                "status": "needs_clarification",
                "thread_id": thread,
                "questions": request.get("questions", []),
                "unclear_terms": request.get("unclear_terms", []),
                "assumptions": request.get("assumptions", []),
            }
        result = await graph.ainvoke(Command(resume=reply), config)
    return {**result, "thread_id": thread}


def summary(result: dict[str, Any]) -> dict[str, Any]:
    """The JSON-safe part of a run's result."""
    keys = (
        "status",
        "thread_id",
        "answer",
        "report",
        "sources",
        "questions",
        "unclear_terms",
        "assumptions",
    )
    out = {k: result[k] for k in keys if k in result and result[k] is not None}
    if "iteration" in result:
        out["iterations"] = result["iteration"]
    return out


def _ask_tty(request: dict[str, Any]) -> str | None:
    typer.echo("Нужно уточнение:")
    for i, question in enumerate(request.get("questions", []), 1):
        typer.echo(f"  {i}. {question}")
    answer: str = typer.prompt("Ваш ответ")
    return answer


async def _research(
    query: str | None,
    user: str,
    agent_name: str,
    ask: AskFn | None,
    thread_id: str | None,
    resume: str | None,
) -> dict[str, Any]:
    from finagent.bootstrap import default_root
    from finagent.graph.research import research_graph_over

    root = default_root()
    if not root.settings.llm_enabled:
        raise LLMRequiredError(NO_LLM)
    try:
        deps = await root.start()  # the checkpointer too
        if deps.llm is None:
            raise LLMRequiredError(NO_LLM)
        graph = research_graph_over(deps, checkpointer=deps.checkpointer, agent_name=agent_name)
        return await run_research(
            graph, query, user=user, ask=ask, thread_id=thread_id, resume=resume
        )
    finally:
        await root.aclose()


@app.callback(invoke_without_command=True)
def research(
    query: Annotated[
        str | None, typer.Argument(help="The research question (not needed with --answer)")
    ] = None,
    user: Annotated[str, typer.Option("--user", "-u", help="User the tools act for")] = "default",
    agent: Annotated[str, typer.Option(help="Agent name from agents.yaml")] = "research",
    thread: Annotated[
        str | None, typer.Option(help="Run id; a stopped run is resumed with --answer")
    ] = None,
    answer: Annotated[
        str | None, typer.Option(help="Answer to the clarifying questions of --thread")
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON")] = False,
) -> None:
    """Research QUERY; asks clarifying questions on a TTY, otherwise prints them with the
    command that resumes the run (the run is kept in the data dir's checkpointer)."""
    from finagent.agents_config import AgentConfigError

    if answer is not None and not thread:
        raise typer.BadParameter("--answer needs the --thread of the stopped run")
    if answer is None and not (query and query.strip()):
        raise typer.BadParameter("give the research question (or --thread ID --answer TEXT)")
    ask = None if as_json or not sys.stdin.isatty() else _ask_tty
    try:
        result = summary(run_command(_research(query, user, agent, ask, thread, answer)))
    except LLMRequiredError as exc:
        fail(str(exc))
    except AgentConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    except LookupError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2, default=str))
    elif result["status"] == "needs_clarification":
        typer.echo("Нужно уточнение:")
        for i, question in enumerate(result.get("questions", []), 1):
            typer.echo(f"  {i}. {question}")
        typer.echo(f'Ответьте: finagent research --thread {result["thread_id"]} --answer "..."')
    else:
        if result.get("report"):
            typer.echo(f"Отчёт: {result['report']['path']}\n")
        typer.echo(result.get("answer", ""))
    if result["status"] == "failed":
        raise typer.Exit(1)
