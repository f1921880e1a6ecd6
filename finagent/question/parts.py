"""The parts of a question that asks several things at once.

«Сколько обычно длится выездная проверка и до скольких месяцев её могут продлить?»,
«Какая предельная база … и какой тариф сверх неё?», «…какой штраф? А за отказ давать
показания?»: each part opens with a question word (pymorphy3 lemmas: «какой», «сколько»,
«когда» …) or, after the first, with a clause or sentence that opens with «а» (an elliptic
ask of the same kind). A part runs up to the next one.
"""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from finagent.language.lemmas import part_of_speech
from finagent.language.text import Analysed
from finagent.question.tables import AnswerType

QUESTION_WORDS = frozenset(
    {"какой", "каков", "каковой", "сколько", "когда", "кто", "где", "насколько", "чей"}
)
_CONTRAST = "а"
_CLAUSE_BREAKS = frozenset({",", "?", ".", ";", "—", "-"})


class AskedPart(BaseModel):
    """One asked part: its own lemmas (from its question word, with the preposition before
    it: «до скольких месяцев») and the type of value it asks."""

    own: list[str]
    answer_type: AnswerType = "unknown"


def _starts(lemmas: Sequence[str], sentence_starts: set[int]) -> list[int]:
    starts: list[int] = []
    for i, lm in enumerate(lemmas):
        if lm in QUESTION_WORDS:
            # one ask per clause: «какой штраф и какой потолок», not «какой … какого»
            if starts and not any(
                lemmas[j] in _CLAUSE_BREAKS | {"и"} for j in range(starts[-1], i)
            ):
                continue
            starts.append(i - 1 if i > 0 and part_of_speech(lemmas[i - 1]) == "PREP" else i)
        elif (
            starts
            and lm == _CONTRAST
            and (i in sentence_starts or (i > 0 and lemmas[i - 1] in _CLAUSE_BREAKS))
        ):
            starts.append(i)
    return starts


def asked_parts(analysed: Analysed) -> list[AskedPart]:
    """The question's parts when it asks two things or more, else none (their answer
    types are the caller's to set)."""
    lemmas: list[str] = []
    sentence_starts: set[int] = set()
    for sentence in analysed.sentences:
        sentence_starts.add(len(lemmas))
        lemmas.extend(sentence.lemmas)
    starts = _starts(lemmas, sentence_starts)
    if len(starts) < 2:
        return []
    ends = [*starts[1:], len(lemmas)]
    return [AskedPart(own=list(lemmas[s:e])) for s, e in zip(starts, ends, strict=True)]
