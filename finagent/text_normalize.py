"""Text normalisation shared by routing and answering: lower case, ё -> е, single spaces."""

from __future__ import annotations


def normalize(text: str) -> str:
    """``text`` in lower case with ё as е and runs of whitespace as one space."""
    return " ".join(text.lower().replace("ё", "е").split())
