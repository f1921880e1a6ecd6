"""Schedules of dated values: «28 июля 2025 года — 18 %; 15 сентября 2025 года — 17 %».

A knowledge-base article dates each change of a rate or limit in an item of its own. A
question about a moment («в августе 2025 года», «решением, вступившим в силу 27 октября
2025 года») is answered by the item in force then: the latest item of the passage dated
on or before that moment. A question that names the value («с какой даты ставка стала
16,5 %») is answered by the item stating it; one that names a year («лимит за 2025 год»)
by the item that opens with that year («за 2025 год — 210 000 руб.»).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from datetime import date
from functools import lru_cache
from typing import TypeVar

from finagent.answering.asked_values import states_asked
from finagent.answering.evidence import Candidate, promoted
from finagent.answering.extractive import clean_sentence
from finagent.answering.sentence_profile import profile
from finagent.language.dates import MONTHS, dates_in, years_in
from finagent.language.numbers import is_digits
from finagent.language.spans import Span
from finagent.language.text import Analysed, analyse
from finagent.question.model import Question

OPENING_TOKENS = 2  # a dated item opens with its date, perhaps after «с»
_M = TypeVar("_M", bound=Span)


def asked_moment(question: Question) -> date | None:
    """The date the question names, else the first day of a month it names with a year
    («в августе 2025 года»)."""
    if question.dates:
        return question.dates[0].value
    lemmas = question.lemmas
    for i, lm in enumerate(lemmas[:-1]):
        year = lemmas[i + 1]
        if lm in MONTHS and is_digits(year) and len(year) == 4:
            return date(int(year), MONTHS[lm], 1)
    return None


def _opening_mention(sentence: str, finder: Callable[[Analysed], Sequence[_M]]) -> _M | None:
    """The first mention ``finder`` reads in ``sentence``, if the sentence opens with it
    (both finders read a date or a year written in digits: a sentence without a digit is
    not tokenised)."""
    text = clean_sentence(sentence)
    if not any(ch.isdigit() for ch in text):
        return None
    analysed = analyse(text)
    if not analysed.sentences:
        return None
    first = analysed.sentences[0]
    opening = first.tokens[OPENING_TOKENS].start if len(first.tokens) > OPENING_TOKENS else 0
    mentions = finder(analysed)
    if mentions and mentions[0].start <= opening:
        return mentions[0]
    return None


@lru_cache(maxsize=20_000)
def item_date(sentence: str) -> date | None:
    """The date a sentence opens with, as a dated item does («28 июля 2025 года — 18 %»)."""
    mention = _opening_mention(sentence, dates_in)
    return mention.value if mention else None


@lru_cache(maxsize=20_000)
def item_year(sentence: str) -> int | None:
    """The year a sentence opens with («за 2025 год — …», «В 2026 году — …»)."""
    mention = _opening_mention(sentence, years_in)
    return mention.year if mention else None


def _numbers(texts: tuple[str, ...]) -> set[str]:
    return {"".join(ch for ch in t if ch.isdigit() or ch in ",.").replace(".", ",") for t in texts}


def matching_items(question: Question, found: list[Candidate]) -> set[int]:
    """``id`` of each candidate that is the dated item the question asks about."""
    moment = asked_moment(question)
    asked_percents = _numbers(tuple(p.text for p in question.percents))
    dated = [(c, d) for c in found if (d := item_date(c.sentence)) is not None]
    out: set[int] = set()
    if moment is not None:
        latest: dict[str, tuple[date, list[int]]] = {}
        for c, d in dated:
            if d > moment:
                continue
            best = latest.get(c.chunk.id)
            if best is None or d > best[0]:
                latest[c.chunk.id] = (d, [id(c)])
            elif d == best[0]:
                best[1].append(id(c))
        out.update(i for _, ids in latest.values() for i in ids)
    years = {y.year for y in question.years}
    if years:
        out.update(id(c) for c in found if item_year(c.sentence) in years)
    if asked_percents:
        for c, _ in dated:
            if asked_percents & _numbers(profile(c.sentence).percents):
                out.add(id(c))
    return out


# the year a value applies from: «с 2026 года», «с 1 января 2026 года», «начиная с …»
_FROM = frozenset({"с", "со"})
YEAR_MARGIN = 4.0  # logit units of the learned ranker: a far weaker sentence is not promoted


_BRACKETED = re.compile(r"\([^()]*\)")


def _own_value(remark: str) -> bool:
    """A bracketed remark stating a value of its own («(в 2024 году лимит был 350 000
    руб.)», «(раньше 1 400 руб.)»): a former or another case's figure, dated by its own
    year."""
    p = profile(remark)
    return bool(p.money or p.percents or p.shares)


def _main_clause(sentence: str) -> str:
    """The sentence without its bracketed remarks of a value of their own: the year such a
    remark names dates its figure, not the sentence's («Вычет предоставляется, пока доход
    не превысит 450 000 руб. (в 2024 году лимит был 350 000 руб.)» states no year of its
    own). A bracketed date alone («(с 1 января 2026 года)») dates the sentence's value."""
    return _BRACKETED.sub(lambda m: "" if _own_value(m.group(0)) else m.group(0), sentence)


@lru_cache(maxsize=20_000)
def _dated_years(sentence: str) -> tuple[frozenset[int], frozenset[int]]:
    """The years a sentence dates its value to, and those it states a value from (its
    bracketed remarks of a value of their own aside: :func:`_main_clause`)."""
    analysed = analyse(clean_sentence(_main_clause(sentence)))
    tokens = [t for s in analysed.sentences for t in s.tokens]
    before = {t.start: tokens[i - 1].lemma if i else "" for i, t in enumerate(tokens)}
    dated: set[int] = set()
    since: set[int] = set()
    mentions = [(m.start, m.value.year) for m in dates_in(analysed)]
    mentions += [(m.start, m.year) for m in years_in(analysed)]
    for start, year in mentions:
        (since if before.get(start) in _FROM else dated).add(year)
    return frozenset(dated), frozenset(since)


def dated_to_asked_year(sentence: str, years: set[int]) -> bool | None:
    """Whether the sentence's value is dated to an asked year (a year named, or one it
    applies from on or before it); False when it is dated to other years only; None when
    it names no year (a general rule)."""
    dated, since = _dated_years(sentence)
    if not dated and not since:
        return None
    return bool(dated & years) or any(s <= y for s in since for y in years)


def prefer_asked_year(question: Question, ranked: list[Candidate]) -> list[Candidate]:
    """A question about a year («базовая ставка с 2026 года»): when the best sentence dates
    its value to another year («Базовая ставка в 2025 году — 20 %»), the best sentence
    near it that states a value of the asked type dated to the asked year comes first,
    else the best one that names no year (the general rule)."""
    years = {y.year for y in question.years}
    if not years or not ranked or ranked[0].chunk.source == "user_docs":
        return ranked
    top = ranked[0]
    if dated_to_asked_year(top.sentence, years) is not False:
        return ranked
    near = [
        c
        for c in ranked[1:]
        if c.score >= top.score - YEAR_MARGIN and states_asked(profile(c.sentence), question)
    ]
    verdicts = [(c, dated_to_asked_year(c.sentence, years)) for c in near]
    best = next((c for c, v in verdicts if v), None)
    best = best or next((c for c, v in verdicts if v is None), None)
    if best is None:
        return ranked
    return promoted(ranked, best)
