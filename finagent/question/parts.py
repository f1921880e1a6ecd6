"""The parts of a question that asks several things at once.

«Сколько обычно длится выездная проверка и до скольких месяцев её могут продлить?»,
«Какая предельная база … и какой тариф сверх неё?», «…какой штраф? А за отказ давать
показания?»: each part opens with a question word (pymorphy3 lemmas: «какой», «сколько»,
«когда» …) or, after the first, with a clause or sentence that opens with «а» (an elliptic
ask of the same kind). A part runs up to the next one.

A part may also be a noun phrase coordinated after the first ask with «и», with no
question word or verb of its own: «Какой лимит годового дохода у самозанятого и ставки
налога?» asks the limit and the rates (:func:`coordinated_parts`; the caller keeps it only
when its own words ask a value, so «какой лимит доходов и расходов» stays one ask). A
coordinated phrase that opens with a preposition or an adverb after «и» names another case
of the same ask («какой тариф в пределах базы и сверх неё», «лимит вычета в год и
отдельно на лечение»: :func:`elliptic_case`). A telegraphic question with no question word
(«имущественный вычет на жильё и по ипотеке — максимумы?») asks from its first word.
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
_AND = "и"
_IF = "если"
_YES_NO = "ли"
_VERBS = frozenset({"VERB", "INFN"})
# the words that open another case of the same ask after «и»: «и сверх неё», «и отдельно …»
_CASE_OPENERS = frozenset({"PREP", "ADVB"})
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
        elif starts and _further_ask(lemmas, i):
            starts.append(i)
    return starts


def _further_ask(lemmas: Sequence[str], i: int) -> bool:
    """A clause after a comma that opens with «и» and asks on: a case («…, и если повторно
    за год?») or a yes/no ask of its own («…, и есть ли минимум?», also without the
    comma: «… и нужно ли …»); a bare «, если …» is a condition of the ask before it."""
    if lemmas[i] != _AND or i == 0:
        return False
    following = lemmas[i + 1 : i + 3]
    if lemmas[i - 1] not in _CLAUSE_BREAKS:
        # «Сколько стоит … и нужно ли начислять НДС?»: a word with «ли» right after «и»
        # opens a yes/no ask of its own even without a comma
        return following[1:] == [_YES_NO]
    return following[:1] == [_IF] or _YES_NO in following


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


def coordinated_parts(analysed: Analysed) -> list[AskedPart]:
    """The first ask and the noun phrase coordinated after it with its last «и», when that
    phrase has no question word and no verb of its own; else none."""
    lemmas = [lm for sentence in analysed.sentences for lm in sentence.lemmas]
    # a telegraphic question («лимит … и …?») asks from its first word
    first = next((i for i, lm in enumerate(lemmas) if lm in QUESTION_WORDS), 0)
    for i in range(len(lemmas) - 1, first, -1):
        if lemmas[i] != _AND:
            continue
        tail = [lm for lm in lemmas[i + 1 :] if lm.isalpha()]
        if not tail or any(lm in QUESTION_WORDS or part_of_speech(lm) in _VERBS for lm in tail):
            return []
        start = first - 1 if first > 0 and part_of_speech(lemmas[first - 1]) == "PREP" else first
        return [AskedPart(own=lemmas[start:i]), AskedPart(own=lemmas[i:])]
    return []


def elliptic_case(part: AskedPart) -> bool:
    """Whether a coordinated part opens with «и» and a preposition or an adverb: another
    case of the ask before it («и сверх неё», «и по процентам», «и отдельно на …»), not
    a second object of it («и расходов»)."""
    own = [lm for lm in part.own if lm.isalpha()]
    return len(own) > 2 and own[0] == _AND and part_of_speech(own[1]) in _CASE_OPENERS
