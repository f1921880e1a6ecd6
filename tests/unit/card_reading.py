"""Test helpers: the values the cards of documents written in a test answer a question with
(:func:`card_values`), as (field or role name, values) pairs."""

from __future__ import annotations

from collections.abc import Sequence

from finagent.answering.card_evidence import card_answers
from finagent.answering.context import build_context
from finagent.cards.build import build_card
from finagent.question.build import build_question
from finagent.state import Chunk


def card_values(texts: Sequence[str], question: str) -> list[tuple[str, list[str]]]:
    """The cards of ``texts`` (one document each) answering ``question``."""
    cards = [build_card(f"d{i}", f"doc{i}.md", t) for i, t in enumerate(texts, start=1)]
    chunks = [
        Chunk(id=f"c{i}", text=t, source="user_docs", title=c.title, document_id=c.document_id)
        for i, (t, c) in enumerate(zip(texts, cards, strict=True), start=1)
    ]
    asked = build_question(question, cards=cards)
    found = card_answers(asked, cards, build_context(chunks, [], 10_000))
    return [(a.name, [v.value for v in a.values]) for a in found]


def card_answer(text: str, question: str) -> list[tuple[str, list[str]]]:
    """The card of the one document ``text`` answering ``question``."""
    return card_values([text], question)
