"""answer <-> tools: one round of the answering pipeline (finagent.answering.pipeline)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from langchain_core.messages import BaseMessage
from langgraph.runtime import Runtime

from finagent.answering.document_sentences import answer_documents
from finagent.answering.final import context_of
from finagent.answering.pipeline import DOCUMENT_SCENARIOS, TurnInput, answer_turn
from finagent.answering.sentence_profile import SentenceProfile, using_profiles
from finagent.answering.stored_profiles import document_profiles
from finagent.nodes.common import decision_of
from finagent.nodes.context import AgentContext, answer_tools_option, caller, deps_of, run_config
from finagent.nodes.question import turn_question, user_cards
from finagent.nodes.tools import tool_rounds
from finagent.state import AgentState
from finagent.tools.scopes import answer_tools


async def _streamed(llm: Any, prompt: list[BaseMessage]) -> BaseMessage:
    """The LLM's reply streamed token by token (callbacks and stream_mode="messages" see
    every chunk), merged into one message; the same message ``ainvoke`` would return."""
    reply: BaseMessage | None = None
    async for chunk in llm.astream(prompt, run_config()):
        reply = chunk if reply is None else reply + chunk
    if reply is None:
        raise RuntimeError("the LLM stream ended without a message")
    return reply


async def answer(state: AgentState, runtime: Runtime[AgentContext]) -> dict[str, Any]:
    deps = deps_of(runtime)
    who = caller(runtime)
    decision = decision_of(state)
    history: list[BaseMessage] = list(state.get("answer_messages") or [])
    question = await turn_question(dict(state), deps, who.user_id)
    documents = decision.scenario in DOCUMENT_SCENARIOS
    texts: dict[str, str] = {}
    vectors = []
    cards = await user_cards(deps, who.user_id) if documents else []
    if selected := set(state.get("selected_document_ids") or ()):
        # the user chose the documents to ask about: another document's card never answers
        cards = [card for card in cards if card.document_id in selected]
    ctx = context_of(deps, state, {card.document_id: card.title for card in cards})
    whole = answer_documents(question, ctx.chunks, cards) if documents and who.user_id else []
    if whole and who.user_id:
        found, _missing = await deps.documents.get_many(who.user_id, whole)
        texts = {doc.id: doc.text for doc in found}
    profiles: Mapping[str, SentenceProfile] = {}
    if documents and who.user_id and deps.llm is None:
        # the offline composer ranks the documents' sentences by meaning too
        own = [c.document_id for c in ctx.chunks if c.source == "user_docs" and c.document_id]
        wanted = [*whole, *own]
        vectors = await deps.documents.sentence_vectors.get_many(who.user_id, wanted)
        # and by what they state: their profiles, made at ingestion
        profiles = await document_profiles(deps.documents, who.user_id, wanted)
    turn = TurnInput(
        deps=deps,
        question=question,
        decision=decision,
        ctx=ctx,
        cards=cards,
        texts=texts,
        sentence_vectors=vectors,
        history=history,
        instructions=state.get("answer_instructions") or "",
        tool_results=list(state.get("tool_results") or []),
    )
    if deps.llm is None:
        with using_profiles(profiles):
            return await answer_turn(turn)
    # only the tools this scenario can use: each bound schema costs prompt tokens
    tools = answer_tools(deps.registry, decision, answer_tools_option(runtime, deps))
    turn.with_tools = bool(len(tools)) and tool_rounds(history) < deps.settings.max_tool_calls
    llm: Any = deps.llm_for("answer")
    if turn.with_tools:
        try:
            llm = llm.bind_tools(tools.as_langchain(), tool_choice="auto")
            turn.tool_models = {tool.name: tool.input_model for tool in tools}
        except NotImplementedError:  # a model without tool calling answers without tools
            turn.with_tools = False

    async def generate(prompt: list[BaseMessage]) -> BaseMessage:
        return await _streamed(llm, prompt)

    return await answer_turn(turn, generate)
