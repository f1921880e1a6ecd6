"""MCP both ways on loopback: finagent's MCP client against finagent's MCP server
(streamable HTTP and stdio) and against a fastmcp server."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from mcp import ClientSession
from mcp.client.streamable_http import streamablehttp_client
from pydantic import BaseModel, Field

from finagent.agents_config import MCPServerConfig
from finagent.mcp.client import load_mcp_tools
from finagent.mcp.server import build_server, http_app
from finagent.tools.base import TRUNCATION_MARKER, Tool, ToolContext
from finagent.tools.registry import ToolRegistry
from finagent.tools.sgr import FinalAnswerTool
from tests.fakes.net import free_port

INITIALIZE = {  # the first JSON-RPC request of an MCP session
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
    },
}
REPO = Path(__file__).resolve().parents[2]


class NoteInput(BaseModel):
    note: str = Field(description="Any text to echo back")


class WhoAmITool(Tool[NoteInput]):
    """Echo the note and the user the call acts for."""

    name = "whoami"
    input_model = NoteInput

    async def run(self, args: NoteInput, ctx: ToolContext) -> str:
        return f"user={ctx.user_id} note={args.note}"


class SizeInput(BaseModel):
    size: int = Field(description="How many characters to return", ge=1, le=100_000)


class LongTextTool(Tool[SizeInput]):
    """Return a long text."""

    name = "long_text"
    input_model = SizeInput
    output_limit = 100_000

    async def run(self, args: SizeInput, ctx: ToolContext) -> str:
        return "а" * args.size


def make_registry() -> ToolRegistry:
    """Registry served in the tests (also loaded by the stdio subprocess)."""
    return ToolRegistry([WhoAmITool(), LongTextTool(), FinalAnswerTool()])


class ThreadedASGI:
    """uvicorn with lifespan in a daemon thread on a free loopback port."""

    def __init__(self, app: Any) -> None:
        self.port = free_port()
        self._server = uvicorn.Server(
            uvicorn.Config(app, host="127.0.0.1", port=self.port, log_level="warning")
        )
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def __enter__(self) -> ThreadedASGI:
        self._thread.start()
        deadline = time.monotonic() + 10
        while not self._server.started:
            if time.monotonic() > deadline or not self._thread.is_alive():
                raise RuntimeError("server did not start")
            time.sleep(0.01)  # readiness polling, not synchronisation by delay
        return self

    def __exit__(self, *exc: object) -> None:
        self._server.should_exit = True
        self._thread.join(timeout=10)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"


@pytest.fixture(scope="module")
def finagent_http() -> Iterator[str]:
    with ThreadedASGI(http_app(build_server(make_registry(), "alice"))) as server:
        yield server.url


@pytest.fixture(scope="module")
def fastmcp_http() -> Iterator[str]:
    from fastmcp import FastMCP

    app = FastMCP("rates")

    @app.tool
    def key_rate(on_date: str) -> str:
        """Key rate of the Bank of Russia on a date (YYYY-MM-DD)."""
        return f"Ключевая ставка на {on_date}: 21%"

    @app.tool
    def big_dump(size: int) -> str:
        """Return a long text."""
        return "x" * size

    @app.tool
    def rate_table(query: RateQuery) -> str:
        """Rates for a period and currencies (nested arguments, a $ref in the schema)."""
        return json.dumps(query.model_dump(), ensure_ascii=False, sort_keys=True)

    with ThreadedASGI(app.http_app(path="/mcp")) as server:
        yield server.url


class Period(BaseModel):
    start: str = Field(description="YYYY-MM-DD")
    end: str = Field(description="YYYY-MM-DD")


class RateQuery(BaseModel):
    period: Period
    currencies: list[str] = Field(default_factory=list)


def http(name: str, url: str, **kw: Any) -> MCPServerConfig:
    return MCPServerConfig(name=name, transport="streamable_http", url=url, **kw)


def by_name(tools: list[Tool[Any]]) -> dict[str, Tool[Any]]:
    return {t.name: t for t in tools}


CTX = ToolContext(user_id="local-user")


async def test_client_calls_finagent_server_over_http_as_configured_user(
    finagent_http: str,
) -> None:
    result = await load_mcp_tools([http("fin", finagent_http)])
    assert result.errors == []
    tools = by_name(result.tools)
    assert set(tools) == {"fin_whoami", "fin_long_text"}  # SGR system tools are not exported
    whoami = tools["fin_whoami"]
    assert "Echo the note" in whoami.description
    assert whoami.input_model.model_json_schema()["properties"]["note"]["description"] == (
        "Any text to echo back"
    )
    # the server acts for its configured user, not the local caller
    assert await whoami.invoke({"note": "привет"}, CTX) == "user=alice note=привет"


async def test_caller_supplied_user_id_is_rejected(finagent_http: str) -> None:
    tools = by_name((await load_mcp_tools([http("fin", finagent_http)])).tools)
    output = await tools["fin_whoami"].invoke({"note": "x", "user_id": "mallory"}, CTX)
    assert output.startswith("Error:") and "cannot be set by the caller" in output
    assert "mallory" not in output.split("failed:")[0]

    async with (
        streamablehttp_client(finagent_http) as (read, write, _),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        listed = await session.list_tools()
        schema = {t.name: t.inputSchema for t in listed.tools}["whoami"]
        assert "user_id" not in schema["properties"]
        raw = await session.call_tool("whoami", {"note": "x", "user_id": "mallory"})
        assert raw.isError
        ok = await session.call_tool("whoami", {"note": "x"})
        assert not ok.isError and ok.content[0].text == "user=alice note=x"  # type: ignore[union-attr]


async def test_tool_error_comes_back_as_error_text(finagent_http: str) -> None:
    tools = by_name((await load_mcp_tools([http("fin", finagent_http)])).tools)
    output = await tools["fin_long_text"].invoke({"size": 0}, CTX)
    assert output.startswith("Error:")  # invalid argument, validated by our input model
    output = await tools["fin_long_text"].invoke({"size": "many"}, CTX)
    assert output.startswith("Error: invalid arguments")


async def test_stdio_server_subprocess() -> None:
    server = MCPServerConfig(
        name="local",
        transport="stdio",
        command=sys.executable,
        args=[
            "-m",
            "finagent.mcp.server",
            "--user",
            "bob",
            "--registry",
            "tests.integration.test_mcp:make_registry",
            "--tool",
            "whoami",
        ],
        cwd=REPO,
    )
    result = await load_mcp_tools([server])
    assert result.errors == []
    tools = by_name(result.tools)
    assert list(tools) == ["local_whoami"]
    assert await tools["local_whoami"].invoke({"note": "stdio"}, CTX) == "user=bob note=stdio"


def test_stdio_stdout_carries_only_the_protocol(tmp_path: Path) -> None:
    """Start-up logs go to stderr: the first stdout line answers ``initialize``."""
    env = {**os.environ, "FINAGENT_DATA_DIR": str(tmp_path), "FINAGENT_CBR_ENABLED": "false"}
    args = ["--registry", "tests.integration.test_mcp:make_registry", "--user", "bob"]
    proc = subprocess.Popen(
        [sys.executable, "-m", "finagent.mcp.server", *args],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        cwd=REPO,
        env=env,
    )
    try:
        assert proc.stdin is not None and proc.stdout is not None
        proc.stdin.write((json.dumps(INITIALIZE) + "\n").encode())
        proc.stdin.flush()
        first = json.loads(proc.stdout.readline())
    finally:
        proc.kill()
        proc.communicate(timeout=30)
    assert first["id"] == 1 and "serverInfo" in first["result"]


async def test_unreachable_server_is_reported_and_others_load(
    finagent_http: str, fastmcp_http: str
) -> None:
    closed = f"http://127.0.0.1:{free_port()}/mcp"
    servers = [
        http("down", closed, timeout_s=5),
        MCPServerConfig(name="nocmd", transport="stdio", command="/nonexistent/mcp-server"),
        http("fin", finagent_http),
        http("rates", fastmcp_http),
    ]
    result = await load_mcp_tools(servers)
    assert len(result.errors) == 2
    assert "'down' is unavailable" in result.errors[0]
    assert "'nocmd' is unavailable" in result.errors[1]
    assert {"fin_whoami", "rates_key_rate"} <= set(by_name(result.tools))


async def test_fastmcp_tool_through_our_client(fastmcp_http: str) -> None:
    result = await load_mcp_tools([http("rates", fastmcp_http)])
    tools = by_name(result.tools)
    key_rate = tools["rates_key_rate"]
    assert "Key rate of the Bank of Russia" in key_rate.description
    assert key_rate.openai_schema()["function"]["name"] == "rates_key_rate"
    assert await key_rate.invoke({"on_date": "2025-02-14"}, CTX) == (
        "Ключевая ставка на 2025-02-14: 21%"
    )
    missing = await key_rate.invoke({}, CTX)
    assert missing.startswith("Error: invalid arguments") and "on_date" in missing


async def test_nested_arguments_and_refs_survive_the_mcp_client(fastmcp_http: str) -> None:
    tools = by_name((await load_mcp_tools([http("rates", fastmcp_http)])).tools)
    table = tools["rates_rate_table"]
    params = table.openai_schema()["function"]["parameters"]
    period = json.dumps(params, ensure_ascii=False)
    # the nested object's own fields reach the LLM (not a bare "object")
    assert "start" in period and "end" in period and "YYYY-MM-DD" in period
    args = {
        "query": {"period": {"start": "2025-01-01", "end": "2025-01-31"}, "currencies": ["USD"]}
    }
    assert json.loads(await table.invoke(args, CTX)) == {
        "currencies": ["USD"],
        "period": {"end": "2025-01-31", "start": "2025-01-01"},
    }
    bad = await table.invoke({"query": {"period": {"start": "2025-01-01"}}}, CTX)
    assert bad.startswith("Error: invalid arguments") and "end" in bad


async def test_output_truncated_at_mcp_context_limit(fastmcp_http: str, finagent_http: str) -> None:
    result = await load_mcp_tools(
        [http("rates", fastmcp_http), http("fin", finagent_http)], context_limit=1000
    )
    tools = by_name(result.tools)
    output = await tools["rates_big_dump"].invoke({"size": 5000}, CTX)
    assert len(output) == 1000 and output.endswith(TRUNCATION_MARKER)
    short = await tools["fin_long_text"].invoke({"size": 999}, CTX)
    assert short == "а" * 999


def test_free_port_is_closed() -> None:
    """Sanity check for the unreachable-server test: nothing listens on a fresh port."""
    port = free_port()
    with socket.socket() as sock, pytest.raises(OSError):
        sock.connect(("127.0.0.1", port))


async def test_research_graph_uses_mcp_tools_from_the_agent_definition(
    finagent_http: str, tmp_path: Path
) -> None:
    from finagent.agents_config import AgentDefinition, ExecutionLimits
    from finagent.graph.research import build_research_graph
    from tests.fakes.llm import ScriptedChatModel, tool_call_message

    reasoning = {
        "reasoning_steps": ["Нужен инструмент MCP", "Потом ответ"],
        "current_situation": "Начало",
        "plan_status": "План",
        "remaining_steps": ["Ответить"],
        "task_completed": False,
    }
    final = {
        "tool_name": "final_answer",
        "reasoning": "Готово",
        "completed_steps": ["Вызвал MCP"],
        "answer": "Готово",
        "status": "completed",
    }
    llm = ScriptedChatModel(
        [
            tool_call_message(
                "NextStep", {**reasoning, "tool": {"tool_name": "fin_whoami", "note": "mcp"}}
            ),
            tool_call_message("NextStep", {**reasoning, "tool": final}),
        ]
    )
    agent = AgentDefinition(
        name="mcp-agent",
        tools=["final_answer"],
        execution=ExecutionLimits(reports_dir=tmp_path, mcp_context_limit=1000),
        mcp_servers=[
            http("fin", finagent_http),
            http("down", f"http://127.0.0.1:{free_port()}/mcp", timeout_s=5),
        ],
    )

    async def provider() -> ToolRegistry:
        return ToolRegistry([FinalAnswerTool()])

    graph = build_research_graph(llm, provider, agent)
    result = await graph.ainvoke(
        {"query": "Кто я?"}, {"configurable": {"thread_id": "m", "user_id": "carol"}}
    )
    assert result["status"] == "completed"
    assert len(result["mcp_errors"]) == 1 and "'down' is unavailable" in result["mcp_errors"][0]
    outputs = [m.content for m in result["messages"] if m.type == "tool"]
    assert outputs[0] == "user=alice note=mcp"  # the MCP server's user, not the run's
    assert "fin_whoami" in str(llm.received[0][0].content)  # offered in the system prompt


def test_mcp_command_needs_a_user_and_a_known_transport() -> None:
    import typer
    from typer.testing import CliRunner

    from finagent.commands.mcp import app as mcp_app

    root = typer.Typer()
    root.add_typer(mcp_app, name="mcp")
    runner = CliRunner()
    missing_user = runner.invoke(root, ["mcp"], env={"FINAGENT_MCP_USER": ""})
    assert missing_user.exit_code == 2 and "FINAGENT_MCP_USER" in missing_user.output
    bad = runner.invoke(root, ["mcp", "--transport", "ws", "--user", "a"])
    assert bad.exit_code == 2 and "stdio" in bad.output
