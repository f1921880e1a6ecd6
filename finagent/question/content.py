"""The question's content lemmas: the words a sentence answering it may name."""

from __future__ import annotations

from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS

SHORTEST = 3  # shorter lemmas («ип», «рф», «по») are names or function words, not subjects


def content_lemmas(question: Question, letters_only: bool = True) -> frozenset[str]:
    """The question's topic lemmas of :data:`SHORTEST` letters or more, no stop words;
    ``letters_only`` also leaves out those with a digit or a sign («2025», «6-ндфл»)."""
    return frozenset(
        w
        for w in question.topic
        if len(w) >= SHORTEST and w not in STOP_LEMMAS and (w.isalpha() or not letters_only)
    )
