"""``.env.example`` lists every setting with its default, in sync with finagent/config.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from finagent.config import Settings
from finagent.env_example import OTHER_VARIABLES, env_names, render
from tests.conftest import REPO_ROOT

ENV_EXAMPLE = REPO_ROOT / ".env.example"


def test_the_file_is_what_the_settings_model_renders() -> None:
    assert ENV_EXAMPLE.read_text(encoding="utf-8") == render(), (
        ".env.example is stale: run `python scripts/env_example.py`"
    )


def test_every_setting_is_listed_once() -> None:
    text = ENV_EXAMPLE.read_text(encoding="utf-8")
    assigned = re.findall(r"^# (\w+)=", text, flags=re.MULTILINE)
    expected = [env_names(name, field)[0] for name, field in Settings.model_fields.items()]
    assert assigned == expected + [other.name for other in OTHER_VARIABLES]


# a variable's name as the code spells it; ``FINAGENT_LLM_`` alone is a prefix in prose
_VARIABLE = re.compile(r"\b((?:FINAGENT|LANGSMITH|LANGCHAIN)_[A-Z0-9_]*[A-Z0-9])\b")
_NOT_VARIABLES = {"LANGSMITH_KEY_VARS"}  # a constant naming the key variables


def test_every_variable_the_code_names_is_listed() -> None:
    """A FINAGENT_/LANGSMITH_ variable named anywhere in finagent/ or evals/ (read with
    ``os.environ``, through Settings, or by LangSmith) is in the file."""
    listed = {n for name, field in Settings.model_fields.items() for n in env_names(name, field)}
    listed |= {n for other in OTHER_VARIABLES for n in (other.name, *other.aliases)}
    named = {
        (found, str(path.relative_to(REPO_ROOT)))
        for tree in ("finagent", "evals")
        for path in (REPO_ROOT / tree).rglob("*.py")
        for found in _VARIABLE.findall(path.read_text(encoding="utf-8"))
    }
    missing = sorted((n, p) for n, p in named if n not in listed | _NOT_VARIABLES)
    assert not missing, f"add these to Settings or OTHER_VARIABLES: {missing}"
    text = ENV_EXAMPLE.read_text(encoding="utf-8")
    for other in OTHER_VARIABLES:
        assert f"# {other.name}=" in text


def test_uncommented_it_reproduces_every_default(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Used as ``.env`` with every line uncommented, the file changes no setting: each
    value is the default, written so that pydantic-settings reads it back."""
    for name, field in Settings.model_fields.items():
        for variable in env_names(name, field):
            monkeypatch.delenv(variable, raising=False)
    text = ENV_EXAMPLE.read_text(encoding="utf-8")
    dotenv = tmp_path / ".env"
    dotenv.write_text(re.sub(r"^# (\w+=)", r"\1", text, flags=re.MULTILINE), encoding="utf-8")
    from_file = Settings(_env_file=dotenv)  # type: ignore[call-arg]
    defaults = Settings(_env_file=None)  # type: ignore[call-arg]
    assert from_file.model_dump() == defaults.model_dump()
