"""Fixtures of the command-line tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


def cli_env(data_dir: Path) -> dict[str, str]:
    """A ``finagent`` process environment on ``data_dir``: no Bank of Russia, no LLM."""
    return {
        **os.environ,
        "FINAGENT_DATA_DIR": str(data_dir),
        "FINAGENT_CBR_ENABLED": "false",
        "FINAGENT_LLM_API_KEY": "",
        "OPENROUTER_API_KEY": "",
        "FINAGENT_LLM_MODEL": "",
    }


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A ``finagent`` process environment with a fresh data dir."""
    return cli_env(tmp_path / "data")
