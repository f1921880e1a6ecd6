"""The answer budget holds for a graph run the way the LangGraph API runs it.

The API calls the compiled graph of ``finagent/graph/server.py`` directly (no ``Agent.run``)
and pulls each chunk of the stream in a new task; the budget must still bound every call.
LangServe (``finagent serve``'s ``/langserve/agent``) also calls the graph directly.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

from structlog.testing import capture_logs

from finagent.bootstrap import Deps
from finagent.clients.budget import remaining_s
from finagent.graph.agent import compile_agent_graph
from finagent.graph.api_graph import BUDGET_KEY, ApiGraph, for_langgraph_api
from finagent.nodes.context import AgentContext
from tests.fakes.faults import fault_server
from tests.integration.test_fault_modes import (
    CBR_FAST,
    CBR_QUESTION,
    assert_source_unavailable_in_russian,
    failures_of,
)


def context_of(deps: Deps) -> AgentContext:
    """The run context LangServe and ``Agent`` give the graph: the test's dependencies."""
    return AgentContext(deps=deps)


BOUNDED_BY_BUDGET = r"did not answer within (0\.\d|1\.0) s|no time left in the answer budget"


async def stream_like_the_api(graph: Any, query: str) -> dict[str, Any]:
    """Run ``graph`` as langgraph-api does: each chunk awaited in a task of its own."""
    config = {"configurable": {"user_id": "alice", "thread_id": "t1"}}
    stream = graph.astream({"query": query}, config, stream_mode="values")
    last: dict[str, Any] = {}
    try:
        while True:
            last = await asyncio.ensure_future(anext(stream))
    except StopAsyncIteration:
        return last


async def test_an_api_run_answers_within_the_budget_despite_a_hanging_upstream(  # type: ignore[no-untyped-def]
    make_services,
) -> None:
    with fault_server("hang", path="/DailyInfoWebServ/DailyInfo.asmx") as upstream:
        settings = CBR_FAST | {"cbr_deadline_s": 120.0, "answer_budget_s": 1.0}
        services: Deps = await make_services(cbr_url=upstream.url, **settings)
        graph = for_langgraph_api(compile_agent_graph(), services.settings.answer_budget_s)
        assert isinstance(graph, ApiGraph)
        with capture_logs() as logs:
            state = await stream_like_the_api(
                graph.bind(context=context_of(services)), CBR_QUESTION
            )
    assert remaining_s() is None  # the budget lived in the run, not in the caller's context
    assert_source_unavailable_in_russian(state["answer"], "Банк России")
    [failure] = failures_of(logs, "fetch_cbr_data")
    assert re.search(BOUNDED_BY_BUDGET, failure)


async def test_without_the_budget_the_long_deadline_would_apply(make_services) -> None:  # type: ignore[no-untyped-def]
    """The control: the same graph without the wrapper reports the deadline, not the budget."""
    with fault_server("hang", path="/DailyInfoWebServ/DailyInfo.asmx") as upstream:
        settings = CBR_FAST | {"cbr_deadline_s": 1.0, "answer_budget_s": 120.0}
        services: Deps = await make_services(cbr_url=upstream.url, **settings)
        graph = for_langgraph_api(compile_agent_graph(), None)
        assert BUDGET_KEY not in (graph.config or {}).get("configurable", {})
        with capture_logs() as logs:
            state = await stream_like_the_api(
                graph.bind(context=context_of(services)), CBR_QUESTION
            )
    assert_source_unavailable_in_russian(state["answer"], "Банк России")
    [failure] = failures_of(logs, "fetch_cbr_data")
    assert "did not answer within 1.0 s" in failure or "did not answer within 1 s" in failure


async def test_a_langserve_run_answers_within_the_budget(make_services) -> None:  # type: ignore[no-untyped-def]
    from tests.integration.test_fault_modes import ALICE, TOKENS, api

    with fault_server("hang", path="/DailyInfoWebServ/DailyInfo.asmx") as upstream:
        settings = CBR_FAST | {"cbr_deadline_s": 120.0, "answer_budget_s": 1.0}
        services: Deps = await make_services(api_tokens=TOKENS, cbr_url=upstream.url, **settings)
        async with api(services) as http:
            with capture_logs() as logs:
                response = await http.post(
                    "/langserve/agent/invoke",
                    headers=ALICE,
                    json={"input": {"query": CBR_QUESTION}},
                )
    assert response.status_code == 200, response.text
    assert_source_unavailable_in_russian(response.json()["output"]["answer"], "Банк России")
    [failure] = failures_of(logs, "fetch_cbr_data")
    assert re.search(BOUNDED_BY_BUDGET, failure)
