"""answer <-> tools: the LLM answers from the sectioned context and may call tools."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Sequence
from typing import Any

from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage, ToolMessage
from langchain_core.runnables import RunnableConfig

from finagent.answering import messages
from finagent.answering.abstention import (
    Abstention,
    evidence_abstention,
    render_abstention,
    scope_abstention,
)
from finagent.answering.context import (
    AnswerContext,
    build_context,
    cited_numbers,
    drop_unknown_citations,
    render_sources,
    strip_sources_section,
)
from finagent.answering.edition import edition_notes, period_warning
from finagent.answering.evidence import candidates, rank, shared_words
from finagent.answering.extractive import compose_extractive, compose_key_facts
from finagent.answering.reference_check import check_references
from finagent.bootstrap import Deps
from finagent.nodes.calc import calc_answer
from finagent.nodes.common import decision_of, run_context
from finagent.nodes.common import save_turn as common_save_turn
from finagent.observability import get_logger, redact
from finagent.prompts import load_prompt
from finagent.state import AgentState, Decision, ExternalData, Scenario, Source
from finagent.text_safety import storable, utf8_safe
from finagent.tools.scopes import answer_tools

log = get_logger("finagent.answer")


def _context(services: Deps, state: AgentState) -> AnswerContext:
    ctx = build_context(
        list(state.get("chunks") or []),
        list(state.get("external") or []),
        services.settings.max_context_chars,
    )
    ctx.notices = [*list(state.get("notices") or []), *ctx.notices]
    return ctx


def _tool_sources(ctx: AnswerContext, tool_results: list[ExternalData]) -> list[Source]:
    start = len(ctx.sources) + 1
    return [
        Source(number=start + i, title=r.source_note, kind="web", reference=r.tool)
        for i, r in enumerate(tool_results)
    ]


def _tool_rounds(history: Sequence[BaseMessage]) -> int:
    return sum(1 for m in history if isinstance(m, AIMessage) and m.tool_calls)


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


async def _streamed(llm: Any, prompt: list[BaseMessage], config: RunnableConfig) -> BaseMessage:
    """The LLM's reply streamed token by token (callbacks and stream_mode="messages" see
    every chunk), merged into one message; the same message ``ainvoke`` would return."""
    reply: BaseMessage | None = None
    async for chunk in llm.astream(prompt, config):
        reply = chunk if reply is None else reply + chunk
    if reply is None:
        raise RuntimeError("the LLM stream ended without a message")
    return reply


_DOCUMENT_SCENARIOS = {Scenario.ALL_DOCUMENTS, Scenario.FULL_DOCUMENTS, Scenario.SELECTED_SEARCH}


def _finalise(body: str, sources: list[Source], notices: list[str]) -> str:
    body = redact(body)  # the LLM may repeat a secret it saw in a question or a tool result
    body = drop_unknown_citations(strip_sources_section(body), sources)
    head = "\n".join(f"> {n}" for n in dict.fromkeys(notices))
    text = f"{head}\n\n{body}" if head else body
    return text.strip() + "\n\n" + render_sources(sources, body)


def _allowed_sources(decision: Decision, sources: list[Source]) -> list[Source]:
    """In the document scenarios an answer may cite only the user's own documents."""
    if decision.scenario in _DOCUMENT_SCENARIOS:
        return [s for s in sources if s.kind == "user_docs"]
    return sources


def _cited_units(ctx: AnswerContext, body: str) -> list[str]:
    """Unit ids of the law passages whose source numbers the answer cites."""
    cited = set(cited_numbers(body))
    units = [
        str(c.metadata["unit_id"])
        for c, n in zip(ctx.chunks, ctx.chunk_numbers, strict=True)
        if n in cited and c.metadata.get("unit_id")
    ]
    return list(dict.fromkeys(units))


def _is_knowledge_question(decision: Decision) -> bool:
    return decision.scenario == Scenario.ROUTED and "kb" in decision.intents


def make_answer(services: Deps):  # type: ignore[no-untyped-def]
    settings = services.settings

    async def fallback(
        query: str, ctx: AnswerContext, decision: Decision, check: bool
    ) -> tuple[str, dict[str, Any]]:
        """The extractive answer when the LLM fails, with the same checks."""
        if not check:
            body = compose_extractive(query, ctx, messages.LLM_UNAVAILABLE_NOTE)
            return _finalise(body, ctx.sources, ctx.notices), {}
        ranked, _ = await rank(query, candidates(ctx), services.embedder)
        body = compose_key_facts(
            ctx, ranked, period_warning(query, ctx.chunks), messages.LLM_UNAVAILABLE_NOTE
        )
        return await verified(body, ctx, decision, ctx.sources)

    async def save_turn(state: AgentState, config: RunnableConfig, answer: str) -> None:
        await common_save_turn(services.history, state, config, answer)

    async def verified(
        body: str, ctx: AnswerContext, decision: Decision, sources: list[Source]
    ) -> tuple[str, dict[str, Any]]:
        """The final text with only supported references and allowed citations."""
        allowed = _allowed_sources(decision, sources)
        body = drop_unknown_citations(strip_sources_section(redact(body)), allowed)
        body, report = await check_references(body, ctx.chunks, services.catalog)
        if report.removed:
            log.warning("unsupported_references", count=len(report.removed))
        cited = set(cited_numbers(body))
        notes = edition_notes(
            [c for c, n in zip(ctx.chunks, ctx.chunk_numbers, strict=True) if n in cited]
        )
        if notes:  # which edition of the code, which review date of the article
            body += "\n\n" + "\n".join(f"_{n}_" for n in notes)
        text = _finalise(body, allowed, ctx.notices)
        return text, {"references": report.as_debug(), "cited_units": _cited_units(ctx, body)}

    async def abstain(
        state: AgentState, config: RunnableConfig, abstention: Abstention, best: float | None
    ) -> dict[str, Any]:
        text = render_abstention(abstention) + "\n\n" + render_sources([], "")
        await save_turn(state, config, text)
        log.info("answer_abstained", kind=abstention.kind)
        return {
            "answer": text,
            "debug": {
                "answer_mode": "abstained",
                "abstained": abstention.kind,
                "best_similarity": best,
                "cited_units": [],
            },
        }

    async def answer(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        decision = decision_of(state)
        ctx = _context(services, state)
        query = state["query"]
        only_smalltalk = decision.intents == ["smalltalk"]
        search_failed = bool(ctx.notices) and not ctx.chunks and not ctx.external
        if search_failed and not only_smalltalk:
            text = "\n".join(dict.fromkeys(ctx.notices))
            await save_turn(state, config, text)
            return {"answer": text}
        calc = calc_answer(ctx.external) if decision.intents == ["calc"] else None
        if calc is not None:  # computed, not generated: the steps and norms as they are
            text = _finalise(calc, ctx.sources, ctx.notices)
            await save_turn(state, config, text)
            return {"answer": text, "debug": {"answer_mode": "calc"}}
        history = list(state.get("messages") or [])
        check = settings.verified_answers and not only_smalltalk
        ranked: list[Any] = []
        best: float | None = None
        if check and not history:  # once per turn, before the first LLM round
            if _is_knowledge_question(decision):
                scope = await scope_abstention(query, ctx.chunks, services.catalog)
                if scope is not None:
                    return await abstain(state, config, scope, None)
            # sentence ranking embeds the passages' sentences: only where it is used, for
            # the offline answer and the evidence check of knowledge questions
            if services.llm is None or _is_knowledge_question(decision):
                ranked, best = await rank(query, candidates(ctx), services.embedder)
            if _is_knowledge_question(decision) and not ctx.external:
                weak = evidence_abstention(
                    best,
                    ctx.chunks,
                    settings.abstain_min_similarity,
                    shared_words(query, ranked),
                )
                if weak is not None:
                    return await abstain(state, config, weak, best)
        warning = period_warning(query, ctx.chunks) if check else None
        if services.llm is None:
            debug: dict[str, Any] = {"answer_mode": "extractive", "best_similarity": best}
            if only_smalltalk:
                text = messages.SMALLTALK
            elif check:
                body = compose_key_facts(ctx, ranked, warning)
                text, checked = await verified(body, ctx, decision, ctx.sources)
                debug.update(checked)
            else:
                body = compose_extractive(query, ctx)
                text = _finalise(body, ctx.sources, ctx.notices)
                debug["cited_units"] = _cited_units(ctx, body)
            await save_turn(state, config, text)
            return {"answer": text, "debug": debug}

        # only the tools this scenario can use: each bound schema costs prompt tokens
        tools = answer_tools(services.registry, decision, settings.answer_tools)
        can_call_tools = _tool_rounds(history) < settings.max_tool_calls and len(tools)
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
        llm: Any = services.llm_for("answer")
        if can_call_tools:
            llm = llm.bind_tools(tools.as_langchain(), tool_choice="auto")
        try:
            reply = await _streamed(llm, prompt, config)
        except Exception as exc:
            log.warning("answer_llm_failed", error=type(exc).__name__)
            text, checked = await fallback(query, ctx, decision, check)
            await save_turn(state, config, text)
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
        sources = ctx.sources + _tool_sources(ctx, list(state.get("tool_results") or []))
        if not reply.text.strip():  # an empty completion: answer from the sources instead
            log.warning("answer_llm_empty")
            text, checked = await fallback(query, ctx, decision, check)
            await save_turn(state, config, text)
            return {
                "answer": text,
                "messages": [*new, reply],
                "debug": {
                    **checked,
                    "answer_mode": "extractive_fallback",
                    "llm_error": "empty reply",
                },
            }
        if check:
            body = reply.text
            if warning:
                body = f"{warning}\n\n{body}"
            text, checked = await verified(body, ctx, decision, sources)
        else:
            text, checked = _finalise(reply.text, sources, ctx.notices), {}
        await save_turn(state, config, text)
        return {
            "answer": text,
            "messages": [*new, reply],
            "debug": {**checked, "answer_mode": "llm"},
        }

    return answer


def make_tools(services: Deps):  # type: ignore[no-untyped-def]
    async def tools(state: AgentState, config: RunnableConfig) -> dict[str, Any]:
        last = (state.get("messages") or [])[-1]
        assert isinstance(last, AIMessage)
        ctx = _context(services, state)
        done = list(state.get("tool_results") or [])
        number = len(ctx.sources) + len(done) + 1
        tool_ctx = run_context(config, state)
        # a tool the answer was not offered is an unknown tool (the LLM may invent calls)
        offered = answer_tools(
            services.registry, decision_of(state), services.settings.answer_tools
        )
        replies: list[ToolMessage] = []
        results: list[ExternalData] = []
        # the calls run concurrently; numbering follows the order the LLM asked for them
        outputs = await asyncio.gather(
            *(offered.call(c["name"], c["args"], tool_ctx) for c in last.tool_calls)
        )
        for call, output in zip(last.tool_calls, outputs, strict=True):
            replies.append(
                ToolMessage(
                    content=f"[{number}] {output}", tool_call_id=call["id"] or "", name=call["name"]
                )
            )
            results.append(
                ExternalData(
                    tool=call["name"],
                    source_note=output.source_note,
                    content=output.text[:2000],
                    ok=output.ok,
                )
            )
            number += 1
        return {
            "messages": replies,
            "tool_results": results,
            "debug": {"tool_calls": [c["name"] for c in last.tool_calls]},
        }

    return tools


def after_answer(state: AgentState) -> str:
    messages_ = state.get("messages") or []
    if (
        not state.get("answer")
        and messages_
        and isinstance(messages_[-1], AIMessage)
        and messages_[-1].tool_calls
    ):
        return "tools"
    return "end"
