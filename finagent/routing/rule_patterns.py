"""The rule router's pattern data (``finagent/routing/data/rules.yaml``), loaded once."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from importlib import resources

from finagent.yaml_data import load_yaml

_PLACEHOLDER = re.compile(r"\{([A-Z_]+)\}")


@dataclass(frozen=True)
class RulePatterns:
    fragments: dict[str, str]
    """Single patterns, by name."""
    patterns: dict[str, tuple[str, ...]]
    """Alternatives of a rule, by name: the rule fires when any matches."""
    words: dict[str, frozenset[str]]
    """Whole-query word sets, by name."""


def _join(value: str | list[str]) -> str:
    return value if isinstance(value, str) else "".join(value)


@cache
def rule_patterns() -> RulePatterns:
    """The data file parsed: pieces joined and ``{NAME}`` replaced by fragment NAME."""
    text = resources.files("finagent.routing").joinpath("data/rules.yaml").read_text("utf-8")
    raw = load_yaml(text)
    fragments = {name: _join(value) for name, value in raw["fragments"].items()}

    def fill(pattern: str) -> str:
        return _PLACEHOLDER.sub(lambda m: fragments[m.group(1)], pattern)

    fragments = {name: fill(value) for name, value in fragments.items()}
    return RulePatterns(
        fragments=fragments,
        patterns={
            name: tuple(fill(_join(p)) for p in values) for name, values in raw["patterns"].items()
        },
        words={name: frozenset(values) for name, values in raw["words"].items()},
    )
