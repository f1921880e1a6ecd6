"""The research graph: schema-guided reasoning (SGR) over a toolkit defined in YAML.

``reason`` asks the LLM for a structured ``NextStep`` (reasoning fields plus one tool
chosen from a union of the tools still available), ``act`` runs that tool and loops
back, ``clarify`` pauses the run with ``interrupt()`` until the user answers. The run
ends when ``final_answer`` or ``create_report`` succeeds. Limits of the agent remove
tools as they are used up: after ``max_iterations`` only the final tools remain,
``clarification`` goes after ``max_clarifications`` and ``web_search`` after
``max_searches``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re
import uuid
from collections.abc import Awaitable, Callable, Iterable, Iterator
from dataclasses import replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, Literal, TypedDict, Union

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.graph import END, START, StateGraph
from langgraph.graph.message import add_messages
from langgraph.graph.state import CompiledStateGraph
from langgraph.types import interrupt
from pydantic import BaseModel, Field, ValidationError, create_model

from finagent.agents_config import (
    DEFAULT_AGENT,
    AgentConfigError,
    AgentDefinition,
    agents_path,
    load_agents,
)
from finagent.answering.reference_check import check_references, sources_from_tool_outputs
from finagent.clients.structured import StructuredCallError, StructuredOutputError, invoke_json
from finagent.clients.tavily import TavilyClient
from finagent.config import Settings
from finagent.legal.catalog import LawCatalog
from finagent.observability import get_logger
from finagent.prompts import load_prompt, research_messages
from finagent.tools.base import Tool, ToolContext, ToolError, ToolResult
from finagent.tools.declared import builtin_tool_names
from finagent.tools.registry import ToolRegistry
from finagent.tools.sgr import (
    CLARIFICATION,
    FINAL_ANSWER,
    FINAL_TOOLS,
    REASONING,
    RESEARCH_CONTEXT_KEY,
    SYSTEM_TOOLS,
    ClarificationInput,
    ReasoningInput,
    ResearchRun,
    sgr_system_tools,
)
from finagent.tools.web import WEB_SEARCH, WEB_TOOLS, web_tools

if TYPE_CHECKING:
    from finagent.services import Services

log = get_logger("finagent.research")

NEXT_STEP = "NextStep"
#: Reasoning steps allowed past ``max_iterations`` (only final tools) before a forced stop.
FINAL_GRACE_STEPS = 2
ANONYMOUS_USER = "anonymous"
#: Tool-call name recorded for a step whose tool was unknown or invalid.
INVALID_STEP = "invalid_step"

#: Every built-in tool, as declared on the tool classes; a name here that the registry lacks
#: is skipped (not configured in this deployment), any other unknown name is a
#: configuration error.
CATALOGUE = builtin_tool_names()


#: Aggregate tools follow ``Req_<Verb>_<What>_For_<Inputs>``.
REQ_TOOL = re.compile(r"^Req_[A-Za-z0-9]+(?:_[A-Za-z0-9]+)*_For_[A-Za-z0-9_]+$")


class ToolNames:
    """Names an agent may use before the registry exists: catalogue, extras and ``Req_*``."""

    def __init__(self, names: Iterable[str] = ()) -> None:
        self._names = frozenset(names) | CATALOGUE

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and (name in self._names or bool(REQ_TOOL.match(name)))

    def __iter__(self) -> Iterator[str]:
        return iter(sorted(self._names | {"Req_<Verb>_<What>_For_<Inputs>"}))

    def __len__(self) -> int:
        return len(self._names)


class ResearchState(TypedDict, total=False):
    """State of one research run (one thread)."""

    query: str
    messages: Annotated[list[AnyMessage], add_messages]
    iteration: int
    searches_used: int
    clarifications_used: int
    sources: list[dict[str, Any]]
    pending: dict[str, Any] | None
    status: Literal["running", "completed", "failed"]
    answer: str
    report: dict[str, Any] | None
    mcp_errors: list[str]
    references: dict[str, Any]  # the reference check of the final answer or report


# --- the NextStep schema -------------------------------------------------------------------


def _camel(name: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[^A-Za-z0-9]+", name) if part)


def tool_call_model(tool: Tool[Any]) -> type[BaseModel]:
    """The tool's input model tagged with ``tool_name: Literal[<name>]`` (first field)."""
    fields: dict[str, Any] = {
        "tool_name": (Literal[tool.name], Field(description="Имя инструмента")),  # type: ignore[valid-type]
    }
    for key, info in tool.input_model.model_fields.items():
        fields[key] = (info.annotation, info)
    return create_model(  # type: ignore[call-overload, no-any-return]
        f"{_camel(tool.name)}Call", __doc__=tool.description, **fields
    )


def next_step_model(tools: list[Tool[Any]]) -> type[BaseModel]:
    """``NextStep``: the reasoning fields plus ``tool``, a union tagged by ``tool_name``.

    The union is a plain ``Union`` (``anyOf`` in JSON schema, accepted by every provider's
    structured output); the ``Literal`` tags make it discriminated in practice.
    """
    if not tools:
        raise ValueError("no tools available for the next step")
    members = tuple(tool_call_model(t) for t in tools)
    union = Union[members]  # type: ignore[valid-type]  # noqa: UP007
    return create_model(  # type: ignore[call-overload, no-any-return]
        NEXT_STEP,
        __base__=ReasoningInput,
        __doc__="Следующий шаг исследования: рассуждение и один инструмент.",
        tool=(union, Field(description="Следующий инструмент и его аргументы")),
    )


# --- helpers -------------------------------------------------------------------------------


def available_tool_names(
    agent: AgentDefinition, toolset: dict[str, Tool[Any]], state: ResearchState
) -> list[str]:
    """Tools the LLM may choose now, after the agent's limits are applied."""
    names = [n for n in toolset if n != REASONING]
    if state.get("iteration", 0) >= agent.execution.max_iterations:
        return [n for n in names if n in FINAL_TOOLS]
    if state.get("clarifications_used", 0) >= agent.execution.max_clarifications:
        names = [n for n in names if n != CLARIFICATION]
    if state.get("searches_used", 0) >= agent.search.max_searches:
        names = [n for n in names if n != WEB_SEARCH]
    return names


def _render_tools(tools: list[Tool[Any]]) -> str:
    return "\n".join(f"- `{t.name}`: {t.description.splitlines()[0]}" for t in tools)


def _resume_text(value: Any) -> str:
    if isinstance(value, dict):
        value = value.get("answer", value.get("text", json.dumps(value, ensure_ascii=False)))
    return str(value).strip() or "(пустой ответ)"


# --- graph ---------------------------------------------------------------------------------


RegistrySource = ToolRegistry | Callable[[], Awaitable[ToolRegistry]]


class Toolkit:
    """The tools of one agent: registry tools named in the agent plus MCP tools.

    The registry may be given as an async provider (services start lazily in the
    running loop) and MCP tools load on first use; both are resolved once by ``ready``.
    """

    def __init__(
        self, source: RegistrySource, agent: AgentDefinition, mcp_tools: list[Tool[Any]] | None
    ) -> None:
        self.agent = agent
        self._source = source
        self.registry: ToolRegistry | None = None
        self.local: dict[str, Tool[Any]] = {}
        self.external: dict[str, Tool[Any]] = {t.name: t for t in mcp_tools or []}
        self.mcp_errors: list[str] = []
        self._mcp_loaded = mcp_tools is not None or not agent.mcp_servers
        self._lock = asyncio.Lock()
        if isinstance(source, ToolRegistry):
            self._select(source)

    def _select(self, registry: ToolRegistry) -> None:
        local: dict[str, Tool[Any]] = {}
        for name in self.agent.tools:
            tool = registry.get(name)
            if tool is None:
                log.warning("research_tool_unavailable", agent=self.agent.name, tool=name)
            else:
                local[name] = tool
        if not FINAL_TOOLS & set(local):
            raise ValueError(
                f"agent {self.agent.name!r} has no final tool registered "
                f"({', '.join(sorted(FINAL_TOOLS))})"
            )
        self.registry, self.local = registry, local

    async def ready(self) -> None:
        if self.registry is not None and self._mcp_loaded:
            return
        async with self._lock:
            if self.registry is None and not isinstance(self._source, ToolRegistry):
                self._select(await self._source())
            if not self._mcp_loaded:
                from finagent.mcp.client import load_mcp_tools

                result = await load_mcp_tools(
                    self.agent.mcp_servers, context_limit=self.agent.execution.mcp_context_limit
                )
                for tool in result.tools:
                    if tool.name in self.local:
                        log.warning("mcp_tool_name_clash", tool=tool.name)
                    else:
                        self.external[tool.name] = tool
                self.mcp_errors = list(result.errors)
                self._mcp_loaded = True

    def tools(self) -> dict[str, Tool[Any]]:
        return {**self.local, **self.external}

    async def call(self, name: str, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        if name in self.external:
            return await self.external[name].invoke(args, ctx)
        assert self.registry is not None
        return await self.registry.call(name, args, ctx)


def build_research_graph(
    llm: BaseChatModel | None,
    registry: RegistrySource,
    agent: AgentDefinition,
    *,
    checkpointer: Any = None,
    store: Any = None,
    mcp_tools: list[Tool[Any]] | None = None,
    structured_method: str | None = None,
    catalog: LawCatalog | None = None,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the SGR research graph for ``agent``.

    Tools named in ``agent.tools`` come from ``registry`` (a ToolRegistry, or an async
    provider of one; names it lacks are skipped with a warning) and are called with
    ``ToolRegistry.call``; ``mcp_tools`` are added as given, or loaded lazily from
    ``agent.mcp_servers`` on the first step (unreachable servers go to ``mcp_errors``).
    """
    toolkit = Toolkit(registry, agent, mcp_tools)

    async def start(state: ResearchState) -> dict[str, Any]:
        query = (state.get("query") or "").strip()
        messages = list(state.get("messages") or [])
        if not query:
            humans = [m for m in messages if isinstance(m, HumanMessage)]
            query = str(humans[-1].content).strip() if humans else ""
        update: dict[str, Any] = {
            "query": query,
            "iteration": 0,
            "searches_used": 0,
            "clarifications_used": 0,
            "sources": [],
            "pending": None,
            "status": "running",
            "answer": "",
            "report": None,
            "mcp_errors": [],
        }
        if not query:
            update.update(status="failed", answer=research_messages.EMPTY_QUERY)
        elif not any(isinstance(m, HumanMessage) for m in messages):
            update["messages"] = [HumanMessage(content=query)]
        return update

    async def reason(state: ResearchState) -> dict[str, Any]:
        iteration = state.get("iteration", 0)
        if llm is None:
            return {
                "status": "failed",
                "answer": research_messages.NEEDS_LLM,
            }
        if iteration >= agent.execution.max_iterations + FINAL_GRACE_STEPS:
            return {
                "status": "failed",
                "answer": research_messages.STEP_LIMIT,
            }
        await toolkit.ready()
        errors = toolkit.mcp_errors
        tools = toolkit.tools()
        names = available_tool_names(agent, tools, state)
        chosen = [tools[n] for n in names]
        schema = next_step_model(chosen)
        system = (
            load_prompt(agent.prompt)
            .replace("{current_date}", date.today().isoformat())
            .replace("{available_tools}", _render_tools(chosen))
        )
        prompt: list[AnyMessage] = [SystemMessage(content=system), *state.get("messages", [])]
        if iteration >= agent.execution.max_iterations:
            prompt.append(HumanMessage(content=load_prompt("research_limit")))
        payload: dict[str, Any] | None = None
        error: str | None = None
        try:
            # tool calls, fenced or plain JSON are all accepted: servers differ
            reply = await invoke_json(llm, schema, prompt, structured_method or "json_schema")
            payload = reply.data
        except StructuredCallError as exc:
            cause = type(exc.__cause__ or exc).__name__
            log.warning("research_llm_failure", cause=cause, reason=str(exc), iteration=iteration)
            return {
                "iteration": iteration + 1,
                "status": "failed",
                "answer": research_messages.LLM_UNAVAILABLE,
            }
        except StructuredOutputError as exc:
            log.warning("research_step_unparsed", reason=str(exc), iteration=iteration)
            error = f"the reply is not valid NextStep JSON ({exc})"
        pending: dict[str, Any] = {
            "id": f"call_{uuid.uuid4().hex[:12]}",
            "tool_name": "",
            "args": {},
        }
        reasoning: dict[str, Any] = {}
        if payload is not None:
            reasoning = {k: payload.get(k) for k in ReasoningInput.model_fields if k in payload}
            tool = payload.get("tool")
            if not isinstance(tool, dict) or not isinstance(tool.get("tool_name"), str):
                error = f"the step has no tool.tool_name; choose one of: {', '.join(names)}"
            else:
                pending["tool_name"] = tool["tool_name"]
                pending["args"] = {k: v for k, v in tool.items() if k != "tool_name"}
                if pending["tool_name"] not in names:
                    error = (
                        f"unknown or unavailable tool {pending['tool_name']!r}; "
                        f"available tools: {', '.join(names)}"
                    )
                elif pending["tool_name"] == CLARIFICATION:
                    try:
                        ClarificationInput.model_validate(pending["args"])
                    except ValidationError as exc:
                        error = f"invalid arguments for clarification: {exc.errors()[0]['msg']}"
        if error:
            pending["error"] = f"Error: {error}"
            pending["call_name"] = INVALID_STEP
        else:
            pending["call_name"] = pending["tool_name"]
        log.info(
            "research_step",
            agent=agent.name,
            iteration=iteration + 1,
            tool=pending["tool_name"] or None,
            valid=not error,
            offered=len(names),
        )
        message = AIMessage(
            content=json.dumps(reasoning, ensure_ascii=False, default=str) if reasoning else "",
            tool_calls=[
                {
                    "name": pending["call_name"],
                    "args": pending["args"],
                    "id": pending["id"],
                }
            ],
        )
        update: dict[str, Any] = {
            "iteration": iteration + 1,
            "pending": pending,
            "messages": [message],
        }
        if errors and iteration == 0:
            update["mcp_errors"] = errors
        return update

    def after_reason(state: ResearchState) -> str:
        if state.get("status") != "running":
            return END
        pending = state.get("pending") or {}
        if pending.get("tool_name") == CLARIFICATION and not pending.get("error"):
            return "clarify"
        return "act"

    async def act(state: ResearchState, config: RunnableConfig) -> dict[str, Any]:
        pending = dict(state.get("pending") or {})
        name: str = pending.get("tool_name", "")
        run = ResearchRun.from_dicts(
            state.get("sources"),
            reports_dir=agent.execution.reports_dir,
            max_results=agent.search.max_results,
            content_limit=agent.search.content_limit,
        )
        update: dict[str, Any] = {"pending": None}
        if name in FINAL_TOOLS and not pending.get("error"):
            # the answer and the report cite only what the run's tools returned
            pending["args"], update["references"] = await _checked_final_args(
                name, pending.get("args") or {}, state
            )
        if pending.get("error"):
            output = ToolResult(str(pending["error"]), tool=name, error_kind="invalid_arguments")
        else:
            output = await _call_tool(name, pending.get("args") or {}, run, config)
            if name == WEB_SEARCH:
                update["searches_used"] = state.get("searches_used", 0) + 1
        update["sources"] = run.sources_as_dicts()
        messages: list[AnyMessage] = [
            ToolMessage(
                content=output,
                tool_call_id=pending.get("id", "?"),
                name=pending.get("call_name", INVALID_STEP),
            )
        ]
        if name in FINAL_TOOLS and output.ok:
            args = pending.get("args") or {}
            if name == FINAL_ANSWER:
                update["answer"] = str(args.get("answer", ""))
                update["status"] = "failed" if args.get("status") == "failed" else "completed"
            else:
                with contextlib.suppress(ValueError):
                    update["report"] = json.loads(output)
                update["answer"] = str(args.get("content", ""))
                update["status"] = "completed"
            messages.append(AIMessage(content=update["answer"]))
        update["messages"] = messages
        return update

    async def _checked_final_args(
        name: str, args: dict[str, Any], state: ResearchState
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        field = "answer" if name == FINAL_ANSWER else "content"
        text = args.get(field)
        if not isinstance(text, str):
            return args, {}
        outputs = [
            str(m.content) for m in state.get("messages") or [] if isinstance(m, ToolMessage)
        ]
        chunks, retrieved = await sources_from_tool_outputs(outputs, catalog)
        checked, report = await check_references(text, chunks, catalog, retrieved)
        return {**args, field: checked}, report.as_debug()

    async def _call_tool(
        name: str, args: dict[str, Any], run: ResearchRun, config: RunnableConfig
    ) -> ToolResult:
        try:
            ctx: ToolContext | None = ToolContext.from_config(config)
        except ToolError:
            ctx = None
        run_scoped = name in SYSTEM_TOOLS or name in WEB_TOOLS or name in toolkit.external
        if ctx is None:
            if not run_scoped:
                text = "Error: no user is set for this run (configurable.user_id)"
                return ToolResult(text, tool=name, error_kind="error")
            ctx = ToolContext(user_id=ANONYMOUS_USER)
        ctx = replace(ctx, extra={**ctx.extra, RESEARCH_CONTEXT_KEY: run})
        return await toolkit.call(name, args, ctx)

    async def clarify(state: ResearchState) -> dict[str, Any]:
        pending = dict(state.get("pending") or {})
        args = ClarificationInput.model_validate(pending.get("args") or {})
        reply = interrupt(
            {
                "type": "clarification",
                "questions": args.questions,
                "unclear_terms": args.unclear_terms,
                "assumptions": args.assumptions,
                "reasoning": args.reasoning,
            }
        )
        answer = _resume_text(reply)
        return {
            "pending": None,
            "clarifications_used": state.get("clarifications_used", 0) + 1,
            "messages": [
                ToolMessage(
                    content=load_prompt("research_clarification").replace("{answer}", answer),
                    tool_call_id=pending.get("id", "?"),
                    name=CLARIFICATION,
                )
            ],
        }

    def after_act(state: ResearchState) -> str:
        return END if state.get("status") != "running" else "reason"

    def after_start(state: ResearchState) -> str:
        return END if state.get("status") != "running" else "reason"

    graph = StateGraph(ResearchState)
    graph.add_node("start", start)
    graph.add_node("reason", reason)
    graph.add_node("act", act)
    graph.add_node("clarify", clarify)
    graph.add_edge(START, "start")
    graph.add_conditional_edges("start", after_start, ["reason", END])
    graph.add_conditional_edges("reason", after_reason, ["act", "clarify", END])
    graph.add_conditional_edges("act", after_act, ["reason", END])
    graph.add_edge("clarify", "reason")
    return graph.compile(
        checkpointer=checkpointer, store=store, name=f"research:{agent.name or 'agent'}"
    )


# --- wiring --------------------------------------------------------------------------------


def research_registry(
    registry: ToolRegistry, tavily: TavilyClient | None, reports_dir: Path
) -> ToolRegistry:
    """``registry`` plus the SGR system tools and (with a Tavily client) the web tools."""
    candidates = [*sgr_system_tools(reports_dir), *(web_tools(tavily) if tavily else [])]
    return ToolRegistry([*registry, *(t for t in candidates if t.name not in registry)])


async def services_registry(services: Services) -> ToolRegistry:
    """The research registry over started ``services``."""
    await services.start()
    settings = services.settings
    return research_registry(services.registry, services.tavily, settings.reports_path)


def resolve_agent(
    settings: Settings, known_tools: Iterable[str] = (), name: str = DEFAULT_AGENT
) -> AgentDefinition:
    """Agent ``name`` from ``settings.agents_config``, or from the agents file shipped with
    the package when it is not set. A configured file that is missing is an error
    (``AgentConfigError``), never a silently weaker agent.

    Tool names are checked against ``known_tools`` plus finagent's catalogue of names.
    """
    path = agents_path(settings.agents_config)
    agents = load_agents(path, ToolNames(known_tools))
    if name not in agents:
        raise AgentConfigError(f"{path}: no agent named {name!r}; defined: {', '.join(agents)}")
    return agents[name]


def make_research_graph() -> CompiledStateGraph[Any, Any, Any, Any]:
    """Graph factory for ``langgraph.json``: services and the agent from the environment.

    The services (and so the tool registry) start lazily on the first run, in its loop.
    """
    from finagent.services import get_services

    services = get_services()
    settings = services.settings
    agent = resolve_agent(settings, services_extra_names(services))
    return build_research_graph(
        services.llm_for("research") if services.llm is not None else None,
        lambda: services_registry(services),
        agent,
        structured_method=settings.llm_structured_method,
        catalog=services.catalog,
    )


def services_extra_names(services: Services) -> list[str]:
    """Names of tools added through ``services.extra_tools`` (e.g. ``Req_*`` tools)."""
    return [str(getattr(tool, "name", "")) for tool in services.extra_tools]
