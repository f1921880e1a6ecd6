"""Does the Краткий вывод contain the expected values? Both sides normalised alike."""

from __future__ import annotations

import re
from collections.abc import Sequence

from evals.answers.text import answer_body, summary_section
from finagent.answering.edition import without_dating_warning
from finagent.answering.messages import FROM_KNOWLEDGE_BASE
from finagent.answering.quotation import is_quoted, outer_quotations, plain_sources

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


def _quotations(line: str) -> list[tuple[int, int]]:
    """The outermost «...» quotations of one line, as (start, end) spans with their marks;
    one left open runs to the line's end."""
    closed, left_open = outer_quotations(line)
    spans = [(opened, closing + 1) for opened, closing in closed]
    return [*spans, (left_open, len(line))] if left_open >= 0 else spans


def lead_line(summary: str, sources: Sequence[str]) -> str:
    """What the Краткий вывод's lead states in its own words: its first line without the
    «...» quotations copied from a cited source (:func:`~finagent.answering.quotation.
    is_quoted`). A value line («Срок — один месяц (п. 6 ст. 100 НК РФ) [1].») keeps its
    value; a lead that only quotes («Согласно п. 6 ст. 100 НК РФ: «…» [1]») keeps its
    introduction alone. A party's name in quotes (АО «Вектор») is shorter than a copied
    passage and stays. A notice that a live source is unavailable and the knowledge base
    answers instead is no lead: the line after it is."""
    lines = [ln.strip() for ln in summary.splitlines() if ln.strip()]
    line = next((ln for ln in lines if not ln.endswith(FROM_KNOWLEDGE_BASE)), "")
    if not line:
        return ""
    plain = plain_sources(sources)
    kept, last = [], 0
    for start, end in _quotations(line):
        if is_quoted(line[start:end], plain):
            kept.append(line[last:start])
            last = end
    kept.append(line[last:])
    return " ".join(" ".join(kept).split())
