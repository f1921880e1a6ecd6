"""Legal references of an answer: supported by the retrieved sources, quoted verbatim from
them (:mod:`finagent.answering.quotation`, shared with the agent's check), or unsupported."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evals.answers.code_units import CodeUnits
from evals.answers.text import abstained, answer_body
from finagent.answering import quotation
from finagent.legal.references import LegalReference, find_references

# the definition of a quoted passage is the agent's own reference check's (one mechanism:
# what the agent leaves in an answer, this count finds supported or quoted)
MIN_QUOTE_CHARS = quotation.MIN_QUOTE_CHARS


def is_quoted(passage: str, texts: Sequence[str]) -> bool:
    """The passage, citation markers and list/quote marks removed, occurs in a text (both
    without Markdown emphasis and list bullets)."""
    return quotation.is_quoted(passage, quotation.plain_sources(texts))


def quoted_reference(body: str, ref: LegalReference, texts: Sequence[str]) -> bool:
    """The reference sits in a sentence or a «...» quotation copied from a retrieved text."""
    return quotation.quoted_span(body, ref.start, ref.end, quotation.plain_sources(texts))


def reference_report(
    outputs: dict[str, Any], code: CodeUnits, question: str = ""
) -> dict[str, Any]:
    """Every legal reference of the answer body, classed as supported, quoted or unsupported.

    An abstention that names a reference of the question as missing («ст. 999 НК РФ нет в
    загруженном тексте») cites nothing: such references are counted as *named missing*.
    An abstention states no norm either: a reference in it that names another code (the
    title of a user's document listed, «… ст. 198–208 ТК РФ») is counted as *other code*.
    """
    answer = str(outputs.get("answer") or "")
    body = answer_body(answer)
    retrieved = list(outputs.get("retrieved") or [])
    articles = {str(r.get("article_id")) for r in retrieved if r.get("article_id")}
    texts = quotation.plain_sources(str(r.get("text") or "") for r in retrieved)
    declined = abstained(answer)
    asked = {ref.label for ref in find_references(question)} if declined else set()
    report: dict[str, Any] = {
        "supported": [],
        "quoted": [],
        "unsupported": [],
        "named_missing": [],
        "other_code": [],
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
        elif declined and ref.code not in (None, "nk"):
            report["other_code"].append(entry)
        elif quotation.quoted_span(body, ref.start, ref.end, texts):
            report["quoted"].append({**entry, "reason": reason})
        else:
            report["unsupported"].append({**entry, "reason": reason})
    return report
