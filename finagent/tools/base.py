"""The tool contract shared by every finagent tool.

A tool is a class with a Pydantic input model and an async ``run``. Its name and
description come from the class and its docstring; the OpenAI function schema is
generated from the input model. Errors never escape: ``invoke`` turns them into
``Error: ...`` text. Dependencies (clients, retrievers) are injected in ``__init__``.
"""

from __future__ import annotations

import inspect
import json
import time
from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

from pydantic import BaseModel, Field, ValidationError

from finagent.observability import TOOL_CALLS, digest, get_logger, redact
from finagent.text_safety import has_lone_surrogates, utf8_safe

if TYPE_CHECKING:  # langchain_core.tools is slow to import: loaded when a tool is converted
    from langchain_core.runnables import RunnableConfig
    from langchain_core.tools import StructuredTool

    from finagent.tools.research_run import ResearchRun

log = get_logger("finagent.tools")

InputT = TypeVar("InputT", bound=BaseModel)

DEFAULT_OUTPUT_LIMIT = 12_000
TRUNCATION_MARKER = "\n[...truncated]"
BAD_TEXT = "text with lone UTF-16 surrogates is not valid Unicode; send plain UTF-8 text"


ErrorKind = Literal["invalid_arguments", "error", "failure", "unknown_tool"]
#: finagent's built-in tool classes by name, filled as the ``finagent.tools`` modules are
#: imported (see ``finagent.tools.declared``); MCP and test tools are not recorded.
DECLARED: dict[str, type[Tool[Any]]] = {}


class ToolResult(str):
    """What a tool call returns: the text the LLM sees, with its outcome as typed fields.

    It is a ``str`` because the text goes unchanged to LLM tool messages, LangChain, MCP
    and the CLI; callers read ``ok``, ``error_kind`` and ``source_note`` instead of
    parsing it.
    """

    ok: bool
    error_kind: ErrorKind | None
    tool: str
    source_note: str

    def __new__(
        cls, text: str, *, tool: str, error_kind: ErrorKind | None = None, source_note: str = ""
    ) -> ToolResult:
        result = super().__new__(cls, text)
        result.ok = error_kind is None
        result.error_kind = error_kind
        result.tool = tool
        result.source_note = source_note or tool
        return result

    @property
    def text(self) -> str:
        return str.__str__(self)


class ToolError(Exception):
    """A failure the LLM can act on; its message becomes ``Error: <message>``."""


@dataclass(frozen=True)
class ToolContext:
    """Who is calling: taken from the run configuration, never from LLM arguments."""

    user_id: str
    chat_id: str | None = None
    selected_document_ids: tuple[str, ...] = ()
    research: ResearchRun | None = None  # the research run whose step calls the tool

    @classmethod
    def from_config(cls, config: RunnableConfig | None) -> ToolContext:
        """The authenticated LangGraph API user when there is one, else ``user_id``."""
        configurable = (config or {}).get("configurable", {}) or {}
        user_id = configurable.get("langgraph_auth_user_id") or configurable.get("user_id")
        if not user_id or not isinstance(user_id, str):
            raise ToolError("no user is set for this run (configurable.user_id)")
        return cls(
            user_id=user_id,
            chat_id=configurable.get("chat_id"),
            selected_document_ids=tuple(configurable.get("selected_document_ids") or ()),
        )


class ErrorInfo(BaseModel):
    """One failed item of an aggregate tool."""

    method: str
    error_text: str
    params: dict[str, Any] = Field(default_factory=dict)


class AggregateResult(BaseModel):
    """Result of a tool that aggregates many calls (``Req_*`` tools)."""

    success: bool
    results: list[Any] = Field(default_factory=list)
    errors: list[ErrorInfo] = Field(default_factory=list)
    fatal_error: str | None = None


def truncate(text: str, limit: int = DEFAULT_OUTPUT_LIMIT) -> str:
    """Cut ``text`` to ``limit`` characters with a visible marker."""
    if len(text) <= limit:
        return text
    return text[: max(0, limit - len(TRUNCATION_MARKER))] + TRUNCATION_MARKER


def to_json(value: Any) -> str:
    """Compact JSON for a context window."""
    if isinstance(value, BaseModel):
        value = value.model_dump(mode="json", exclude_none=True)
    return json.dumps(value, ensure_ascii=False, separators=(",", ":"), default=str)


class Tool(ABC, Generic[InputT]):
    """Base class of every tool: subclass, set ``name`` and ``input_model``, write ``run``.

    The class docstring is the description the LLM sees: say what the tool does and when
    to use it.
    """

    name: ClassVar[str]
    input_model: ClassVar[type[BaseModel]]
    output_limit: ClassVar[int] = DEFAULT_OUTPUT_LIMIT
    #: Where the output comes from, shown after cited external data (``cbr.ru``); the
    #: tool's name when unset.
    source_note: ClassVar[str] = ""
    #: The source's name in Russian for user-facing messages («Банк России»).
    source_name: ClassVar[str] = ""

    def __init_subclass__(cls, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        name = cls.__dict__.get("name")
        builtin = cls.__module__.startswith("finagent.tools.")
        if builtin and isinstance(name, str) and not inspect.isabstract(cls):
            DECLARED[name] = cls

    @abstractmethod
    async def run(self, args: InputT, ctx: ToolContext) -> str:
        """Do the work; raise ToolError for failures the LLM should see."""

    @property
    def description(self) -> str:
        return inspect.cleandoc(type(self).__doc__ or self.name)

    def openai_schema(self) -> dict[str, Any]:
        """OpenAI function-calling schema, generated from the input model."""
        from langchain_core.utils.function_calling import convert_to_openai_tool

        schema = convert_to_openai_tool(self.input_model)
        schema["function"]["name"] = self.name
        schema["function"]["description"] = self.description
        return schema

    async def invoke(self, arguments: dict[str, Any] | BaseModel, ctx: ToolContext) -> ToolResult:
        """Validate, run and log; never raises. Errors are ``Error: ...`` text for the LLM."""
        started = time.perf_counter()
        outcome: ErrorKind | Literal["ok"] = "ok"
        raw = arguments.model_dump() if isinstance(arguments, BaseModel) else arguments
        try:
            if has_lone_surrogates(raw):
                outcome, output = "invalid_arguments", f"Error: invalid arguments: {BAD_TEXT}"
            else:
                args = self.input_model.model_validate(raw or {})
                output = await self.run(args, ctx)  # type: ignore[arg-type]
                if output.startswith("Error:"):
                    outcome = "error"
        except ValidationError as exc:
            outcome = "invalid_arguments"
            output = "Error: invalid arguments: " + _validation_summary(exc)
        except ToolError as exc:
            outcome = "error"
            output = f"Error: {exc}"
        except Exception as exc:  # the agent must never see a raised exception
            outcome = "failure"
            output = f"Error: {self.name} failed ({type(exc).__name__}); try again later"
            log.exception("tool_failure", tool=self.name, user_id=ctx.user_id)
        # every path (errors echo arguments too) is redacted before it is cut, so no
        # secret survives in part, and made UTF-8 safe for JSON, MCP and LLM requests
        output = truncate(utf8_safe(redact(output)), self.output_limit)
        TOOL_CALLS.labels(tool=self.name, outcome=outcome).inc()
        log.info(
            "tool_call",
            tool=self.name,
            args_digest=_args_digest(raw),
            duration_ms=round((time.perf_counter() - started) * 1000, 1),
            outcome=outcome,
            output_chars=len(output),
        )
        return ToolResult(
            output,
            tool=self.name,
            error_kind=None if outcome == "ok" else outcome,
            source_note=self.source_note,
        )

    def as_langchain(self, ctx: ToolContext | None = None) -> StructuredTool:
        """A LangChain StructuredTool; the context comes from ``ctx`` or the run config."""
        from langchain_core.runnables import RunnableConfig
        from langchain_core.tools import StructuredTool

        async def _call(config: RunnableConfig, **kwargs: Any) -> str:
            try:
                run_ctx = ctx or ToolContext.from_config(config)
            except ToolError as exc:
                return f"Error: {exc}"
            return (await self.invoke(kwargs, run_ctx)).text

        # resolved here, not from module globals: LangChain injects ``config`` by this type
        _call.__annotations__["config"] = RunnableConfig
        return StructuredTool.from_function(
            coroutine=_call,
            name=self.name,
            description=self.description,
            args_schema=self.input_model,
            infer_schema=False,
        )


def _args_digest(raw: Any) -> str:
    """``digest`` of the arguments for the log; never raises."""
    try:
        return digest(raw)
    except (TypeError, ValueError, RecursionError):  # lone surrogates, very deep nesting
        try:
            return digest(repr(raw))
        except RecursionError:
            return "unhashable"


def _validation_summary(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:5]:
        loc = ".".join(str(p) for p in err["loc"]) or "input"
        parts.append(f"{loc}: {err['msg']}")
    return "; ".join(parts)
