"""Research agent definitions loaded from YAML (``agents.yaml``).

The default definitions ship with the package (``finagent/agents.yaml``) and are found
from any working directory; ``FINAGENT_AGENTS_CONFIG`` points to another file.

Format (every key except ``tools`` has a default)::

    agents:
      research:
        description: Исследование финансовых и налоговых вопросов
        prompt: research_system          # finagent/prompts/<name>.md
        tools: [generate_plan, web_search, extract_page_content, final_answer, create_report]
        execution: {max_iterations: 10, max_clarifications: 2, reports_dir: null,
                    mcp_context_limit: 15000}
        search: {max_searches: 4, max_results: 5, content_limit: 3500}
        mcp_servers:
          - {name: docs, transport: streamable_http, url: "http://127.0.0.1:8765/mcp",
             headers: {Authorization: "Bearer ..."}}
          - {name: local, transport: stdio, command: python, args: ["-m", "server"], env: {}}
"""

from __future__ import annotations

import re
from collections.abc import Collection
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator, model_validator

from finagent.tools.sgr import FINAL_TOOLS

_NAME = re.compile(r"^[A-Za-z][A-Za-z0-9_-]{0,39}$")


class AgentConfigError(ValueError):
    """The agents file is missing, unreadable or invalid; the message says where and why."""


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ExecutionLimits(_Strict):
    max_iterations: int = Field(default=10, ge=1, le=50)
    max_clarifications: int = Field(default=2, ge=0, le=10)
    reports_dir: Path | None = Field(
        default=None, description="Where create_report writes (default: settings.reports_path)"
    )
    mcp_context_limit: int = Field(default=15_000, ge=500, le=200_000)
    # tool outputs in the prompt: per step and for the whole run (about 4 characters a
    # token: 24 000 characters keep a run's outputs near 6k tokens)
    max_step_output_chars: int = Field(default=6_000, ge=200, le=200_000)
    max_total_output_chars: int = Field(default=24_000, ge=200, le=1_000_000)


class SearchLimits(_Strict):
    max_searches: int = Field(default=4, ge=0, le=50)
    max_results: int = Field(default=5, ge=1, le=20)
    content_limit: int = Field(default=3500, ge=200, le=100_000)


class MCPServerConfig(_Strict):
    """One MCP server whose tools the agent may use (named ``<name>_<tool>``)."""

    name: str
    transport: Literal["stdio", "streamable_http"]
    command: str | None = None
    args: list[str] = Field(default_factory=list)
    env: dict[str, str] | None = None
    cwd: Path | None = None
    url: str | None = None
    headers: dict[str, str] = Field(default_factory=dict)
    timeout_s: float = Field(default=30.0, gt=0, le=600)

    @field_validator("name")
    @classmethod
    def _check_name(cls, value: str) -> str:
        if not _NAME.match(value):
            raise ValueError("must start with a letter and use only letters, digits, _ or -")
        return value

    @model_validator(mode="after")
    def _check_transport(self) -> MCPServerConfig:
        if self.transport == "stdio" and not self.command:
            raise ValueError("stdio transport needs 'command'")
        if self.transport == "streamable_http":
            if not self.url or not self.url.startswith(("http://", "https://")):
                raise ValueError("streamable_http transport needs an http(s) 'url'")
        return self


class AgentDefinition(_Strict):
    """A research agent: its toolkit, limits and MCP servers."""

    name: str = ""
    description: str = ""
    prompt: str = "research_system"
    tools: list[str] = Field(min_length=1)
    execution: ExecutionLimits = Field(default_factory=ExecutionLimits)
    search: SearchLimits = Field(default_factory=SearchLimits)
    mcp_servers: list[MCPServerConfig] = Field(default_factory=list)

    @field_validator("tools")
    @classmethod
    def _check_tools(cls, value: list[str]) -> list[str]:
        duplicates = sorted({t for t in value if value.count(t) > 1})
        if duplicates:
            raise ValueError(f"duplicate tools: {', '.join(duplicates)}")
        if not FINAL_TOOLS & set(value):
            raise ValueError(f"needs at least one final tool: {', '.join(sorted(FINAL_TOOLS))}")
        return value

    @model_validator(mode="after")
    def _check_servers(self) -> AgentDefinition:
        names = [s.name for s in self.mcp_servers]
        if len(names) != len(set(names)):
            raise ValueError("mcp_servers names must be unique")
        return self


class AgentsFile(_Strict):
    agents: dict[str, AgentDefinition] = Field(min_length=1)


DEFAULT_AGENT = "research"
#: The agent definitions shipped with the package (used when no file is configured).
PACKAGED_AGENTS = Path(__file__).with_name("agents.yaml")


def agents_path(configured: Path | None) -> Path:
    """The agents file to load: the configured one (which must exist) or the packaged one."""
    if configured is None:
        return PACKAGED_AGENTS
    if not configured.is_file():
        where = configured if configured.is_absolute() else Path.cwd() / configured
        raise AgentConfigError(
            f"{configured}: file not found (FINAGENT_AGENTS_CONFIG points to {where}); "
            "unset it to use the agents shipped with finagent"
        )
    return configured


def parse_agents(
    data: Any, known_tools: Collection[str] | None = None, *, source: str = "agents config"
) -> dict[str, AgentDefinition]:
    """Validate already-parsed YAML; ``known_tools`` (if given) must contain every tool."""
    if not isinstance(data, dict):
        raise AgentConfigError(f"{source}: expected a mapping with an 'agents' key")
    try:
        parsed = AgentsFile.model_validate(data)
    except ValidationError as exc:
        raise AgentConfigError(f"{source}: " + _summary(exc)) from exc
    known = known_tools
    agents: dict[str, AgentDefinition] = {}
    for name, agent in parsed.agents.items():
        if not _NAME.match(name):
            raise AgentConfigError(f"{source}: agent name {name!r} is not a valid identifier")
        if known is not None:
            unknown = [t for t in agent.tools if t not in known]
            if unknown:
                raise AgentConfigError(
                    f"{source}: agent {name!r}: unknown tools: {', '.join(unknown)}; "
                    f"known tools: {', '.join(sorted(known))}"
                )
        agents[name] = agent.model_copy(update={"name": name})
    return agents


def load_agents(
    path: Path | str, known_tools: Collection[str] | None = None
) -> dict[str, AgentDefinition]:
    """Agent definitions from a YAML file, validated against ``known_tools``."""
    path = Path(path)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise AgentConfigError(f"{path}: file not found") from exc
    except (OSError, UnicodeDecodeError) as exc:
        raise AgentConfigError(f"{path}: cannot read ({type(exc).__name__})") from exc
    except yaml.YAMLError as exc:
        raise AgentConfigError(f"{path}: invalid YAML ({exc})") from exc
    return parse_agents(data, known_tools, source=str(path))


def _summary(exc: ValidationError) -> str:
    parts = []
    for err in exc.errors()[:8]:
        loc = ".".join(str(p) for p in err["loc"]) or "root"
        message = err["msg"].removeprefix("Value error, ")
        parts.append(f"{loc}: {message}")
    return "; ".join(parts)
