"""Prompt texts (Russian), loaded by name from this package's Markdown files."""

from __future__ import annotations

from functools import cache
from importlib import resources


@cache
def load_prompt(name: str) -> str:
    """Text of ``finagent/prompts/<name>.md``; raises FileNotFoundError for unknown names."""
    path = resources.files(__package__).joinpath(f"{name}.md")
    if not path.is_file():
        raise FileNotFoundError(f"no prompt named {name!r}")
    return path.read_text(encoding="utf-8").strip()


def preload_prompts() -> list[str]:
    """Read every prompt once (cached), so serving never touches the disk for one."""
    names = sorted(
        entry.name.removesuffix(".md")
        for entry in resources.files(__package__).iterdir()
        if entry.name.endswith(".md")
    )
    for name in names:
        load_prompt(name)
    return names
