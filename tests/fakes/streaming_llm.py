"""A scripted chat model that streams its replies word by word, optionally holding mid-reply."""

from __future__ import annotations

import asyncio
import json
import re
from collections.abc import AsyncIterator, Sequence
from typing import Any

from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGenerationChunk

from tests.fakes.llm import ScriptedChatModel


def words(text: str) -> list[str]:
    """``text`` split after each run of whitespace (the pieces join back to ``text``)."""
    return re.findall(r"\S+\s*|\s+", text)


class StreamingChatModel(ScriptedChatModel):
    """Streams each scripted text reply in word pieces.

    With ``hold_after=n`` the stream stops after ``n`` pieces and waits: for ``release``
    (a ``threading.Event`` set by the test) when given, otherwise forever; when its run is
    cancelled it sets ``cancelled`` (an ``asyncio.Event`` given by the test). With
    ``hold_first`` (a ``threading.Event``) a text reply waits for it before its first piece.
    """

    hold_after: int | None = None
    hold_first: Any = None
    cancelled: Any = None
    release: Any = None

    def __init__(self, responses: Sequence[BaseMessage | Exception], **kwargs: Any) -> None:
        super().__init__(responses, **kwargs)

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        reply = self._generate(messages, stop).generations[0].message
        assert isinstance(reply, AIMessage)
        if reply.tool_calls:  # a tool call or structured output: one chunk
            calls = [
                {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": i}
                for i, c in enumerate(reply.tool_calls)
            ]
            yield ChatGenerationChunk(
                message=AIMessageChunk(content=reply.content, tool_call_chunks=calls)  # type: ignore[arg-type]
            )
            return
        if self.hold_first is not None:
            await asyncio.to_thread(self.hold_first.wait, 120)
        for i, piece in enumerate(words(reply.text)):
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece))
            if run_manager is not None:
                await run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk
            if self.hold_after is not None and i + 1 == self.hold_after:
                try:
                    if self.release is not None:
                        await asyncio.to_thread(self.release.wait, 120)
                    else:
                        await asyncio.Event().wait()  # until the run is cancelled
                except asyncio.CancelledError:
                    if self.cancelled is not None:
                        self.cancelled.set()
                    raise
