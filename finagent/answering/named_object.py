"""The object the question names by its «о …» complement, not a namesake.

The Code and the knowledge base name many notices, applications and reports by one noun
and tell them apart by what follows it: «уведомление об исчисленных суммах»,
«уведомление об участии в международной группе компаний», «заявление о постановке на
учет». A question naming one of them («штраф за не поданное уведомление об исчисленных
суммах») is not answered by the sentence of another: when the best candidate (of the
Code or the knowledge base) names the question's noun with a complement sharing no word
with the question's, the best candidate within :data:`MARGIN` that states a value of the
asked type, names the noun with no such foreign complement, and names a word of the
question's complement (in its sentence, its list's lead-in or its passage's title: a
knowledge-base section titled «… уведомления об исчисленных суммах») comes first.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial

from finagent.answering.asked_values import states_asked
from finagent.answering.evidence import LEGAL_SOURCES, Candidate, first_near, promoted
from finagent.answering.sentence_profile import profile
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS

MARGIN = 2.0  # logit units of the learned ranker
_ABOUT = "о"  # the lemma pymorphy3 gives «о», «об» and «обо» («об участии», «обо всём»)
_SPAN = 3  # content words of a complement read


def complements(sequence: Sequence[str]) -> dict[str, frozenset[str]]:
    """Noun-like word -> the content lemmas of its «о …» complement, for every «X о …»
    (``sequence``: a profile's lemmas, where «об» and «обо» are «о»)."""
    out: dict[str, set[str]] = {}
    for i in range(len(sequence) - 2):
        if sequence[i + 1] != _ABOUT or not sequence[i].isalpha() or sequence[i] in STOP_LEMMAS:
            continue
        words = [w for w in sequence[i + 2 : i + 2 + _SPAN] if w.isalpha()]
        out.setdefault(sequence[i], set()).update(w for w in words if w not in STOP_LEMMAS)
    return {noun: frozenset(words) for noun, words in out.items() if words}


def _foreign(noun: str, asked: frozenset[str], sequence: Sequence[str]) -> bool:
    """Whether the text names ``noun`` with a complement sharing no word with ``asked``."""
    own = complements(sequence).get(noun)
    return own is not None and not own & asked


def prefer_named_object(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """``ranked`` with the sentence of the question's own object first (see above)."""
    if question.several or len(ranked) < 2 or ranked[0].chunk.source not in LEGAL_SOURCES:
        return ranked
    named = complements(profile(question.text).sequence)
    if not named:
        return ranked
    top = ranked[0]
    top_sequence = profile(top.ranked_text).sequence
    for noun, asked in named.items():
        if not _foreign(noun, asked, top_sequence):
            continue
        best = first_near(ranked, MARGIN, partial(_names_own, noun, asked, question))
        if best is not None:
            return promoted(ranked, best)
    return ranked


def _names_own(noun: str, asked: frozenset[str], question: Question, candidate: Candidate) -> bool:
    """``candidate`` names ``noun`` with no foreign complement, a word of the asked one
    around it, and states the asked type."""
    if candidate.chunk.source not in LEGAL_SOURCES:
        return False
    own = profile(candidate.ranked_text)
    if noun not in own.lemmas or _foreign(noun, asked, own.sequence):
        return False
    around = own.lemmas | profile(candidate.chunk.title or "").lemmas
    return bool(asked & around) and states_asked(profile(candidate.sentence), question)
