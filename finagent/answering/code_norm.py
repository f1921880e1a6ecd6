"""The Code's own wording in the details when the lead quotes something else.

The answer's first line often quotes a knowledge-base section's retelling, or another
point of the Code, while the Code sentence that states the rule is among the same turn's
candidates and left unquoted (docs/direct-answers-history.md, the key-fact lane). Readers trust
the Code's wording: the details then add «Норма НК РФ» entries (up to
``extractive.MAX_NORMS``, each chosen after the ones before are quoted) quoting a Code
sentence among the candidates already ranked this turn (no new passage, no new embedding)
that

- is not quoted yet (neither in the Краткий вывод nor in the details) and is no worked
  example;
- shares a value with what the answer quotes (compared as numbers) or names one of the
  question's subject lemmas (with the official terms of its slang);

the first in the ranker's order that states a value of the asked type (of a point of the
Code the answer quotes nothing of yet, before another sentence of a point it quotes
already: the details show that point's wording, another of its values adds less than the
rule of a point the reader has not seen), else the first. Before all of them: the next
window of a too long Code sentence the answer quotes cut («…») inside a value, the window
opening with the quote's last clause and that clause stating a value (the quote stops in
the middle of its rule: «…в размере, не превышающем 1 процента…» leaves out of what).
The lead is left alone: whether the Code takes the first line is
:mod:`finagent.answering.code_over_kb`'s decision.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from finagent.answering.asked_values import number_of
from finagent.answering.code_over_kb import OWN_PRACTICE
from finagent.answering.cut_sentences import ELLIPSIS
from finagent.answering.evidence import Candidate
from finagent.answering.extractive import clean_sentence
from finagent.answering.ranker import type_match
from finagent.answering.sentence_profile import profile
from finagent.language.cues import cue_lemmas, has_any
from finagent.language.glossary import glossary_terms
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS
from finagent.retrieval.retriever import NORM_ONLY, TIMED_LEG


def _subject(question: Question) -> frozenset[str]:
    official = {lm for term in glossary_terms(question.text) for lm in cue_lemmas(term)}
    return frozenset((set(question.topic) | official) - STOP_LEMMAS)


def _numbers(text: str) -> set[str]:
    """The numbers of every value ``text`` states (percentages, sums, dates, terms)."""
    p = profile(text)
    values = (*p.percents, *p.shares, *p.money, *p.dates, *p.days, *p.periods)
    return {n for v in values if (n := number_of(v))}


def _lemmas(candidate: Candidate) -> frozenset[str]:
    """The candidate's lemmas with its list lead-in's, from the profiles the ranker read."""
    own = profile(candidate.sentence).lemmas
    return own | profile(candidate.context).lemmas if candidate.context else own


def _leg(candidate: Candidate) -> str:
    """The Code-only search leg that brought a candidate's passage («» for the turn's own)."""
    return str(candidate.chunk.metadata.get(NORM_ONLY) or "")


def _quoted(candidate: Candidate, shown: str) -> bool:
    sentence = clean_sentence(candidate.sentence)
    return bool(sentence) and sentence in shown


def _point(candidate: Candidate) -> str:
    """The Code point a candidate is a sentence of (its passage's citation, else its id)."""
    meta = candidate.chunk.metadata
    return str(meta.get("citation") or meta.get("unit_id") or candidate.chunk.id)


def _quoted_points(pools: Iterable[Sequence[Candidate]], shown: str) -> frozenset[str]:
    """The Code points some sentence of which the answer quotes already."""
    return frozenset(
        _point(c) for pool in pools for c in pool if c.chunk.source == "law" and _quoted(c, shown)
    )


def code_norm(
    question: Question,
    ranked: list[Candidate],
    quoted_text: Iterable[str],
    extra: Sequence[Candidate] = (),
    extra_only: bool = False,
) -> Candidate | None:
    """The Code sentence to quote as «Норма НК РФ», or None (see the module's docstring).

    ``ranked`` are the turn's candidates best first; ``quoted_text`` what the answer
    quotes already (the Краткий вывод's lines and the details' sentences); ``extra``:
    sentences of Code passages only this quote may use, chosen from when ``ranked``
    offers none (or only, with ``extra_only``)."""
    if not ranked or ranked[0].chunk.source == "user_docs":
        return None
    if has_any(list(question.lemmas), OWN_PRACTICE):
        return None
    shown = " ".join(quoted_text)
    seen = _quoted_points((ranked, extra), shown)
    for pool in (extra,) if extra_only else (ranked, extra):
        found = _norm_of(question, ranked, pool, shown, seen)
        if found is not None:
            return found
    return None


def _norm_of(
    question: Question,
    ranked: list[Candidate],
    pool: Sequence[Candidate],
    shown: str,
    seen: frozenset[str] = frozenset(),
) -> Candidate | None:
    """The best fit of ``pool`` (see the module's docstring); ``ranked`` tell what the
    answer quotes, ``seen`` the Code points it quotes already."""
    fits = list(_fits(question, ranked, pool, shown))
    cut = [c for pool_ in (ranked, pool) for c in pool_ if _is_cut(c) and _quoted(c, shown)]
    rest = next((c for c, _ in fits if _continues(c, cut)), None)
    if rest is not None:
        return rest
    typed = [c for c, match in fits if match]
    # the timed search's passage states the asked action's time limit: its sentence of the
    # asked type goes before the other legs' (a point not quoted yet)
    timed = [c for c in typed if _leg(c) == TIMED_LEG and _point(c) not in seen]
    if timed:
        return timed[0]
    if typed:
        return next((c for c in typed if _point(c) not in seen), typed[0])
    return fits[0][0] if fits else None


def _is_cut(candidate: Candidate) -> bool:
    """A Code sentence too long to quote, as its start («…»-cut at its end)."""
    text = candidate.sentence.rstrip()
    return candidate.chunk.source == "law" and text.endswith(ELLIPSIS)


def _continues(candidate: Candidate, cut: Sequence[Candidate]) -> bool:
    """Whether ``candidate`` is the window right after one of the ``cut`` sentences that
    goes on with a value the cut one stops in (see the module's docstring)."""
    if not candidate.sentence.startswith(ELLIPSIS):
        return False
    window = candidate.sentence.removeprefix(ELLIPSIS)
    for c in cut:
        if c.chunk.id != candidate.chunk.id or candidate.position != c.position + 1:
            continue
        clause = _last_clause(c.sentence.rstrip().removesuffix(ELLIPSIS))
        if clause and window.startswith(clause) and _numbers(clause):
            return True
    return False


def _last_clause(text: str) -> str:
    """The text after the last clause boundary («, », «; »), where a window opens."""
    start = max(text.rfind(", "), text.rfind("; "))
    return text[start + 2 :].strip() if start >= 0 else ""


def _fits(
    question: Question, ranked: list[Candidate], pool: Sequence[Candidate], shown: str
) -> Iterator[tuple[Candidate, bool]]:
    """The candidates of ``pool`` a «Норма НК РФ» may quote, in the ranker's order, each
    with whether it states a value of the asked type."""
    subject = _subject(question)
    numbers: set[str] | None = None  # of what the answer quotes, read only when needed
    for c in pool:
        if c.chunk.source != "law" or c.example:
            continue
        if not clean_sentence(c.sentence) or _quoted(c, shown):
            continue
        if not _lemmas(c) & subject:
            if numbers is None:  # the quoted candidates' own (profiles already computed)
                numbers = set().union(*(_numbers(q.sentence) for q in ranked if _quoted(q, shown)))
            if not numbers & _numbers(c.sentence):
                continue
        yield c, bool(type_match(profile(c.sentence), question))
