"""Whether a stretch of an answer is a source's own text: one definition for the answer's
reference check (:mod:`finagent.answering.reference_check`) and the evaluations'
(:mod:`evals.answers.quotes`), so the agent removes exactly what the evaluation would count.

A legal reference is *quoted* when the «...» quotation or the sentence that holds it is
copied from a source. Copied means: the same words in the same order once both sides are
*plain* (:func:`plain`): lower case, ё as е, whitespace collapsed, Markdown emphasis and
list bullets dropped (the composer quotes a Markdown list flattened into its introduction,
«Отражаются: доходы …; расходы …», and a bold figure without its asterisks), citation
marks dropped, and a window of a long sentence marked «…» at either end.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache

# a quotation shields its reference only when it is more than the reference itself: a
# fragment such as «3 п. 3 ст. 76 НК РФ).» is not
MIN_QUOTE_CHARS = 25
CITATION_MARK = re.compile(r"\s*\[\d{1,3}\]")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[«\"(A-ZА-ЯЁ])|\n+")
# list marks, quote marks and headings an answer puts before a quoted passage
_LEADING = re.compile(r"^(?:[>*\-•]\s*|\d+[.)]\s+|#+\s*)+")
# a Markdown list bullet at the start of a line: layout, not words
_LIST_BULLET = re.compile(r"(?m)^[ \t]*[-*•+][ \t]+")
# Markdown emphasis sits against the words it marks («**10 рабочих дней**,»)
_EMPHASIS = re.compile(r"\*+|(?<!\w)_+|_+(?!\w)")
_QUOTE_EDGES = '«»"“” '


def plain(text: str) -> str:
    """``text`` as quotes are compared: list bullets, emphasis and citation marks dropped,
    lower case, ё as е, whitespace collapsed."""
    text = _LIST_BULLET.sub("", text)
    text = _EMPHASIS.sub("", CITATION_MARK.sub(" ", text))
    return " ".join(text.lower().replace("ё", "е").split())


def plain_sources(texts: Iterable[str]) -> list[str]:
    """The sources, each :func:`plain` once (for many checks against the same sources)."""
    return [_plain_source(t) for t in texts]


@lru_cache(maxsize=1024)  # a source's text, checked again for every answer citing it: bounded
def _plain_source(text: str) -> str:
    return plain(text)


def is_quoted(passage: str, sources: Sequence[str]) -> bool:
    """The passage (its list or quote mark, citation marks and «…» window marks aside)
    occurs in one of ``sources``, which are already :func:`plain`."""
    cleaned = _LEADING.sub("", CITATION_MARK.sub(" ", passage).strip())
    needle = plain(cleaned.strip(_QUOTE_EDGES)).removesuffix("...").rstrip(" .;:,…")
    needle = needle.removeprefix("...").lstrip(" …")
    if len(needle) < MIN_QUOTE_CHARS:
        return False
    return any(needle in s for s in sources)


def sentence_at(body: str, position: int) -> str:
    """The sentence (or line) of ``body`` that holds ``position``."""
    start = 0
    for m in _SENTENCE_END.finditer(body):
        if start <= position <= m.start():
            return body[start : m.start()]
        start = m.end()
    return body[start:] if position >= start else ""


def outer_quotations(line: str) -> tuple[list[tuple[int, int]], int]:
    """The outermost «...» quotations of one line: those closed in it, as the indices of
    their opening and closing marks in the order they close, and the index of the one
    left open at the line's end (-1 when none is)."""
    closed: list[tuple[int, int]] = []
    depth, opened = 0, -1
    for i, char in enumerate(line):
        if char == "«":
            if depth == 0:
                opened = i
            depth += 1
        elif char == "»" and depth:
            depth -= 1
            if depth == 0:
                closed.append((opened, i))
    return closed, opened if depth else -1


def quotation_at(body: str, start: int, end: int) -> str | None:
    """The outermost «...» quotation that holds ``body[start:end]``, or None.

    Quotations never span lines: a line break closes whatever is open, so a source's
    unbalanced nested quotes («АО «КБ «Вектор-Финанс», ИНН …») cannot swallow the rest of
    the answer. A quotation left open at its line's end runs to the line's last «»».
    """
    line_start = body.rfind("\n", 0, start) + 1
    line_end = body.find("\n", end)
    line = body[line_start : len(body) if line_end < 0 else line_end]
    start, end = start - line_start, end - line_start
    closed, left_open = outer_quotations(line)
    for opened, closing in closed:
        if opened <= start and closing >= end:
            return line[opened + 1 : closing]
        if opened > end:
            return None
    if 0 <= left_open <= start:
        closing = line.rfind("»", end)
        if closing >= end:
            return line[left_open + 1 : closing]
    return None


def quoted_span(body: str, start: int, end: int, sources: Sequence[str]) -> bool:
    """``body[start:end]`` (a reference) sits in a sentence or a «...» quotation copied from
    one of ``sources`` (already :func:`plain`)."""
    if is_quoted(sentence_at(body, start), sources):
        return True
    quotation = quotation_at(body, start, end)
    return quotation is not None and is_quoted(quotation, sources)
