"""Hard-wrapped plain text read as its sentences, with every offset kept.

A plain-text document wrapped at a fixed width splits a clause over lines («составляет
82 485 (восемьдесят две тысячи» / «четыреста) рублей 00 копеек»); the analyser ends a
sentence at each line, so the amount would lose its currency. A line break inside a
sentence becomes a space (same length, so offsets into the original text hold): the line
does not end a sentence, is no table row or aligned form line, and the next line opens
no numbered clause, list item, heading, table row or «Реквизит: значение» line.
"""

from __future__ import annotations

import re

_ENDS = (".", "!", "?", ";", ":")
_OPENS = re.compile(r"^(?:\d+(?:\.\d+)*[.)]\s|[а-яa-z]\)\s|[-*•–—#|+])")
_ALIGNED = re.compile(r"\S {3,}\S")  # columns of a form laid out with spaces
_LABEL_WIDTH = 40  # «Покупатель: …» — a label ends within this many characters


def _continues(previous: str, line: str) -> bool:
    before, after = previous.strip(), line.strip()
    if not before or not after or before.endswith(_ENDS) or "|" in before or "|" in after:
        return False
    if _ALIGNED.search(before) or _ALIGNED.search(after) or _OPENS.match(after):
        return False
    head = after[:_LABEL_WIDTH]
    return ":" not in head or not after[0].isupper()


def joined(text: str) -> str:
    """``text`` with the line breaks inside sentences replaced by spaces."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        if i + 1 < len(lines):
            out.append(" " if _continues(line, lines[i + 1]) else "\n")
    return "".join(out)
