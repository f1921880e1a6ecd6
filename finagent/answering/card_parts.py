"""The further parts of a question a document card's fields do not answer.

«Какой оклад и какая надбавка у работника по приказу?»: the card's salary field answers
the first part; no field holds the allowance. A part whose own words name none of the
answering fields (their cues and names) is answered like a further part of a sentence
lead (:mod:`finagent.answering.further_parts`): by the sentence of the card's documents
that shares most of the part's own words and states a value of the part's type not stated
yet. The card's first sentence stands as the best one, so its values count as stated;
the words naming the document (its title, a person's name) are not the part's own.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from finagent.answering.asked_values import number_of, own_numbers
from finagent.answering.card_evidence import QUALIFIED, CardAnswer
from finagent.answering.evidence import Candidate
from finagent.answering.extractive import clean_sentence
from finagent.answering.further_parts import further_parts
from finagent.answering.part_values import NAMES
from finagent.answering.sentence_profile import profile, shown
from finagent.cards.fields import BY_KEY as FIELD_BY_KEY
from finagent.language.cues import cue_lemmas
from finagent.question.model import Question
from finagent.question.parts import AskedPart
from finagent.question.tables import STOP_LEMMAS


def _field_words(answers: Sequence[CardAnswer]) -> set[str]:
    """The lemmas of the answering fields' cues and names."""
    words: set[str] = set()
    for answer in answers:
        field = FIELD_BY_KEY.get(answer.key)
        cues = (*field.cues, answer.name) if field else (answer.name,)
        words |= {lm for cue in cues for lm in cue_lemmas(cue)}
    return words - STOP_LEMMAS


# the answer types a field of each kind states (a role no list holds is a party)
_KIND_TYPES: dict[str, frozenset[str]] = {
    "amount": frozenset({"amount", "limit"}),
    "rate": frozenset({"rate", "limit"}),
    "date": frozenset({"date"}),
    "term": frozenset({"period", "date"}),
    "party": frozenset({"party"}),
}


def _answered_types(answers: Sequence[CardAnswer]) -> frozenset[str]:
    """The answer types the answering fields state by their kinds of value."""
    kinds = {
        "amount"
        if a.key == QUALIFIED
        else (FIELD_BY_KEY[a.key].kind if a.key in FIELD_BY_KEY else "party")
        for a in answers
    }
    return frozenset(t for kind in kinds for t in _KIND_TYPES.get(kind, ()))


def _by_type(
    question: Question, answers: Sequence[CardAnswer]
) -> tuple[list[AskedPart], list[AskedPart]]:
    """When no part names a field (the amount read from «сколько», a role in the
    document's own words), the first part of a type the fields state is theirs, and the
    parts asking a value of another type are left («Сколько неустойки … и до какой
    даты?»: the amount is the card's, the date is not)."""
    answered = _answered_types(answers)
    typed = [p for p in question.parts if p.answer_type in answered]
    if not typed:
        return [], []
    left = [
        p
        for p in question.parts
        if p is not typed[0] and p.answer_type != "unknown" and p.answer_type not in answered
    ]
    return typed[:1], left


def _parts(
    question: Question, answers: Sequence[CardAnswer]
) -> tuple[list[AskedPart], list[AskedPart]]:
    """The parts naming an answering field, and those naming none — as many of the last
    of them as the fields leave unanswered (a field may answer a part by its kind of
    value: «и до какого числа доплатить?» — the deposit's date); when no part names a
    field, by the parts' types (:func:`_by_type`)."""
    named = _field_words(answers)
    covering = [p for p in question.parts if set(p.own) & named]
    if not covering:
        return _by_type(question, answers)
    free = max(len(question.parts) - len(answers), 0)
    uncovered = [p for p in question.parts if not set(p.own) & named]
    return covering, uncovered[len(uncovered) - free :] if free else []


def card_further_parts(
    question: Question, answers: Sequence[CardAnswer], ranked: Sequence[Candidate]
) -> list[Candidate]:
    """The sentences of the card's documents answering the parts no field answers, in the
    parts' order; none when every part names a field or the question asks one thing."""
    if len(question.parts) < 2 or not answers or not answers[0].values:
        return []
    covering, uncovered = _parts(question, answers)
    if not covering or not uncovered:
        return []
    documents = {a.document_id for a in answers}
    own = [
        c
        for c in ranked
        if c.chunk.source == "user_docs"
        and c.chunk.document_id in documents
        and clean_sentence(c.sentence)
    ]
    if not own:
        return []
    first = answers[0]
    anchor = Candidate(
        first.evidence_chunk(),
        first.number,
        first.values[0].sentence,
        0,
        0,
        score=own[0].score,
        learned=own[0].learned,
    )
    # the words naming the document (its title, a person's or party's name) tell no
    # sentence of it apart
    naming = {lm for a in answers for lm in profile(a.title).lemmas}
    naming |= {lm for name in question.names for lm in profile(name).lemmas}
    parts = [
        p.model_copy(update={"own": [lm for lm in p.own if lm not in naming]})
        for p in [covering[0], *uncovered]
    ]
    asked = question.model_copy(update={"parts": parts})
    return further_parts(asked, [anchor, *own])


def card_part_values(
    question: Question,
    answers: Sequence[CardAnswer],
    more: Sequence[Candidate],
    values_for: Callable[[Question, str], tuple[str, ...]],
) -> list[str]:
    """«надбавка — 12 000 руб. [1]» for each part no field answers that asks a value, read
    from the sentence chosen for it (:func:`card_further_parts`) when it states one new
    value of the part's type (a table row of several is quoted only), named by the part's
    asked noun («надбавка») or its kind of value; ``values_for(question, quote)``: the
    values of the question's answer type a quote states (the lead's own reading)."""
    shown_values = {v.value for a in answers for v in a.values}
    own = own_numbers(question)
    out: list[str] = []
    used: set[int] = set()
    for part in _parts(question, answers)[1]:
        kind = part.answer_type
        if kind not in NAMES:
            continue
        heads = [a.head for a in question.attributes if a.head in part.own]
        name = heads[0] if heads else NAMES[kind]
        asked = question.model_copy(update={"answer_type": kind})
        for i, candidate in enumerate(more):
            if i in used:
                continue
            found = list(
                dict.fromkeys(
                    shown(v)
                    for v in values_for(asked, clean_sentence(candidate.sentence))
                    if shown(v) not in shown_values and number_of(v) not in own
                )
            )
            if len(found) > 1:  # a row of several figures: quoted, never one picked
                break
            if found:
                out.append(f"{name} — {found[0]} [{candidate.number}]")
                shown_values.add(found[0])
                used.add(i)
                break
    return out
