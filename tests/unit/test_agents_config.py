"""Validation of research agent definitions (agents.yaml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from finagent.agents_config import AgentConfigError, load_agents, parse_agents
from finagent.graph.research import ToolNames

REPO = Path(__file__).resolve().parents[2]
KNOWN = {
    "generate_plan",
    "web_search",
    "extract_page_content",
    "final_answer",
    "create_report",
    "fetch_cbr_data",
}

VALID = """
agents:
  research:
    description: Исследование
    tools: [generate_plan, web_search, create_report]
    execution:
      {max_iterations: 6, max_clarifications: 1, reports_dir: out/reports, mcp_context_limit: 2000}
    search: {max_searches: 2, max_results: 3, content_limit: 1500}
    mcp_servers:
      - name: docs
        transport: streamable_http
        url: http://127.0.0.1:8765/mcp
        headers: {Authorization: Bearer abc}
      - name: local
        transport: stdio
        command: python
        args: ["-m", "finagent.mcp.server", "--user", "a"]
        env: {FINAGENT_MCP_USER: a}
  quick:
    tools: [final_answer]
"""


def write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "agents.yaml"
    path.write_text(text, encoding="utf-8")
    return path


def test_valid_file(tmp_path: Path) -> None:
    agents = load_agents(write(tmp_path, VALID), KNOWN)
    assert list(agents) == ["research", "quick"]
    research = agents["research"]
    assert research.name == "research" and research.description == "Исследование"
    assert research.execution.max_iterations == 6
    assert research.execution.reports_dir == Path("out/reports")
    assert research.search.max_results == 3 and research.search.content_limit == 1500
    docs, local = research.mcp_servers
    assert docs.headers == {"Authorization": "Bearer abc"} and docs.transport == "streamable_http"
    assert local.command == "python" and local.args[0] == "-m"
    quick = agents["quick"]
    assert quick.execution.max_iterations == 10 and quick.search.max_searches == 4  # defaults


def test_packaged_agents_yaml_is_valid() -> None:
    agents = load_agents(REPO / "finagent" / "agents.yaml", ToolNames())
    assert "research" in agents
    assert "create_report" in agents["research"].tools


def test_unknown_tool_is_named(tmp_path: Path) -> None:
    text = VALID.replace("[generate_plan, web_search", "[generate_plan, web_serch")
    with pytest.raises(AgentConfigError, match="agent 'research': unknown tools: web_serch"):
        load_agents(write(tmp_path, text), KNOWN)


@pytest.mark.parametrize(
    ("fragment", "replacement", "message"),
    [
        ("max_iterations: 6", "max_iterations: 0", "execution.max_iterations"),
        ("max_searches: 2", "max_searches: -1", "search.max_searches"),
        ("content_limit: 1500", "content_limit: lots", "search.content_limit"),
        ("mcp_context_limit: 2000", "mcp_context_limit: 10", "mcp_context_limit"),
        ("max_clarifications: 1", "max_clarifications: 1, max_steps: 3", "max_steps"),
        ("transport: stdio", "transport: websocket", "transport"),
        ("command: python", "cmd: python", "mcp_servers.1.cmd: Extra inputs are not permitted"),
        ("command: python", "command: ''", "stdio transport needs 'command'"),
        ("url: http://127.0.0.1:8765/mcp", "url: ftp://x", r"needs an http\(s\) 'url'"),
        ("name: local", "name: docs", "names must be unique"),
        ("tools: [final_answer]", "tools: [fetch_cbr_data]", "needs at least one final tool"),
        ("tools: [final_answer]", "tools: []", "quick.tools"),
    ],
)
def test_bad_values_are_reported_with_their_location(
    tmp_path: Path, fragment: str, replacement: str, message: str
) -> None:
    assert fragment in VALID
    with pytest.raises(AgentConfigError, match=message) as err:
        load_agents(write(tmp_path, VALID.replace(fragment, replacement, 1)), KNOWN)
    assert str(err.value).startswith(str(tmp_path / "agents.yaml"))


def test_missing_and_malformed_files(tmp_path: Path) -> None:
    with pytest.raises(AgentConfigError, match="file not found"):
        load_agents(tmp_path / "nope.yaml", KNOWN)
    with pytest.raises(AgentConfigError, match="invalid YAML"):
        load_agents(write(tmp_path, "agents: [unclosed"), KNOWN)
    with pytest.raises(AgentConfigError, match="expected a mapping"):
        parse_agents(["not", "a", "mapping"], KNOWN)
    with pytest.raises(AgentConfigError, match="agents"):
        parse_agents({"agents": {}}, KNOWN)


def test_without_known_tools_names_are_not_checked() -> None:
    agents = parse_agents({"agents": {"a": {"tools": ["anything", "final_answer"]}}})
    assert agents["a"].tools == ["anything", "final_answer"]


def test_catalogue_accepts_aggregate_tool_names_but_not_typos() -> None:
    names = ToolNames(["extra_tool"])
    assert "Req_Compare_Rates_For_Dates" in names and "extra_tool" in names
    assert "search_general_kb" in names and "final_answer" in names
    assert "Req_Compare" not in names and "search_genral_kb" not in names
