"""The LLM orchestrator: one structured call for scenario, intents and sub-queries."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Annotated, Literal

from langchain_core.messages import HumanMessage, SystemMessage
from pydantic import BaseModel, Field

from finagent.clients.structured import invoke_structured
from finagent.language.overlap import ngrams
from finagent.observability import LLM_OUTPUT_CHECKS
from finagent.prompts import load_prompt
from finagent.state import Decision, Scenario, Turn
from finagent.text_safety import utf8_safe

if TYPE_CHECKING:  # slow to import; annotations only
    from langchain_core.language_models import BaseChatModel

MAX_SUB_QUERY_CHARS = 500  # a search query, not a document: bounds the embedding cost
MAX_QUESTION_CHARS = 300  # one clarifying question
# every list and string of the decision is bounded in the schema: a server that enforces
# the schema (llama.cpp's grammar) stops a repeating small model at the bound
SubQuery = Annotated[str, Field(max_length=MAX_SUB_QUERY_CHARS)]
AskedQuestion = Annotated[str, Field(max_length=MAX_QUESTION_CHARS)]


class OrchestratorOutput(BaseModel):
    """Routing decision for the user's question."""

    scenario: Literal[1, 2, 3, 4, 5] = Field(description="1..5 as described in the instructions")
    intents: list[Literal["kb", "rates", "news", "smalltalk", "calc"]] = Field(
        default_factory=list, max_length=5, description="For scenario 2: one or more intents"
    )
    confidence: float = Field(ge=0.0, le=1.0, description="Confidence from 0 to 1")
    reason: str = Field(default="", max_length=500, description="Short justification")
    clarifying_questions: list[AskedQuestion] = Field(default_factory=list, max_length=3)
    sub_queries: list[SubQuery] = Field(default_factory=list, max_length=4)


#: A clarifying question with this share of its word 3-grams (not the user's own words)
#: in the system prompt repeats the prompt's examples instead of asking about the question.
COPIED_QUESTION_SHARE = 0.5


class InvalidDecisionError(ValueError):
    """The LLM's output is well-formed JSON but not a usable decision."""


def copies_prompt(question: str, prompt: str, query: str) -> bool:
    """``question`` repeats ``prompt`` (its examples) rather than asking about ``query``."""
    own = [g for g in ngrams(question, 3) if g not in set(ngrams(query, 3))]
    if len(own) < 2:
        return False
    theirs = set(ngrams(prompt, 3))
    return sum(g in theirs for g in own) / len(own) >= COPIED_QUESTION_SHARE


def _history_text(history: Sequence[Turn]) -> str:
    if not history:
        return "(пусто)"
    return "\n".join(f"{t.role}: {t.content[:500]}" for t in history[-6:])


async def llm_decide(
    llm: BaseChatModel,
    query: str,
    history: Sequence[Turn],
    has_selection: bool,
    method: str,
    documents: str = "(неизвестно)",
    keep_limits: bool = False,
) -> Decision:
    """Ask the LLM; raises on failure or invalid output (the caller falls back to rules).

    ``documents`` is the bounded summary of the user's document inventory; ``keep_limits``:
    the provider accepts the schema's length limits."""
    system = load_prompt("orchestrator").format(
        has_selection="да" if has_selection else "нет",
        history=_history_text(history),
        documents=documents,
    )
    # tool calls, fenced or plain JSON are all accepted (servers differ); a failed call or
    # a reply without a valid decision raises StructuredOutputError with the reason
    out, _ = await invoke_structured(
        llm,
        OrchestratorOutput,
        [SystemMessage(system), HumanMessage(query)],
        method,
        keep_limits=keep_limits,
    )
    scenario = Scenario(out.scenario)
    if scenario == Scenario.ROUTED and not out.intents:
        raise InvalidDecisionError("scenario 2 without intents")
    if scenario in (Scenario.FULL_DOCUMENTS, Scenario.SELECTED_SEARCH) and not has_selection:
        raise InvalidDecisionError("documents scenario without selected documents")
    if scenario == Scenario.CLARIFY and not any(q.strip() for q in out.clarifying_questions):
        raise InvalidDecisionError("clarification without questions")
    if scenario == Scenario.CLARIFY and any(
        copies_prompt(q, system, query) for q in out.clarifying_questions
    ):
        LLM_OUTPUT_CHECKS.labels(role="orchestrator", check="copied_clarification").inc()
        raise InvalidDecisionError("clarification copied from the prompt's examples")
    # LLM text goes to the embedder and the store: UTF-8 safe and bounded
    asked = [utf8_safe(q).strip()[:MAX_SUB_QUERY_CHARS] for q in out.clarifying_questions]
    sub_queries = [utf8_safe(q).strip()[:MAX_SUB_QUERY_CHARS] for q in out.sub_queries]
    sub_queries = [q for q in sub_queries if q] or [query]
    if query not in sub_queries:
        sub_queries = [query, *sub_queries][:4]
    return Decision(
        scenario=scenario,
        intents=list(dict.fromkeys(out.intents)) if scenario == Scenario.ROUTED else [],
        confidence=out.confidence,
        reason=utf8_safe(out.reason),
        clarifying_questions=[q for q in asked if q],
        sub_queries=sub_queries,
        source="llm",
    )
