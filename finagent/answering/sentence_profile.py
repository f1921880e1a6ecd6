"""What a candidate sentence states: its lemmas and the kinds of values in it, cached by
text (the same Tax Code and document sentences come back in question after question).

The profiles of a user document's sentences are made once at ingestion and stored beside
its card (:mod:`finagent.answering.stored_profiles`); an answer puts the stored ones in
force with :func:`using_profiles`, and :func:`profile` returns them instead of computing."""

from __future__ import annotations

import re
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from functools import lru_cache

from razdel import tokenize

from finagent.language.counts import count_in_digits
from finagent.language.dates import days_of_month_in
from finagent.language.lemmas import lemma
from finagent.language.measures import quantities_in
from finagent.language.money import in_digits, money_in
from finagent.language.numbers import read_number
from finagent.language.periods import periods_in
from finagent.language.text import Analysed, analyse
from finagent.russian_months import MONTHS

_SPACE = "[ \u00a0\u202f\u2009]"
_NUMBER = rf"\d+(?:{_SPACE}\d{{3}})*(?:[.,]\d+)?"
# a figure may be spelled out after it, as contracts write: «7 (семь) процентов»
_SPELLED = r"(?:\([а-яё ,\-]{2,60}\)\s*)?"
PERCENT = re.compile(rf"(?<![\d.,]){_NUMBER}\s*{_SPELLED}(?:%|процент\w*)", re.I)
# a share the law words in the case of its sentence: «в размере 1 процента»
_PERCENT_WORDED = re.compile(rf"({_NUMBER})\s*{_SPELLED}процент\w*", re.I)
# a range names its unit once, after its upper bound: «от 4 000 до 5 000 руб.» is one sum
_RANGE_START = rf"(?:\bот{_SPACE}+{_NUMBER}{_SPACE}+до{_SPACE}+)?"
MONEY = re.compile(
    rf"(?<![\d.,]){_RANGE_START}{_NUMBER}\s*{_SPELLED}"
    rf"(?:(?:тыс\w*|млн\w*|млрд\w*)\.?\s*)?(?:руб\w*|₽|коп\w*|евро|долл\w*)",
    re.I,
)
# a cell a flattened table row labels with its currency: «Кредит (поступление), руб.: 7 536,45»,
# «Сумма, руб.: 18 000 000» (whole roubles in thousands' groups)
LABELLED_MONEY = re.compile(
    rf"(?:руб\.?|рублей|₽)\)?:{_SPACE}*"
    rf"(\d{{1,3}}(?:{_SPACE}\d{{3}})*,\d{{2}}|\d{{1,3}}(?:{_SPACE}\d{{3}})+)(?![\d,.])",
    re.I,
)
# a share written as a fraction: «1/300 ставки рефинансирования», «2/3 стоимости патента»
SHARE = re.compile(r"(?<![\d/.])\d{1,2}/\d{1,4}(?![\d/.])")
# a fraction right after a number sign is a document's number: «доверенность № 12/3», «№12/05»
_NUMBER_SIGN = re.compile(r"(?:№|\bN|\bномер\w*)\s*$", re.I)
_MONTH_WORDS = "|".join(sorted({re.escape(m) for m in MONTHS}, key=len, reverse=True))
DATE = re.compile(
    rf"\b\d{{1,2}}\.\d{{1,2}}\.\d{{2,4}}\b|\b\d{{1,2}}\s+(?:{_MONTH_WORDS})[а-я]{{0,3}}\b"
    rf"(?:\s+\d{{4}}(?:\s*г(?:ода|\.)?)?)?",
    re.I,
)
PERIOD = re.compile(
    rf"(?<![\d.,]){_NUMBER}\s*{_SPELLED}(?:(?:календарн|рабоч|банковск)\w*\s+)?"
    r"(?:дн(?:я|ей|ь)\b|день|месяц\w*|недел\w*|лет\b|год(?:а|ов)?\b|час\w*|минут\w*)"
    r"|\b(?:один|два|две|три|четыре|пять|шесть|десять)\w*\s+(?:дн\w+|месяц\w*|лет|год\w*)",
    re.I,
)
# a party named in full: a legal form before a quoted name, or a person's full name, its
# patronymic in any case («Крылову Елену Анатольевну», «Петрову Ивану Сергеевичу»)
PARTY = re.compile(
    r"\b(?:ООО|АО|ПАО|ЗАО|ОАО|ИП|НКО|ФГУП|МУП)\s*[«\"]|"
    r"\b[А-ЯЁ][а-яё]+\s+[А-ЯЁ][а-яё]+\s+[А-ЯЁ][а-яё]+"
    r"(?:вич(?:а|у|ем|е)?|(?:вн|ичн)(?:а|ы|е|у|ой|ою))\b|"
    r"\b[А-ЯЁ][а-яё]+\s+[А-ЯЁ]\.\s?[А-ЯЁ]\."
)
_WORD = re.compile(r"\w", re.U)
_ZERO_KOPECKS = re.compile(r"0+\s*коп\w*", re.I)
_SPELLED_OUT = re.compile(r"\s*\([а-яё ,\-]{2,60}\)\s*", re.I)


@dataclass(frozen=True)
class SentenceProfile:
    lemmas: frozenset[str]
    sequence: tuple[str, ...]  # the lemmas in order, for phrases («налог на прибыль»)
    percents: tuple[str, ...]
    shares: tuple[str, ...]  # fractions («1/150») and multipliers («коэффициента 2»)
    money: tuple[str, ...]
    dates: tuple[str, ...]
    periods: tuple[str, ...]
    days: tuple[str, ...]  # terms by a day of the month: «не позднее 10-го числа месяца»
    party: bool
    digits: bool
    # quantities in units of measure, (unit lemma, text): («метр», «20 кв. м»)
    measures: tuple[tuple[str, str], ...] = ()


_LEADING_NUMBER = re.compile(r"\d+")


def _is_year(period: str) -> bool:
    """«2025 года» is a year, not a period of 2025 years."""
    number = _LEADING_NUMBER.match(period)
    return number is not None and len(number.group(0)) == 4 and 1900 <= int(number.group(0)) <= 2100


def _worded_periods(analysed: Analysed) -> tuple[str, ...]:
    """Periods whose count is a word in any case («в течение двух месяцев», «пяти лет»),
    as the language layer reads them, without their relation and anchor."""
    out = []
    for period in periods_in(analysed):
        core = period.text
        if period.relation and core.startswith(period.relation):
            core = core[len(period.relation) :].strip()
        if period.anchor and core.endswith(period.anchor):
            core = core[: -len(period.anchor)].strip()
        if core and not any(ch.isdigit() for ch in core):
            out.append(core)
    return tuple(out)


def _periods(text: str, analysed: Analysed) -> tuple[str, ...]:
    figures = [m.group(0) for m in PERIOD.finditer(text) if not _is_year(m.group(0))]
    worded = [p for p in _worded_periods(analysed) if not any(p in f or f in p for f in figures)]
    return tuple(figures + worded)


def _worded_money(analysed: Analysed) -> tuple[str, ...]:
    """Sums written in words, as the Code writes its fines («в размере трех тысяч
    рублей»), as the language layer reads them."""
    return tuple(
        m.text for m in money_in(analysed, words=True) if not any(ch.isdigit() for ch in m.text)
    )


# a multiplier a value is taken with: «с применением коэффициента 2», «коэффициент 1,5»
_MULTIPLIER = "коэффициент"


def _fractions(text: str) -> tuple[str, ...]:
    """The fractions a text states as shares, leaving out document numbers («№ 7/15»)."""
    return tuple(
        m.group(0)
        for m in SHARE.finditer(text)
        if not _NUMBER_SIGN.search(text[max(0, m.start() - 12) : m.start()])
    )


def _coefficients(analysed: Analysed) -> tuple[str, ...]:
    """«коэффициента 2»: a multiplier with its figure, a rate of a kind."""
    out = []
    for sentence in analysed.sentences:
        tokens = sentence.tokens
        for i, token in enumerate(tokens[:-1]):
            number = read_number(sentence, i + 1) if token.lemma == _MULTIPLIER else None
            if number is not None:
                out.append(sentence.words(i, number[1] - 1))
    return tuple(out)


def shown(value: str) -> str:
    """A stated value as the first line states it: a sum written in words in digits
    («трех тысяч рублей» -> «3 000 руб.»; the quote keeps the words), a multiplier in the
    nominative («коэффициента 2» -> «коэффициент 2»), a share with its sign, whatever case
    the sentence puts the word in («1 процента», «7 (семь) процентов» -> «1 %», «7 %»), a
    count in words in digits, its noun agreed («двух месяцев» -> «2 месяца», «полутора
    месяцев» -> «1,5 месяца»; the figure checks read the source's words as the number), a
    fraction's noun in the genitive singular («1,5 месяцев» -> «1,5 месяца»)."""
    digits = in_digits(value)
    if digits is not None:
        return digits
    # a share first: «2,5 процентов» is «2,5 %», not a count of «процент»
    if worded := _PERCENT_WORDED.fullmatch(value.strip()):
        return f"{worded.group(1)} %"
    if (counted := count_in_digits(value.strip())) is not None:
        return counted
    head, _, rest = value.partition(" ")
    if rest and lemma(head) == _MULTIPLIER:
        return f"{_MULTIPLIER} {rest}"
    return value


# the stored profiles of the documents of the turn being answered, by exact text
_STORED: ContextVar[Mapping[str, SentenceProfile] | None] = ContextVar(
    "finagent_stored_profiles", default=None
)


@contextmanager
def using_profiles(stored: Mapping[str, SentenceProfile]) -> Iterator[None]:
    """Within the block, :func:`profile` returns ``stored[text]`` for a text it holds
    (profiles made by the same code at ingestion) instead of computing it."""
    token = _STORED.set(stored)
    try:
        yield
    finally:
        _STORED.reset(token)


def profile(text: str) -> SentenceProfile:
    """What ``text`` states: a stored profile in force, or computed (cached by text)."""
    stored = _STORED.get()
    if stored:
        found = stored.get(text)
        if found is not None:
            return found
    return computed_profile(text)


@lru_cache(maxsize=50_000)
def computed_profile(text: str) -> SentenceProfile:
    sequence = tuple(lemma(t.text) for t in tokenize(text) if _WORD.search(t.text))
    analysed = analyse(text)
    return SentenceProfile(
        lemmas=frozenset(sequence),
        sequence=sequence,
        percents=tuple(m.group(0) for m in PERCENT.finditer(text)),
        shares=_fractions(text) + _coefficients(analysed),
        money=tuple(m.group(0) for m in MONEY.finditer(text))
        + tuple(m.group(1) for m in LABELLED_MONEY.finditer(text))
        + _worded_money(analysed),
        dates=tuple(m.group(0) for m in DATE.finditer(text)),
        periods=_periods(text, analysed),
        days=tuple(d.text for d in days_of_month_in(analysed)),
        party=bool(PARTY.search(text)),
        digits=any(ch.isdigit() for ch in text),
        measures=tuple((q.unit, q.text) for q in quantities_in(analysed)),
    )


def _sums(money: tuple[str, ...]) -> tuple[str, ...]:
    """«297 200 рублей 00 копеек»: the zero kopecks are not a sum of their own."""
    return tuple(m for m in money if not _ZERO_KOPECKS.fullmatch(m))


def values_of(p: SentenceProfile, answer_type: str, days: bool = True) -> tuple[str, ...]:
    """The values of the asked type a sentence states (in order, repeats kept once); a
    date question's include the days of the month unless ``days`` is false."""
    if answer_type == "rate":
        found = p.percents + p.shares
    elif answer_type == "amount":
        found = _sums(p.money)
    elif answer_type == "limit":
        found = _sums(p.money) + p.percents
    elif answer_type == "date":
        found = p.dates + p.days if days else p.dates
    elif answer_type == "period":
        found = p.periods
    else:
        found = ()
    return tuple(dict.fromkeys(" ".join(_SPELLED_OUT.sub(" ", v).split()) for v in found))


def states_type(p: SentenceProfile, answer_type: str, days: bool = False) -> bool:
    """Whether the sentence holds a value of the asked type. A day of the month counts as a
    date only with ``days``: the learned ranker's weights were fit without them."""
    if answer_type == "party":
        return p.party
    return bool(values_of(p, answer_type, days))
