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

import contextlib
import json
from collections.abc import Iterable
from dataclasses import replace
from datetime import date
from typing import TYPE_CHECKING, Any

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, AnyMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig
from langgraph.config import get_config
from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph
from langgraph.runtime import Runtime

from finagent.agents_config import (
    DEFAULT_AGENT,
    AgentConfigError,
    AgentDefinition,
    agents_path,
    load_agents,
)
from finagent.clients.llm import keeps_schema_limits
from finagent.clients.structured import StructuredCallError, StructuredOutputError, invoke_json
from finagent.config import Settings
from finagent.error_report import exceeds_context
from finagent.legal.catalog import LawCatalog
from finagent.observability import LLM_OUTPUT_CHECKS, get_logger
from finagent.prompts import load_prompt, research_messages
from finagent.tools.base import Tool, ToolContext, ToolError, ToolResult
from finagent.tools.sgr import (
    FINAL_ANSWER,
    FINAL_TOOLS,
    SYSTEM_TOOLS,
    ResearchRun,
)
from finagent.tools.web import WEB_SEARCH, WEB_TOOLS

if TYPE_CHECKING:
    from langgraph.checkpoint.base import BaseCheckpointSaver
    from langgraph.store.base import BaseStore

    from finagent.bootstrap import Deps

from finagent.graph.research_budget import (
    best_report,
    budgeted,
    call_digest,
    repeated_call_error,
)
from finagent.graph.research_schema import (  # noqa: F401  (CATALOGUE, ToolNames: re-exported)
    ANONYMOUS_USER,
    CATALOGUE,
    FINAL_GRACE_STEPS,
    INVALID_STEP,
    NEXT_STEP,
    ResearchContext,
    ResearchInput,
    ResearchOutput,
    ResearchState,
    ToolNames,
    _render_tools,
    _resume_text,
    at_limit,
    available_tool_names,
    next_step_model,
    tool_call_model,
)
from finagent.graph.research_steps import (
    after_act,
    after_reason,
    after_start,
    checked_final_args,
    clarify,
    parse_step,
    start,
)
from finagent.graph.research_toolkit import RegistrySource, Toolkit

log = get_logger("finagent.research")


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
    keep_limits: bool = False,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """Compile the SGR research graph for ``agent``.

    Tools named in ``agent.tools`` come from ``registry`` (a ToolRegistry, or an async
    provider of one; names it lacks are skipped with a warning) and are called with
    ``ToolRegistry.call``; ``mcp_tools`` are added as given, or loaded lazily from
    ``agent.mcp_servers`` on the first step (unreachable servers go to ``mcp_errors``).
    """
    toolkit = Toolkit(registry, agent, mcp_tools)

    async def reason(state: ResearchState) -> dict[str, Any]:
        iteration = state.get("iteration", 0)
        if llm is None:
            return {
                "status": "failed",
                "answer": research_messages.NEEDS_LLM,
            }
        # a limit (steps or tool-output budget) leaves the final tools for a few grace steps
        since = state.get("final_since")
        if since is None and at_limit(agent, state):
            since = iteration
        if since is not None and iteration >= since + FINAL_GRACE_STEPS:
            spent = state.get("output_chars", 0) >= agent.execution.max_total_output_chars
            reason = research_messages.BUDGET_LIMIT if spent else research_messages.STEP_LIMIT
            log.warning("research_limit", iteration=iteration, budget_spent=spent)
            return {"status": "failed", "answer": best_report(dict(state), reason)}
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
        if at_limit(agent, state):
            prompt.append(HumanMessage(content=load_prompt("research_limit")))
        payload: dict[str, Any] | None = None
        error: str | None = None
        try:
            # tool calls, fenced or plain JSON are all accepted: servers differ
            reply = await invoke_json(
                llm, schema, prompt, structured_method or "json_schema", keep_limits=keep_limits
            )
            payload = reply.data
        except StructuredCallError as exc:
            cause = type(exc.__cause__ or exc).__name__
            log.warning("research_llm_failure", cause=cause, reason=str(exc), iteration=iteration)
            # a prompt past the model's window is the run's limit: retrying cannot help
            why = (
                research_messages.CONTEXT_LIMIT
                if exceeds_context(exc)
                else research_messages.LLM_UNAVAILABLE
            )
            return {
                "iteration": iteration + 1,
                "status": "failed",
                "answer": best_report(dict(state), why),
            }
        except StructuredOutputError as exc:
            log.warning("research_step_unparsed", reason=str(exc), iteration=iteration)
            error = f"the reply is not valid NextStep JSON ({exc})"
        pending, reasoning, error = parse_step(payload, names, error)
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
            "final_since": since,
        }
        if errors and iteration == 0:
            update["mcp_errors"] = errors
        return update

    async def act(state: ResearchState, runtime: Runtime[ResearchContext]) -> dict[str, Any]:
        config = get_config()
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
            pending["args"], update["references"] = await checked_final_args(
                catalog, name, pending.get("args") or {}, state
            )
        args = pending.get("args") or {}
        digests = dict(state.get("call_digests") or {})
        key = call_digest(name, args)
        if pending.get("error"):
            output = ToolResult(str(pending["error"]), tool=name, error_kind="invalid_arguments")
        elif key in digests and name not in FINAL_TOOLS:
            # the same call again: its output is in the prompt already; a loop otherwise
            log.warning("research_repeated_call", tool=name, step=digests[key])
            LLM_OUTPUT_CHECKS.labels(role="research", check="repeated_call").inc()
            output = ToolResult(repeated_call_error(digests[key]), tool=name, error_kind="error")
        else:
            output = await _call_tool(name, args, run, config, runtime)
            digests[key] = state.get("iteration", 0)
            if name == WEB_SEARCH:
                update["searches_used"] = state.get("searches_used", 0) + 1
        update["call_digests"] = digests
        limits = agent.execution
        content, used = str(output), state.get("output_chars", 0)
        if output.ok:  # errors are short and the model must read them
            content, used = budgeted(
                content, used, limits.max_step_output_chars, limits.max_total_output_chars
            )
        update["output_chars"] = used
        update["sources"] = run.sources_as_dicts()
        messages: list[AnyMessage] = [
            ToolMessage(
                content=content,
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

    async def _call_tool(
        name: str,
        args: dict[str, Any],
        run: ResearchRun,
        config: RunnableConfig,
        runtime: Runtime[ResearchContext],
    ) -> ToolResult:
        try:
            ctx: ToolContext | None = ToolContext.from_config(config)
        except ToolError:
            context = runtime.context
            user = context.user_id if isinstance(context, ResearchContext) else None
            ctx = ToolContext(user_id=user) if user else None
        run_scoped = name in SYSTEM_TOOLS or name in WEB_TOOLS or name in toolkit.external
        if ctx is None:
            if not run_scoped:
                text = "Error: no user is set for this run (configurable.user_id)"
                return ToolResult(text, tool=name, error_kind="error")
            ctx = ToolContext(user_id=ANONYMOUS_USER)
        ctx = replace(ctx, research=run)
        return await toolkit.call(name, args, ctx)

    graph = StateGraph(
        ResearchState,
        context_schema=ResearchContext,
        input_schema=ResearchInput,
        output_schema=ResearchOutput,
    )
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


def research_graph_over(
    deps: Deps,
    *,
    checkpointer: BaseCheckpointSaver[Any] | None = None,
    store: BaseStore | None = None,
    agent_name: str = DEFAULT_AGENT,
) -> CompiledStateGraph[Any, Any, Any, Any]:
    """The research graph over started dependencies (the agent from ``deps.settings``)."""
    registry = deps.research_registry
    settings = deps.settings
    return build_research_graph(
        deps.llm_for("research") if deps.llm is not None else None,
        registry,
        resolve_agent(settings, registry.names(), agent_name),
        checkpointer=checkpointer,
        store=store,
        structured_method=settings.llm_structured_method,
        catalog=deps.catalog,
        keep_limits=keeps_schema_limits(settings),
    )
