"""Test helper: the sentences of one retrieved passage as the learned ranker orders them,
for the tests of the steps that reorder candidates (asked subject, given value, asked
year, general rule, rate clause, norm subject), and one sentence at a learned score."""

from __future__ import annotations

from finagent.answering.evidence import Candidate
from finagent.state import Chunk


def kb_passage(number: int, title: str) -> Chunk:
    """An empty knowledge-base passage titled ``title``."""
    return Chunk(id=f"kb-{number}:0", text="", source="kb", title=title)


def scored(chunk: Chunk, sentence: str, score: float, context: str = "") -> Candidate:
    """``sentence``, the first of ``chunk`` (source 1, passage rank 0), at the learned
    ``score``; ``context`` is a list item's lead-in."""
    return Candidate(chunk, 1, sentence, 0, 0, score=score, context=context, learned=True)


def ranked(chunk: Chunk, *sentences: str, top: float, gap: float) -> list[Candidate]:
    """``sentences`` of ``chunk`` in this order (source 1, passage rank 0), their learned
    scores falling from ``top`` by ``gap``."""
    return [
        Candidate(chunk, 1, s, 0, i, score=top - gap * i, learned=True)
        for i, s in enumerate(sentences)
    ]
