"""Small text helpers for what the CLI prints."""

from __future__ import annotations

import re

_SPACE = re.compile(r"\s+")
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+(?=[A-ZА-ЯЁ])")
SUMMARY_CHARS = 160


def first_paragraph(text: str) -> str:
    """A docstring's first paragraph on one line; a long one is cut after its first
    sentence (never mid-phrase)."""
    paragraph = _SPACE.sub(" ", text.strip().split("\n\n", 1)[0]).strip()
    if len(paragraph) <= SUMMARY_CHARS:
        return paragraph
    return _SENTENCE_END.split(paragraph, 1)[0]
