"""LangChain's fake chat model, scripted per test, able to bind tools and structured output."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from typing import Any

from langchain_core.language_models.fake_chat_models import FakeMessagesListChatModel
from langchain_core.messages import AIMessage, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatResult
from langchain_core.runnables import Runnable

_ids = itertools.count(1)


def tool_call_message(name: str, args: dict[str, Any], content: str = "") -> AIMessage:
    """An AI message calling one tool (also how structured output is scripted)."""
    return AIMessage(
        content=content, tool_calls=[{"name": name, "args": args, "id": f"call_{next(_ids)}"}]
    )


class ScriptedChatModel(FakeMessagesListChatModel):
    """Answers with the scripted messages in order; an Exception in the script is raised.

    Unlike the base class it does not cycle: running past the script is an error, so a
    test notices an unexpected extra LLM call. Every prompt it received is recorded.
    """

    responses: list[Any]  # type: ignore[assignment]  # messages or exceptions
    received: list[list[BaseMessage]] = []
    bound_tools: list[Any] = []

    def __init__(self, responses: Sequence[BaseMessage | Exception], **kwargs: Any) -> None:
        super().__init__(responses=list(responses), **kwargs)  # type: ignore[arg-type]
        self.received = []
        self.bound_tools = []

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        self.received.append(list(messages))
        if self.i >= len(self.responses):
            raise AssertionError(f"ScriptedChatModel: unexpected call #{self.i + 1}")
        response: Any = self.responses[self.i]
        self.i += 1
        if isinstance(response, Exception):
            raise response
        return ChatResult(generations=[ChatGeneration(message=response)])

    def bind_tools(self, tools: Sequence[Any], **kwargs: Any) -> Runnable[Any, BaseMessage]:
        self.bound_tools = list(tools)
        return self

    def with_structured_output(self, schema: Any, **kwargs: Any) -> Runnable[Any, Any]:
        kwargs.pop("method", None)
        kwargs.pop("strict", None)
        kwargs.pop("tool_choice", None)  # the base class always forces the schema's tool
        return super().with_structured_output(schema, **kwargs)

    @property
    def calls(self) -> int:
        return self.i
