"""Text of an answer as the scores read it: the body before «Источники», its Краткий вывод,
the figures it states, normalised text."""

from __future__ import annotations

import re

from finagent.legal.references import find_references

ABSTENTION_MARKER = "нет оснований для ответа"
_SOURCES = re.compile(r"\n#+\s*Источники\b")
_HEADING = re.compile(r"^#+\s*(.+?)\s*$", re.MULTILINE)
CITATION = re.compile(r"\[(\d+)\]")
_NUMBER = re.compile(r"\d+(?:[ \u00a0\u202f]\d{3})*(?:[.,]\d+)?")


def normalise(text: str) -> str:
    """Lower case, ё as е, whitespace collapsed (for phrase and quote matching)."""
    return " ".join(text.lower().replace("ё", "е").split())


def answer_body(answer: str) -> str:
    """The answer without its «## Источники» section."""
    return _SOURCES.split("\n" + answer, maxsplit=1)[0].strip()


def summary_section(body: str) -> str | None:
    """The text under the «Краткий вывод» heading up to the next heading, or None."""
    headings = list(_HEADING.finditer(body))
    for i, match in enumerate(headings):
        if normalise(match.group(1)).startswith("краткий вывод"):
            end = headings[i + 1].start() if i + 1 < len(headings) else len(body)
            return body[match.end() : end].strip()
    return None


def _numbers(text: str) -> set[str]:
    return {re.sub(r"\s", "", n).replace(",", ".") for n in _NUMBER.findall(text)}


def figures(text: str, question: str) -> list[str]:
    """Numbers stated in ``text`` that the question does not contain itself.

    Citation markers (``[3]``) and legal references (``п. 2 ст. 88``) are not figures.
    """
    spans = sorted((r.start, r.end) for r in find_references(text))
    kept, last = [], 0
    for start, end in spans:
        if start >= last:
            kept.append(text[last:start])
            last = end
    kept.append(text[last:])
    plain = CITATION.sub(" ", " ".join(kept))
    own = _numbers(question)
    return sorted(n for n in _numbers(plain) if n not in own)


def article_of(unit_id: str) -> str:
    """``nk1.ch14.art88.p2`` -> ``nk1.ch14.art88`` (an article id is its own article)."""
    return unit_id.split(".p")[0]


def abstained(answer: str) -> bool:
    """The answer carries the abstention marker «нет оснований для ответа»."""
    return ABSTENTION_MARKER in normalise(answer)
