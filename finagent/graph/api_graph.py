"""The agent graph as the LangGraph API / Studio runs it: with the answer budget and with
the state's types registered in the API's checkpointer.

``Agent.run``, the SSE service and the CLI wrap a run in ``answer_budget`` and use
finagent's own checkpointer (``finagent.storage.serde``). The LangGraph API calls the
compiled graph itself, with its own checkpointer. :func:`for_langgraph_api` returns the
same graph, with two differences:

- every run (``invoke``, ``stream``, ``astream_events``: all go through ``astream``)
  starts a deadline of ``answer_budget_s`` and carries it in the run's configuration,
  where each external call finds it (``finagent.clients.budget.remaining_s``). A run
  inside a run (a subgraph) keeps the deadline it was given;
- the thread is the conversation: a run without a ``chat_id`` of its own continues the
  chat named by its thread id (``configurable.chat_id``);
- the checkpointer the API lends the graph (``copy(update={"checkpointer": ...})``)
  reads and writes with an explicit allowlist of the state's types, so it never logs
  "Deserializing unregistered type" and works under strict msgpack.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Any, Self

from langchain_core.runnables import RunnableConfig
from langgraph.checkpoint.base import BaseCheckpointSaver
from langgraph.graph.state import CompiledStateGraph

from finagent.clients.budget import RUN_DEADLINE_KEY
from finagent.storage.serde import with_state_types

BUDGET_KEY = "__finagent_answer_budget_s"
THREAD_CHAT_KEY = "__finagent_thread_is_chat"
SYNC_CALL = (
    "finagent's graphs run asynchronously: use `await graph.ainvoke(...)` or "
    "`graph.astream(...)` (in a script: `asyncio.run(graph.ainvoke(...))`)"
)


class ApiGraph(CompiledStateGraph):  # type: ignore[type-arg]
    """A compiled graph whose runs each get one answer budget (``BUDGET_KEY`` in its
    config) and whose lent checkpointers know the state's types."""

    async def astream(  # type: ignore[override]
        self, input: Any, config: RunnableConfig | None = None, **kwargs: Any
    ) -> AsyncIterator[Any]:
        configurable = dict((config or {}).get("configurable") or {})
        seconds = (self.config or {}).get("configurable", {}).get(BUDGET_KEY)
        if RUN_DEADLINE_KEY not in configurable and isinstance(seconds, int | float):
            configurable[RUN_DEADLINE_KEY] = time.monotonic() + seconds
        thread_is_chat = (self.config or {}).get("configurable", {}).get(THREAD_CHAT_KEY)
        if thread_is_chat and configurable.get("thread_id") and not configurable.get("chat_id"):
            configurable["chat_id"] = str(configurable["thread_id"])
        config = {**(config or {}), "configurable": configurable}
        async for chunk in super().astream(input, config, **kwargs):
            yield chunk

    def stream(self, *args: Any, **kwargs: Any) -> Any:  # type: ignore[override]
        """``invoke`` and ``stream`` end here: the nodes are asynchronous."""
        raise TypeError(SYNC_CALL)

    def copy(self, update: dict[str, Any] | None = None) -> Self:
        saver = (update or {}).get("checkpointer")
        if isinstance(saver, BaseCheckpointSaver):
            update = {**(update or {}), "checkpointer": with_state_types(saver)}
        return super().copy(update)


def for_langgraph_api(
    graph: CompiledStateGraph[Any, Any, Any, Any],
    answer_budget_s: float | None,
    *,
    thread_is_chat: bool = True,
) -> ApiGraph:
    """``graph`` as an :class:`ApiGraph`, with ``answer_budget_s`` per run (None: none);
    with ``thread_is_chat`` a run's thread names its chat when the run names none."""
    attrs = {k: v for k, v in graph.__dict__.items() if k != "__orig_class__"}
    if isinstance(attrs.get("checkpointer"), BaseCheckpointSaver):
        attrs["checkpointer"] = with_state_types(attrs["checkpointer"])
    api_graph = ApiGraph(**attrs)
    options: dict[str, Any] = {THREAD_CHAT_KEY: thread_is_chat}
    if answer_budget_s is not None:
        options[BUDGET_KEY] = answer_budget_s
    return api_graph.with_config({"configurable": options})
