"""Legal references of an answer: supported by the retrieved sources, quoted verbatim from
them, or unsupported."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from evals.answers.code_units import CodeUnits
from evals.answers.text import CITATION, abstained, answer_body, normalise
from finagent.legal.references import LegalReference, find_references

MIN_QUOTE_CHARS = 25
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[«\"(A-ZА-ЯЁ])|\n+")
_LEADING = re.compile(r"^(?:[>*\-•]\s*|\d+[.)]\s+|#+\s*)+")


def _sentences(body: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _SENTENCE_END.finditer(body):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(body)))
    return spans


def _sentence_at(body: str, position: int) -> str:
    for start, end in _sentences(body):
        if start <= position < end or position == end:
            return body[start:end]
    return ""


# Markdown emphasis of a source («штраф **5 000 руб.**») is markup, not words: an answer
# quotes the sentence without it
_EMPHASIS = re.compile(r"\*+|(?<!\w)_+|_+(?!\w)")


def _plain(text: str) -> str:
    return normalise(_EMPHASIS.sub("", text))


def is_quoted(passage: str, texts: Sequence[str]) -> bool:
    """The passage, citation markers and list/quote marks removed, occurs in a text (both
    without Markdown emphasis)."""
    cleaned = _LEADING.sub("", CITATION.sub(" ", passage).strip())
    # a long sentence is quoted in windows marked «…» at either end: the words between
    # the marks are the source's
    needle = _plain(cleaned.strip('«»"“” ')).removesuffix("...").rstrip(" .;:,…")
    needle = needle.removeprefix("...").lstrip(" …")
    if len(needle) < MIN_QUOTE_CHARS:
        return False
    return any(needle in _plain(t) for t in texts)


def _quotation_at(body: str, start: int, end: int) -> str | None:
    """The outermost «...» quotation that holds ``body[start:end]``, or None."""
    depth, opened = 0, -1
    for i, char in enumerate(body):
        if char == "«":
            if depth == 0:
                opened = i
            depth += 1
        elif char == "»" and depth:
            depth -= 1
            if depth == 0:
                if opened <= start and i >= end:
                    return body[opened + 1 : i]
                if opened > end:
                    return None
    return None


def quoted_reference(body: str, ref: LegalReference, texts: Sequence[str]) -> bool:
    """The reference sits in a sentence or a «...» quotation copied from a retrieved text."""
    if is_quoted(_sentence_at(body, ref.start), texts):
        return True
    quotation = _quotation_at(body, ref.start, ref.end)
    return quotation is not None and is_quoted(quotation, texts)


def reference_report(
    outputs: dict[str, Any], code: CodeUnits, question: str = ""
) -> dict[str, Any]:
    """Every legal reference of the answer body, classed as supported, quoted or unsupported.

    An abstention that names a reference of the question as missing («ст. 999 НК РФ нет в
    загруженном тексте») cites nothing: such references are counted as *named missing*.
    """
    answer = str(outputs.get("answer") or "")
    body = answer_body(answer)
    retrieved = list(outputs.get("retrieved") or [])
    articles = {str(r.get("article_id")) for r in retrieved if r.get("article_id")}
    texts = [str(r.get("text") or "") for r in retrieved]
    asked = {ref.label for ref in find_references(question)} if abstained(answer) else set()
    report: dict[str, Any] = {
        "supported": [],
        "quoted": [],
        "unsupported": [],
        "named_missing": [],
    }
    for ref in find_references(body):
        resolved = code.resolve(ref)
        reason = None
        if not resolved:
            reason = "unresolved"
        elif not articles.intersection(resolved):
            reason = "not_retrieved"
        entry = {"text": ref.text, "label": ref.label}
        if reason is None:
            report["supported"].append(entry)
        elif ref.label in asked:
            report["named_missing"].append(entry)
        elif quoted_reference(body, ref, texts):
            report["quoted"].append({**entry, "reason": reason})
        else:
            report["unsupported"].append({**entry, "reason": reason})
    return report
