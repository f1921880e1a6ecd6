"""The conditional clauses of a question: «если управляющий опоздает в декабре 2026, какая
будет неустойка?» names, in its condition, the case a rule is applied to; the period it
names there is the event's, not the period a value is asked for.

Its opposite: «какой штраф в итоге начислила ИФНС?» asks how a case turned out, a fact
that a rule or a warning («может быть начислен штраф») does not state."""

from __future__ import annotations

import re
from collections.abc import Sequence

from finagent.language.cues import find_cue
from finagent.language.spans import Span

# a condition runs from its conjunction up to the end of its clause
_CONDITION = re.compile(
    r"(?<![\w-])(?:если|в\s+случае|при\s+условии)(?![\w-])[^,;?.!—]*", re.IGNORECASE
)


def condition_spans(text: str) -> list[tuple[int, int]]:
    """Character spans of the conditional clauses of ``text``."""
    return [match.span() for match in _CONDITION.finditer(text)]


def in_condition(text: str, span: Span) -> bool:
    """Whether a mention of ``text`` lies in one of its conditional clauses."""
    return any(start <= span.start < end for start, end in condition_spans(text))


# words that ask how a case turned out («в итоге», «фактически», «по факту», «в результате»,
# «на самом деле»), with a finite verb in the past: a realised fact, not a rule
_REALISED = ("в итоге", "фактически", "по факту", "в результате", "на самом деле")


def asks_realised(lemmas: Sequence[str]) -> bool:
    """Whether the question's lemmas ask how a case turned out."""
    return any(find_cue(lemmas, cue) >= 0 for cue in _REALISED)
