"""Hard-wrapped plain text read as its sentences, with every offset kept.

A plain-text document wrapped at a fixed width splits a clause over lines («составляет
82 485 (восемьдесят две тысячи» / «четыреста) рублей 00 копеек»); the analyser ends a
sentence at each line, so the amount would lose its currency. A line break inside a
sentence becomes a space (same length, so offsets into the original text hold): the line
does not end a sentence, is no table row or aligned form line, the next line opens no
numbered clause, list item, heading or table row, and it goes on in lower case, a figure
or a quote — or with a capital after a long line that ends with a lower-case word.
"""

from __future__ import annotations

import re

from finagent.language.abbreviations import ends_with_dotted

_ENDS = (".", "!", "?", ";", ":")
_OPENS = re.compile(r"^(?:\d+(?:\.\d+)*[.)]\s|[а-яa-z]\)\s|[-*•–—#|+])")
_ALIGNED = re.compile(r"\S {3,}\S")  # columns of a form laid out with spaces
_WRAPPED_WIDTH = 50  # a line wrapped inside a paragraph is at least this long


def _continues(previous: str, line: str) -> bool:
    before, after = previous.strip(), line.strip()
    if not before or not after or "|" in before or "|" in after:
        return False
    # «…, в т.ч.» / «НДС …» goes on; «… подписал Гущин А.В.» / «Оплата …» does not
    if before.endswith(_ENDS) and not ends_with_dotted(before, after):
        return False
    if _ALIGNED.search(before) or _ALIGNED.search(after) or _OPENS.match(after):
        return False
    if (
        after[0].islower()
        or after[0].isdigit()
        or after[0] in "«("
        or ends_with_dotted(before, after)
    ):
        return True
    # a capital after a wrapped line of a paragraph («в пользу» / «ООО «Альфа» составляет»),
    # not after a short requisites line («ИНН …, КПП …» / «Р/с …»)
    last = before.rsplit(" ", 1)[-1]
    return len(before) >= _WRAPPED_WIDTH and last.isalpha() and last.islower()


def joined(text: str) -> str:
    """``text`` with the line breaks inside sentences replaced by spaces."""
    lines = text.split("\n")
    out = []
    for i, line in enumerate(lines):
        out.append(line)
        if i + 1 < len(lines):
            out.append(" " if _continues(line, lines[i + 1]) else "\n")
    return "".join(out)
