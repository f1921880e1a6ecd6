"""Fixtures of the command-line tests."""

from __future__ import annotations

import os
from pathlib import Path

import pytest


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    """A ``finagent`` process environment: a fresh data dir, no Bank of Russia, no LLM."""
    return {
        **os.environ,
        "FINAGENT_DATA_DIR": str(tmp_path / "data"),
        "FINAGENT_CBR_ENABLED": "false",
        "FINAGENT_LLM_API_KEY": "",
        "OPENROUTER_API_KEY": "",
        "FINAGENT_LLM_MODEL": "",
    }
