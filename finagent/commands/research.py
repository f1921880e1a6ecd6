"""``finagent research "QUERY"``: run the SGR research agent and print the report and answer."""

from __future__ import annotations

import asyncio
import json
import sys
import uuid
from collections.abc import Callable
from typing import Annotated, Any

import typer
from langgraph.types import Command

app = typer.Typer(help="Research a question with the SGR agent.")

AskFn = Callable[[dict[str, Any]], str | None]


async def run_research(
    graph: Any, query: str, *, user: str, ask: AskFn | None, thread_id: str | None = None
) -> dict[str, Any]:
    """Run ``graph`` to the end; on a clarification interrupt call ``ask`` and resume.

    When ``ask`` is None (or returns None) the run stops and the result carries
    ``status="needs_clarification"`` with the questions.
    """
    config = {"configurable": {"thread_id": thread_id or uuid.uuid4().hex, "user_id": user}}
    result: dict[str, Any] = await graph.ainvoke({"query": query}, config)
    while result.get("__interrupt__"):
        request = dict(result["__interrupt__"][0].value)
        reply = ask(request) if ask else None
        if reply is None:
            return {
                "status": "needs_clarification",
                "questions": request.get("questions", []),
                "unclear_terms": request.get("unclear_terms", []),
                "assumptions": request.get("assumptions", []),
            }
        result = await graph.ainvoke(Command(resume=reply), config)
    return result


def summary(result: dict[str, Any]) -> dict[str, Any]:
    """The JSON-safe part of a run's result."""
    keys = ("status", "answer", "report", "sources", "questions", "unclear_terms", "assumptions")
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


async def _research(query: str, user: str, agent_name: str, ask: AskFn | None) -> dict[str, Any]:
    from langgraph.checkpoint.memory import InMemorySaver

    from finagent.graph.research import build_research_graph, resolve_agent, services_registry
    from finagent.services import get_services

    services = get_services()
    if services.llm is None:
        raise typer.BadParameter("the research agent needs an LLM: set FINAGENT_LLM_API_KEY")
    registry = await services_registry(services)
    agent = resolve_agent(services.settings, registry.names(), agent_name)
    graph = build_research_graph(
        services.llm,
        registry,
        agent,
        checkpointer=InMemorySaver(),
        structured_method=services.settings.llm_structured_method,
    )
    try:
        return await run_research(graph, query, user=user, ask=ask)
    finally:
        await services.aclose()


@app.callback(invoke_without_command=True)
def research(
    query: Annotated[str, typer.Argument(help="The research question")],
    user: Annotated[str, typer.Option(help="User the tools act for")] = "cli",
    agent: Annotated[str, typer.Option(help="Agent name from agents.yaml")] = "research",
    as_json: Annotated[bool, typer.Option("--json", help="Print the result as JSON")] = False,
) -> None:
    """Research QUERY; asks clarifying questions on a TTY, prints them otherwise."""
    from finagent.agents_config import AgentConfigError

    ask = None if as_json or not sys.stdin.isatty() else _ask_tty
    try:
        result = summary(asyncio.run(_research(query, user, agent, ask)))
    except AgentConfigError as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
    if as_json:
        typer.echo(json.dumps(result, ensure_ascii=False, indent=2, default=str))
    elif result["status"] == "needs_clarification":
        typer.echo("Нужно уточнение (запустите в терминале, чтобы ответить):")
        for i, question in enumerate(result.get("questions", []), 1):
            typer.echo(f"  {i}. {question}")
    else:
        if result.get("report"):
            typer.echo(f"Отчёт: {result['report']['path']}\n")
        typer.echo(result.get("answer", ""))
    if result["status"] == "failed":
        raise typer.Exit(1)
