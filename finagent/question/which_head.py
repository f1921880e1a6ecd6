"""The head of the noun phrase «какой» asks («какой налоговый бонус» → «бонус»): one
reader for the question's type (:mod:`finagent.question.build`) and the answer's asked
phrase (:mod:`finagent.answering.value_phrase`)."""

from __future__ import annotations

from collections.abc import Sequence

from finagent.language.lemmas import part_of_speech

ADJECTIVE_REACH = 3  # adjectives between «какой» and its noun («какую максимальную сумму НДФЛ»)
MODIFIERS = frozenset({"ADJF", "PRTF"})


def which_head(words: Sequence[str], at: int) -> tuple[int, bool]:
    """The position of the head of the phrase the «какой» at ``at`` opens, with whether it
    is a noun: the first noun after up to ``ADJECTIVE_REACH`` adjectives or participles, or
    the last of them when no noun follows («какие суточные»); (-1, False) when the word
    after «какой» is neither."""
    head = -1
    for i in range(at + 1, min(len(words), at + 2 + ADJECTIVE_REACH)):
        kind = part_of_speech(words[i])
        if kind == "NOUN":
            return i, True
        if kind not in MODIFIERS:
            break
        head = i  # an adjective with no noun after it stands for its noun («суточные»)
    return head, False
