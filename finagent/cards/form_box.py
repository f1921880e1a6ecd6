"""A unified form's number box: the label row «Номер документа | Дата составления» over a
row of values («7 30.09.2026 …»), as КС-2, КС-3, ТОРГ-12 and Т-1 state their number."""

from __future__ import annotations

from finagent.cards.title import strip_markdown
from finagent.language.cues import find_cue
from finagent.language.text import analyse

_LABEL = "номер документ"
_HEAD_LINES = 30  # the box stands among the form's first lines
_SEPARATORS = "|"
_VALUE_LINES = 2  # the values' row, or the heading beside the box and then the values


def _lemmas(line: str) -> tuple[str, ...]:
    return tuple(t.lemma for s in analyse(line).sentences for t in s.tokens)


def boxed_number(text: str) -> str | None:
    """The value under a line that opens with the label «Номер документа»: the first word
    of the next line when it holds a digit and is no date (the line after it when the
    form's heading stands between the label and the values, beside the box: «ПРИХОДНЫЙ
    КАССОВЫЙ ОРДЕР»); None without such a box."""
    lines = [strip_markdown(line.replace(_SEPARATORS, " ")) for line in text.splitlines()]
    lines = [line for line in lines if line and not _rule(line)][:_HEAD_LINES]
    for at, label in enumerate(lines):
        if find_cue(_lemmas(label), _LABEL, 0, 2) != 0:
            continue
        for values in lines[at + 1 : at + 1 + _VALUE_LINES]:
            first = values.split()[0].strip("№")
            if any(ch.isdigit() for ch in first):
                return first if "." not in first else None
    return None


def has_number_box(text: str) -> bool:
    """Whether the form states its number in a box («Номер документа» over its value)."""
    return boxed_number(text) is not None


def _rule(line: str) -> bool:
    """A box's border («+------+-----+»): no letter or digit."""
    return not any(ch.isalnum() for ch in line)
