"""AgentState and the typed values it carries."""

from __future__ import annotations

from enum import IntEnum
from typing import Annotated, Any, Literal

from langchain_core.messages import AnyMessage
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from finagent.observability import redact_value
from finagent.question.model import Question


def add_messages(left: Any, right: Any) -> Any:
    """LangGraph's ``add_messages`` reducer, imported on first use (langgraph.graph is slow
    to import, and commands such as ``finagent route`` never merge messages)."""
    from langgraph.graph.message import add_messages as merge

    return merge(left, right)


Intent = Literal["kb", "rates", "news", "smalltalk", "calc"]
ChunkSource = Literal["user_docs", "kb", "law", "cbr", "news", "internal", "web"]


class Scenario(IntEnum):
    """The five ways a question is answered."""

    ALL_DOCUMENTS = 1  # search every document of the user
    ROUTED = 2  # knowledge base, rates, news or small talk
    FULL_DOCUMENTS = 3  # selected documents small enough to read whole
    SELECTED_SEARCH = 4  # selected documents too large: search inside them
    CLARIFY = 5  # the question cannot be answered without clarification


class Decision(BaseModel):
    """What the orchestrator decided for one question."""

    scenario: Scenario
    intents: list[Intent] = Field(default_factory=list)
    confidence: float = 1.0
    reason: str = ""
    clarifying_questions: list[str] = Field(default_factory=list)
    sub_queries: list[str] = Field(default_factory=list)
    source: Literal["rules", "classifier", "llm"] = "rules"
    rule: str | None = None  # the routing rule that fired, if any
    classifier: dict[str, Any] | None = None  # label, calibrated scores, nearest examples
    user_documents: int | None = None  # the user's document count when known
    # the user's documents the question names: the search is narrowed to them
    document_ids: list[str] = Field(default_factory=list)
    # what the question names that the user's documents do not hold («договор займа»)
    missing_document: str | None = None

    @property
    def intent(self) -> Intent | None:
        return self.intents[0] if self.intents else None


class Chunk(BaseModel):
    """A passage that may go into the answer's context."""

    id: str
    text: str
    score: float = 0.0
    source: ChunkSource = "kb"
    title: str = ""
    document_id: str | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)


class Source(BaseModel):
    """A cited source as shown in the answer's source list."""

    number: int
    title: str
    kind: ChunkSource
    reference: str = ""


class ExternalData(BaseModel):
    """Output of a live-data tool placed in the External Data section."""

    tool: str
    source_note: str  # e.g. "cbr.ru"
    content: str
    ok: bool = True


class Turn(BaseModel):
    role: Literal["user", "assistant"]
    content: str


def merge_chunks(left: list[Chunk] | None, right: list[Chunk] | None) -> list[Chunk]:
    """Reducer: union of chunk lists, deduplicated by id, keeping the best score.

    Writing None resets the list (a new turn on the same thread starts empty).
    """
    if right is None:
        return []
    merged: dict[str, Chunk] = {}
    for chunk in [*(left or []), *(right or [])]:
        kept = merged.get(chunk.id)
        if kept is None or chunk.score > kept.score:
            merged[chunk.id] = chunk
    return sorted(merged.values(), key=lambda c: c.score, reverse=True)


def extend_list(left: list[Any] | None, right: list[Any] | None) -> list[Any]:
    """Reducer: concatenation; writing None resets."""
    if right is None:
        return []
    return [*(left or []), *(right or [])]


def merge_debug(left: dict[str, Any] | None, right: dict[str, Any] | None) -> dict[str, Any]:
    """Reducer: dict union; writing None resets.

    Debug values often carry error texts from providers, and debug is checkpointed and
    returned by every API: everything written here is redacted on the way in.
    """
    if right is None:
        return {}
    return {**(left or {}), **redact_value(right or {})}


def typed_decision(left: Decision | None, right: Decision | dict[str, Any] | None) -> Decision:
    """Reducer: the last decision written, typed even when a client wrote JSON."""
    if isinstance(right, dict):
        return Decision.model_validate(right)
    if right is None:
        return left or Decision(scenario=Scenario.ROUTED, intents=["kb"])
    return right


#: A list of chat messages merged by id (LangGraph's ``add_messages``).
Messages = Annotated[list[AnyMessage], add_messages]

#: Field docstrings become the field descriptions of the JSON schemas Studio shows.
_DOCUMENTED = ConfigDict(use_attribute_docstrings=True)


class AgentInput(TypedDict, total=False):
    """A question to the agent: ``query``, or chat ``messages`` whose last human message
    is the question (who asks lives in the run context)."""

    __pydantic_config__ = _DOCUMENTED  # type: ignore[misc]

    query: str
    """The question, in Russian (or send it as the last human message of ``messages``)."""
    messages: Messages
    """Chat messages: the last human message is the question when ``query`` is not new."""
    chat_id: str | None
    """The chat the turn belongs to (default: the LangGraph thread, else none)."""
    selected_document_ids: list[str]
    """Answer from these documents of the user only."""
    answer_instructions: str | None
    """How to answer (length, form); never changes what the sources say."""


class AgentOutput(TypedDict, total=False):
    """The agent's answer: ``answer`` (Russian Markdown with numbered sources), the same
    text as the last AI message of ``messages`` (its ``response_metadata`` holds the
    sources and the scenario), and how it was reached."""

    __pydantic_config__ = _DOCUMENTED  # type: ignore[misc]

    query: str
    """The question answered."""
    chat_id: str | None
    """The chat the turn was saved in."""
    messages: Messages
    """The conversation: each question and its answer (an AI message with the sources)."""
    decision: Annotated[Decision, typed_decision]
    """The scenario chosen and why."""
    chunks: Annotated[list[Chunk], merge_chunks]
    """The passages retrieved for the answer."""
    external: Annotated[list[ExternalData], extend_list]
    """Live data fetched for the answer (rates, news)."""
    tool_results: Annotated[list[ExternalData], extend_list]
    """What the answer model's tool calls returned."""
    notices: Annotated[list[str], extend_list]
    """Notes shown with the answer (a source that failed)."""
    debug: Annotated[dict[str, Any], merge_debug]
    """Diagnostics of the turn's checks."""
    answer: str
    """The answer: Russian Markdown, citations [n] and the source list."""
    error: str | None
    """Why the input was refused, if it was."""


class AgentState(AgentInput, AgentOutput, total=False):
    """The agent graph's internal state: input, output and the working values."""

    history: list[Turn]
    question: Question  # the typed question, built once per turn (finagent.nodes.question)
    intent: Intent  # set on a Send branch of route_intent
    # the answer model's prompt, tool calls and tool replies of this turn (not the chat)
    answer_messages: Messages
    # the id of the human message this turn answers: a later turn that finds it still last
    # (the turn crashed before its reply) drops it and answers its own input
    asked_id: str
