"""LangServe routes of ``finagent serve``, used from ``langserve.RemoteRunnable`` over HTTP.

LangServe is installed without its ``[server]`` extra: these tests run its routes on the
project's sse-starlette (3.x, which langgraph-api needs), not the ``<2`` the extra pins.
"""

from __future__ import annotations

from importlib.metadata import version
from typing import Any

import httpx
from langchain_core.messages import AIMessage
from langserve import RemoteRunnable

from finagent.bootstrap import Deps
from tests.conftest import LEASE
from tests.fakes.llm import tool_call_message
from tests.fakes.streaming_llm import StreamingChatModel
from tests.integration.test_agent_graph import decision
from tests.integration.test_research_graph import REASONING
from tests.serving import loopback_service

TOKENS = "alice-token-0001:alice,bob-token-00002:bob"
ALICE = {"Authorization": "Bearer alice-token-0001"}
BOB = {"Authorization": "Bearer bob-token-00002"}
QUESTION = "какие пени в моём договоре аренды?"


def step(tool_name: str, **args: Any) -> AIMessage:
    return tool_call_message("NextStep", {**REASONING, "tool": {"tool_name": tool_name, **args}})


def test_the_sse_starlette_is_the_one_langgraph_api_needs() -> None:
    major, minor, *_ = (int(p) for p in version("sse-starlette").split(".")[:2])
    assert (major, minor) >= (2, 1)


async def test_agent_routes_from_remote_runnable(make_services) -> None:  # type: ignore[no-untyped-def]
    answer = "Пени составляют 0,1 % за каждый день просрочки [1]."
    llm = StreamingChatModel([decision(1), AIMessage(answer), decision(1), AIMessage(answer)])
    services: Deps = await make_services(llm, api_tokens=TOKENS)
    async with loopback_service(services) as url:
        async with httpx.AsyncClient(base_url=url, timeout=120) as http:
            files = [("files", ("lease.md", LEASE.encode(), "text/markdown"))]
            assert (await http.post("/v1/documents", files=files, headers=ALICE)).status_code == 200
            playground = await http.get("/langserve/agent/playground/")
            assert playground.status_code == 200 and "<html" in playground.text.lower()
            anonymous = await http.post("/langserve/agent/invoke", json={"input": {"query": "x"}})
            assert anonymous.status_code == 401 and "Authorization" in anonymous.json()["detail"]

        agent = RemoteRunnable(f"{url}/langserve/agent", headers=ALICE, timeout=120)
        # the body claims to be bob: the token's user (alice) is the one that counts
        config = {"configurable": {"user_id": "bob", "thread_id": "t1"}}
        result = await agent.ainvoke({"query": QUESTION}, config)
        assert "0,1 %" in result["answer"] and result["decision"]["scenario"] == 1

        pieces = [part async for part in agent.astream({"query": QUESTION})]
        assert pieces and any("answer" in (p.get("answer") or {}) for p in pieces)

        events = [e async for e in agent.astream_events({"query": "привет"}, version="v2")]
        kinds = {e["event"] for e in events}
        assert {"on_chain_start", "on_chain_end"} <= kinds

        bob = RemoteRunnable(f"{url}/langserve/agent", headers=BOB, timeout=120)
        [theirs] = await bob.abatch([{"query": QUESTION}], {"configurable": {"user_id": "alice"}})
        assert "0,1 %" not in theirs["answer"]  # bob has no lease, whatever the body says
        assert not theirs.get("chunks")


async def test_research_routes_from_remote_runnable(make_services) -> None:  # type: ignore[no-untyped-def]
    final = step(
        "final_answer",
        reasoning="Данных достаточно",
        completed_steps=["Ответ"],
        answer="Основная ставка НДС 20 %.",
        status="completed",
    )
    clarification = step(
        "clarification",
        reasoning="Неясен период",
        unclear_terms=["период"],
        assumptions=["2024 год", "2025 год"],
        questions=["За какой год?"],
    )
    llm = StreamingChatModel([final, clarification])
    services: Deps = await make_services(llm, api_tokens=TOKENS)
    async with loopback_service(services) as url:
        research = RemoteRunnable(f"{url}/langserve/research", headers=ALICE, timeout=120)
        result = await research.ainvoke({"query": "Какая ставка НДС?"})
        assert result["status"] == "completed" and "20 %" in result["answer"]
        # a clarification ends the call with the questions (LangServe cannot resume)
        stopped = await research.ainvoke({"query": "Какая ставка?"})
    [interrupt] = stopped["__interrupt__"]
    assert interrupt["value"]["questions"] == ["За какой год?"]


async def test_both_routes_publish_typed_input_output_and_config_schemas(make_services) -> None:  # type: ignore[no-untyped-def]
    services: Deps = await make_services(None, api_tokens=TOKENS)
    async with (
        loopback_service(services) as url,
        httpx.AsyncClient(base_url=url, timeout=60) as http,
    ):
        schemas = {
            (path, kind): (await http.get(f"/langserve/{path}/{kind}_schema")).json()
            for path in ("agent", "research")
            for kind in ("input", "output", "config")
        }
    for key, schema in schemas.items():  # a typed root model refers to its definition
        if "$ref" in schema:
            schemas[key] = schema["$defs"][schema["$ref"].rsplit("/", 1)[1]]
    agent_in = schemas["agent", "input"]["properties"]
    assert {"query", "chat_id", "selected_document_ids"} <= set(agent_in)
    assert agent_in["query"]["type"] == "string" and agent_in["query"]["description"]
    assert schemas["agent", "input"]["required"] == ["query"]
    agent_out = schemas["agent", "output"]["properties"]
    assert {"answer", "messages", "decision", "chunks"} <= set(agent_out)
    assert "answer_messages" not in agent_out and "history" not in agent_out
    assert set(schemas["research", "input"]["properties"]) == {"query"}
    assert {"answer", "status", "report"} <= set(schemas["research", "output"]["properties"])
    for path in ("agent", "research"):
        config = schemas[path, "config"]
        assert config["type"] == "object"
        # only the configurable chat is published: LangServe takes no tags or metadata
        # from the body (its config_keys), and the user is the token's
        assert set(config["properties"]) == {"configurable"}
        ref = config["properties"]["configurable"]["$ref"].rsplit("/", 1)[1]
        configurable = config["$defs"][ref]["properties"]
        assert set(configurable) == {"thread_id"}
        assert "chat" in configurable["thread_id"]["description"]
        assert {"type": "string"} in configurable["thread_id"]["anyOf"]
