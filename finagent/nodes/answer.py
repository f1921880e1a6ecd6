"""answer <-> tools: the LLM answers from the sectioned context and may call tools."""

from __future__ import annotations

import uuid
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langgraph.runtime import Runtime

from finagent.answering import messages
from finagent.answering.abstention import Abstention, evidence_abstention, scope_abstention
from finagent.answering.evidence import candidates, rank, shared_words
from finagent.answering.extractive import compose_extractive, compose_key_facts
from finagent.bootstrap import Deps
from finagent.nodes.answer_text import (
    abstention_update,
    cited_units,
    context_of,
    fallback,
    finalise,
    is_knowledge_question,
    tool_sources,
    verified,
)
from finagent.nodes.calc import calc_answer
from finagent.nodes.common import decision_of, save_turn
from finagent.nodes.context import AgentContext, answer_tools_option, caller, deps_of, run_config
from finagent.nodes.question import turn_question
from finagent.nodes.tools import tool_rounds
from finagent.observability import get_logger, redact
from finagent.prompts import load_prompt
from finagent.state import AgentState
from finagent.text_safety import storable, utf8_safe
from finagent.tools.base import ToolContext
from finagent.tools.scopes import answer_tools

log = get_logger("finagent.answer")


def _storable_reply(reply: BaseMessage) -> AIMessage:
    """The LLM's reply as we keep it: plain text (content blocks joined), tool-call
    arguments the checkpointer can write, and an id of our own.

    Providers may repeat a completion id, and ``add_messages`` would then replace the
    earlier message instead of appending this one.
    """
    calls = getattr(reply, "tool_calls", None) or []
    return AIMessage(
        content=utf8_safe(reply.text),
        tool_calls=[
            {
                "name": utf8_safe(str(call["name"]))[:200],
                "args": storable(call["args"]),
                "id": utf8_safe(str(call.get("id") or uuid.uuid4().hex))[:200],
                "type": "tool_call",
            }
            for call in calls
        ],
        id=f"answer-{uuid.uuid4().hex}",
        usage_metadata=getattr(reply, "usage_metadata", None),
    )


async def _streamed(llm: Any, prompt: list[BaseMessage]) -> BaseMessage:
    """The LLM's reply streamed token by token (callbacks and stream_mode="messages" see
    every chunk), merged into one message; the same message ``ainvoke`` would return."""
    reply: BaseMessage | None = None
    async for chunk in llm.astream(prompt, run_config()):
        reply = chunk if reply is None else reply + chunk
    if reply is None:
        raise RuntimeError("the LLM stream ended without a message")
    return reply


async def _abstain(
    deps: Deps, state: AgentState, who: ToolContext, abstention: Abstention, best: float | None
) -> dict[str, Any]:
    update = abstention_update(abstention, best)
    await save_turn(deps.history, state, who, update["answer"])
    return update


async def answer(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    deps = deps_of(runtime)
    settings = deps.settings
    who = caller(runtime)
    decision = decision_of(state)
    ctx = context_of(deps, state)
    query = state["query"]
    only_smalltalk = decision.intents == ["smalltalk"]
    search_failed = bool(ctx.notices) and not ctx.chunks and not ctx.external
    if search_failed and not only_smalltalk:
        text = "\n".join(dict.fromkeys(ctx.notices))
        await save_turn(deps.history, state, who, text)
        return {"answer": text}
    calc = calc_answer(ctx.external) if decision.intents == ["calc"] else None
    if calc is not None:  # computed, not generated: the steps and norms as they are
        text, numbering = finalise(calc, ctx.sources, ctx.notices)
        await save_turn(deps.history, state, who, text)
        return {"answer": text, "debug": {"answer_mode": "calc", **numbering}}
    history = list(state.get("messages") or [])
    check = settings.verified_answers and not only_smalltalk
    ranked: list[Any] = []
    best: float | None = None
    if check and not history:  # once per turn, before the first LLM round
        if is_knowledge_question(decision):
            scope = await scope_abstention(query, ctx.chunks, deps.catalog)
            if scope is not None:
                return await _abstain(deps, state, who, scope, None)
        # sentence ranking embeds the passages' sentences: only where it is used, for
        # the offline answer and the evidence check of knowledge questions
        if deps.llm is None or is_knowledge_question(decision):
            ranked, best = await rank(query, candidates(ctx), deps.embedder)
        if is_knowledge_question(decision) and not ctx.external:
            weak = evidence_abstention(
                best,
                ctx.chunks,
                settings.abstain_min_similarity,
                shared_words(query, ranked),
            )
            if weak is not None:
                return await _abstain(deps, state, who, weak, best)
    as_of = (await turn_question(dict(state), deps, who.user_id)).as_of if check else None
    if deps.llm is None:
        debug: dict[str, Any] = {"answer_mode": "extractive", "best_similarity": best}
        if only_smalltalk:
            text = messages.SMALLTALK
        elif as_of is not None:  # checked answers
            body = compose_key_facts(ctx, ranked)
            text, checked = await verified(deps, body, ctx, decision, ctx.sources, as_of)
            debug.update(checked)
        else:
            body = compose_extractive(query, ctx)
            text, numbering = finalise(body, ctx.sources, ctx.notices)
            debug.update(numbering, cited_units=cited_units(ctx, body))
        await save_turn(deps.history, state, who, text)
        return {"answer": text, "debug": debug}

    # only the tools this scenario can use: each bound schema costs prompt tokens
    tools = answer_tools(deps.registry, decision, answer_tools_option(runtime, deps))
    can_call_tools = tool_rounds(history) < settings.max_tool_calls and len(tools)
    new: list[BaseMessage] = []
    if not history:
        instructions = state.get("answer_instructions") or ""
        parts = ["answer_system", *(["answer_tools"] if len(tools) else []), "answer_format"]
        system = "\n\n".join(load_prompt(name) for name in parts)
        user = load_prompt("answer_user").format(
            context=ctx.text,
            question=query,
            instructions=f"\nДополнительные указания: {instructions}" if instructions else "",
        )
        new = [SystemMessage(system), HumanMessage(user)]
    prompt = [*history, *new]
    llm: Any = deps.llm_for("answer")
    if can_call_tools:
        llm = llm.bind_tools(tools.as_langchain(), tool_choice="auto")
    try:
        reply = await _streamed(llm, prompt)
    except Exception as exc:
        log.warning("answer_llm_failed", error=type(exc).__name__)
        text, checked = await fallback(deps, query, ctx, decision, check, as_of)
        await save_turn(deps.history, state, who, text)
        return {
            "answer": text,
            "debug": {
                **checked,
                "answer_mode": "extractive_fallback",
                "llm_error": redact(str(exc))[:300],
            },
        }
    reply = _storable_reply(reply)
    if reply.tool_calls and can_call_tools:
        return {"messages": [*new, reply]}
    sources = ctx.sources + tool_sources(ctx, list(state.get("tool_results") or []))
    if not reply.text.strip():  # an empty completion: answer from the sources instead
        log.warning("answer_llm_empty")
        text, checked = await fallback(deps, query, ctx, decision, check, as_of)
        await save_turn(deps.history, state, who, text)
        return {
            "answer": text,
            "messages": [*new, reply],
            "debug": {
                **checked,
                "answer_mode": "extractive_fallback",
                "llm_error": "empty reply",
            },
        }
    if as_of is not None:
        text, checked = await verified(deps, reply.text, ctx, decision, sources, as_of)
    else:
        text, checked = finalise(reply.text, sources, ctx.notices)
    await save_turn(deps.history, state, who, text)
    return {
        "answer": text,
        "messages": [*new, reply],
        "debug": {**checked, "answer_mode": "llm"},
    }
