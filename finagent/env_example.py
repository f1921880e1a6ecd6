"""``.env.example``: every setting of :class:`finagent.config.Settings` with its default.

Rendered from the Settings model itself (names, aliases, descriptions, defaults, and the
``# --- section ---`` comments of finagent/config.py), then the variables read outside it
(:data:`OTHER_VARIABLES`: the evaluation suites' datasets, LangSmith's tracing switch and
key), so it cannot drift:
``python scripts/env_example.py`` rewrites the file and tests/unit/test_env_example.py
fails when it is stale. Every assignment is commented out: a copy used as ``.env``
changes nothing until a line is uncommented.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from pydantic import AliasChoices, SecretStr
from pydantic.fields import FieldInfo

from finagent.config import Settings

HEADER = """\
# finagent settings: every variable with its default (docs/configuration.md).
# Generated from finagent/config.py by `python scripts/env_example.py`; do not edit by hand.
# Copy to .env (finagent and `langgraph dev/build` read it) and uncomment what you change.
# Never commit a .env with real keys or passwords.
"""


@dataclass(frozen=True)
class OtherVariable:
    """A variable read outside Settings (by ``evals`` or a library finagent drives)."""

    name: str
    default: str
    description: str
    aliases: tuple[str, ...] = ()


#: What finagent reads from the environment besides Settings. tests/unit/test_env_example.py
#: fails when the code names a FINAGENT_/LANGSMITH_ variable that neither lists.
OTHER_VARIABLES = (
    OtherVariable(
        "FINAGENT_EVAL_DATASETS_DIR",
        "",
        "Folder of evaluation datasets with the shipped files' names (read by evals; "
        "empty: the package's evals/datasets)",
    ),
    OtherVariable(
        "LANGSMITH_TRACING",
        "false",
        "Trace runs to LangSmith, redacted (finagent/tracing.py; off without a key)",
    ),
    OtherVariable(
        "LANGSMITH_API_KEY",
        "",
        "LangSmith key for tracing and the evaluation uploads (none: nothing leaves)",
        aliases=("LANGCHAIN_API_KEY",),
    ),
)

_SECTION = re.compile(r"^    # --- (.+?) -+\s*$")
_FIELD = re.compile(r"^    (\w+)\s*:")
_PLAIN = re.compile(r"^[\w./:@+-]*$")


def env_names(name: str, field: FieldInfo) -> list[str]:
    """The environment variables of a field, the canonical one first."""
    alias = field.validation_alias
    if isinstance(alias, AliasChoices):
        return [str(choice) for choice in alias.choices]
    if isinstance(alias, str):
        return [alias]
    return [f"FINAGENT_{name.upper()}"]


def env_value(value: Any) -> str:
    """A default as a dotenv value (quoted when it is not a plain word)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif isinstance(value, SecretStr):
        text = value.get_secret_value()
    elif isinstance(value, Enum):
        text = str(value.value)
    elif isinstance(value, Path):
        text = str(value)
    else:
        text = str(value)
    if _PLAIN.match(text):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _sections() -> dict[str, str]:
    """Field name -> the section comment above it in finagent/config.py."""
    sections: dict[str, str] = {}
    current = ""
    for line in inspect.getsource(Settings).splitlines():
        if found := _SECTION.match(line):
            current = found.group(1).strip()
        elif (field := _FIELD.match(line)) and field.group(1) in Settings.model_fields:
            sections[field.group(1)] = current
    return sections


def render() -> str:
    """The text of ``.env.example``."""
    sections = _sections()
    parts = [HEADER]
    shown = None
    for name, field in Settings.model_fields.items():
        section = sections.get(name, "")
        if section != shown:
            parts.append(f"\n# === {section or 'other'} ===\n")
            shown = section
        lines: list[str] = []
        if field.description:
            lines += textwrap.wrap(field.description, 96, initial_indent="# ")
            lines = [line if line.startswith("# ") else "# " + line for line in lines]
        names = env_names(name, field)
        if len(names) > 1:
            lines.append("# also read as: " + ", ".join(names[1:]))
        lines.append(f"# {names[0]}={env_value(field.get_default(call_default_factory=True))}")
        parts.append("\n".join(lines) + "\n")
    parts.append("\n# === read outside Settings (evaluation, LangSmith) ===\n")
    for other in OTHER_VARIABLES:
        lines = ["# " + line for line in textwrap.wrap(other.description, 94)]
        if other.aliases:
            lines.append("# also read as: " + ", ".join(other.aliases))
        lines.append(f"# {other.name}={env_value(other.default)}")
        parts.append("\n".join(lines) + "\n")
    return "".join(parts)
