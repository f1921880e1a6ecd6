"""Does the Краткий вывод contain the expected values? Both sides normalised alike."""

from __future__ import annotations

import re
from collections.abc import Sequence

from evals.answers.text import answer_body, summary_section
from finagent.answering.edition import without_dating_warning

# no-break, thin, figure and narrow no-break spaces, and other Unicode spaces
_SPACES = re.compile(r"[\s\u00a0\u2007\u2009\u202f\u200b]+")
_QUOTES = re.compile(r"[«»“”„\"'‘’‹›]")
_DASHES = re.compile(r"[‐‑‒–—−]")
_THOUSANDS = re.compile(r"(?<=\d) (?=\d{3}(?!\d))")  # «297 200» -> «297200»
_DECIMAL_COMMA = re.compile(r"(?<=\d),(?=\d)")  # «0,1» -> «0.1»
_PERCENT = re.compile(r" ?%")  # «20 %» -> «20%»
_EDGE_PUNCT = " .,;:!?…"


def normalise_value(text: str) -> str:
    """Case, ё, spaces (NBSP, thin), spaces inside numbers, «%» spacing, quotes and
    dashes made uniform; leading and trailing punctuation dropped."""
    text = text.lower().replace("ё", "е")
    text = _QUOTES.sub("", text)
    text = _DASHES.sub("-", text)
    text = _SPACES.sub(" ", text)
    text = _THOUSANDS.sub("", text)
    text = _DECIMAL_COMMA.sub(".", text)
    text = _PERCENT.sub("%", text)
    return text.strip(_EDGE_PUNCT)


def group_met(text: str, alternatives: Sequence[str]) -> bool:
    """Some alternative occurs in ``text`` (after normalising both)."""
    haystack = normalise_value(text)
    return any((needle := normalise_value(a)) and needle in haystack for a in alternatives)


def missing_groups(text: str, groups: Sequence[Sequence[str]]) -> list[list[str]]:
    """The groups none of whose alternatives occurs in ``text``."""
    return [list(g) for g in groups if not group_met(text, g)]


def first_section(answer: str) -> str:
    """The Краткий вывод of an answer; without that heading, its first paragraph (what a
    reader sees first: a clarification, a refusal, a bare answer). The dating warning is
    left out: its source dates are not the value asked."""
    body = without_dating_warning(answer_body(answer))
    summary = summary_section(body)
    if summary is not None:
        return without_dating_warning(summary)
    paragraphs = [p.strip() for p in re.split(r"\n\s*\n", body) if p.strip()]
    return paragraphs[0] if paragraphs else ""
