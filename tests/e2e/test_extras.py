"""The core install runs the agent alone; a command that needs a missing extra ends with
one line naming it (docs/configuration.md, "Extras").

Each subprocess runs with ``tests/fakes/no_extras`` first on ``PYTHONPATH``: its
``sitecustomize`` makes the modules of the optional extras unimportable, as if they had
never been installed.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from finagent.extras import EXTRA_OF_MODULE, MissingExtraError, extra_of, missing_extra
from tests.conftest import REPO_ROOT
from tests.e2e.conftest import cli_env

BLOCKER = REPO_ROOT / "tests" / "fakes" / "no_extras"
ALL_OPTIONAL = ",".join(EXTRA_OF_MODULE)


def without(env: dict[str, str], modules: str) -> dict[str, str]:
    """``env`` with ``modules`` (comma-separated) unimportable in the child process."""
    path = os.pathsep.join(p for p in (str(BLOCKER), str(REPO_ROOT), env.get("PYTHONPATH")) if p)
    return {**env, "PYTHONPATH": path, "FINAGENT_TEST_UNIMPORTABLE": modules}


def finagent(env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "finagent.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=120,  # a command that hangs instead of failing fails here
        cwd=REPO_ROOT,
        stdin=subprocess.DEVNULL,
    )


def assert_one_line_naming(result: subprocess.CompletedProcess[str], extra: str) -> None:
    assert result.returncode == 2, result.stderr[-2000:]
    assert "Traceback" not in result.stderr, result.stderr[-2000:]
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("Ошибка: ") and f"pip install 'finagent[{extra}]'" in lines[0]


def test_the_blocker_really_blocks(tmp_path: Path) -> None:
    env = without(cli_env(tmp_path / "data"), "fastapi")
    probe = subprocess.run(
        [sys.executable, "-c", "import fastapi"], env=env, capture_output=True, text=True
    )
    assert probe.returncode == 1 and "No module named 'fastapi'" in probe.stderr


def test_ask_runs_on_the_core_install_alone(tmp_path: Path) -> None:
    env = without(cli_env(tmp_path / "data"), ALL_OPTIONAL)
    result = finagent(env, "ask", "Какой штраф за непредставление декларации?")
    assert result.returncode == 0, result.stderr[-2000:]
    assert "## Краткий вывод" in result.stdout


def test_serve_without_the_server_extra_names_it(tmp_path: Path) -> None:
    env = {**cli_env(tmp_path / "data"), "FINAGENT_API_TOKENS": "tok-alice-0001:alice"}
    assert_one_line_naming(finagent(without(env, "fastapi"), "serve"), "server")
    assert_one_line_naming(finagent(without(env, "sse_starlette"), "serve"), "server")


def test_mcp_without_the_mcp_extra_names_it(tmp_path: Path) -> None:
    env = without(cli_env(tmp_path / "data"), "mcp")
    assert_one_line_naming(finagent(env, "mcp"), "mcp")


def test_postgres_url_without_the_postgres_extra_names_it(tmp_path: Path) -> None:
    env = {
        **cli_env(tmp_path / "data"),
        "FINAGENT_POSTGRES_URL": "postgresql://finagent:s3cret-pw@127.0.0.1:1/finagent",
    }
    result = finagent(without(env, "psycopg"), "ask", "Какая ставка НДС?")
    assert_one_line_naming(result, "postgres")
    assert "s3cret-pw" not in result.stderr


@pytest.mark.parametrize(
    ("module", "extra"),
    [
        ("fastapi.responses", "server"),
        ("langgraph.checkpoint.postgres.aio", "postgres"),
        ("langchain_mcp_adapters.client", "mcp"),
        ("pandas", "eval"),
        ("langgraph.checkpoint.sqlite", None),  # core: not an extra's
        ("numpy", None),
    ],
)
def test_extra_of_a_module(module: str, extra: str | None) -> None:
    assert extra_of(module) == extra


def test_missing_extra_is_found_through_causes_and_groups() -> None:
    try:
        try:
            raise ModuleNotFoundError("No module named 'uvicorn'", name="uvicorn")
        except ModuleNotFoundError as inner:
            raise RuntimeError("start-up failed") from inner
    except RuntimeError as outer:
        group = ExceptionGroup("task group", [ValueError("other"), outer])
    found = missing_extra(group)
    assert isinstance(found, MissingExtraError) and found.extra == "server"
    assert "pip install 'finagent[server]'" in str(found)
    assert missing_extra(ModuleNotFoundError("x", name="numpy")) is None
