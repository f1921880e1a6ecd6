"""Labelled facts: each amount, rate, date and term gets the field its clause names."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal

from finagent.cards import fields as F
from finagent.cards.model import Fact, FactKind
from finagent.language.cues import cue_lemmas
from finagent.language.lemmas import part_of_speech
from finagent.language.spans import DateMention, Identifier, Money, Percent, Period, Span
from finagent.language.text import Analysed, AnalysedSentence

_BEFORE = 12  # tokens of the clause before a value that may name its field
_AFTER = 4
_CLAUSE_BREAKS = {";"}
_PER_MONTH = ("в месяц", "ежемесячно", "ежемесячный")
_UNIT_NAMES = {
    ("hour", None): "час.",
    ("day", None): "дн.",
    ("day", "working"): "рабочих дн.",
    ("day", "calendar"): "календарных дн.",
    ("day", "banking"): "банковских дн.",
    ("week", None): "нед.",
    ("month", None): "мес.",
    ("quarter", None): "кв.",
    ("year", None): "г.",
}
_CURRENCY_SIGNS = {"RUB": "руб.", "USD": "долл. США", "EUR": "евро", "CNY": "юаней"}


def _number(value: Decimal) -> str:
    """«297 200», «49 533,33», «0,1»."""
    integral = value == value.to_integral_value()
    text = f"{value:,.0f}" if integral else f"{value:,.2f}".rstrip("0")
    return text.replace(",", " ").replace(".", ",")


def _sentence_of(analysed: Analysed, span: Span) -> AnalysedSentence:
    return next(s for s in analysed.sentences if s.sentence.start == span.sentence.start)


def _window(sentence: AnalysedSentence, span: Span) -> tuple[list[str], list[str]]:
    """Lemmas of the clause before the span (nearest last) and a few after it."""
    tokens = sentence.tokens
    first = next(i for i, t in enumerate(tokens) if t.end > span.start)
    last = max((i for i, t in enumerate(tokens) if t.start < span.end), default=first)
    before: list[str] = []
    for token in reversed(tokens[max(0, first - _BEFORE) : first]):
        if token.text in _CLAUSE_BREAKS:
            break
        before.insert(0, token.lemma)
    after = [t.lemma for t in tokens[last + 1 : last + 1 + _AFTER]]
    return before, after


def _cue_distance(
    before: Sequence[str], cue: tuple[str, ...], not_after: frozenset[str] = frozenset()
) -> int | None:
    for end in range(len(before), len(cue) - 1, -1):
        at = end - len(cue)
        if tuple(before[at:end]) == cue and not (at > 0 and before[at - 1] in not_after):
            return len(before) - end
    return None


def label(sentence: AnalysedSentence, span: Span, kinds: tuple[F.FieldKind, ...]) -> str:
    """The field whose cue is nearest before the span in its clause (then just after it).
    A cue that opens with a preposition («на срок») says what the noun before it is given
    for: when that noun is another field's cue («с испытанием на срок 3 месяца»), the
    value is that field's (``_governing``)."""
    before, after = _window(sentence, span)
    best: tuple[int, int, str] | None = None
    found: list[tuple[int, int, str, tuple[str, ...]]] = []
    for order, field in enumerate(F.FIELDS):
        if field.kind not in kinds:
            continue
        # «с НДС» qualifies an amount («всего с НДС: 1 056 000») but names a rate («с НДС 20 %»)
        not_after = (
            frozenset(lemma for word in field.not_after for lemma in cue_lemmas(word))
            if kinds[0] == "amount"
            else frozenset()
        )
        for cue in field.cues:
            lemmas = cue_lemmas(cue)
            distance = _cue_distance(before, lemmas, not_after)
            if distance is None and _cue_distance(after[: len(lemmas) + 1], lemmas) is not None:
                distance = _BEFORE + 1
            if distance is not None:
                found.append((distance, order, field.key, lemmas))
            if distance is not None and (best is None or (distance, order) < best[:2]):
                best = (distance, order, field.key)
    if best is None:
        return "other"
    return _governing(best, found) or best[2]


def _governing(
    best: tuple[int, int, str], found: Sequence[tuple[int, int, str, tuple[str, ...]]]
) -> str | None:
    """The field of the noun a prepositional cue follows: «испытание» of «испытанием на
    срок»; not a verb («заключён на срок» states how long the contract runs)."""
    cue = next(lemmas for d, o, key, lemmas in found if (d, o, key) == best)
    if part_of_speech(cue[0]) != "PREP":
        return None
    before = best[0] + len(cue)
    for distance, _order, key, lemmas in sorted(found):
        if distance == before and key != best[2] and part_of_speech(lemmas[-1]) == "NOUN":
            return key
    return None


def _per(sentence: AnalysedSentence, span: Span) -> str | None:
    before, after = _window(sentence, span)
    window = before[-3:] + after
    for cue in _PER_MONTH:
        lemmas = cue_lemmas(cue)
        if any(tuple(window[i : i + len(lemmas)]) == lemmas for i in range(len(window))):
            return "month"
    return None


def _fact(
    analysed: Analysed, span: Span, kind: FactKind, value: str, kinds: tuple[F.FieldKind, ...]
) -> Fact:
    sentence = _sentence_of(analysed, span)
    return Fact(
        field=label(sentence, span, kinds),
        kind=kind,
        value=value,
        text=span.text,
        start=span.start,
        end=span.end,
        sentence=span.sentence,
        per=_per(sentence, span) if kind == "amount" else None,
    )


def amount_facts(analysed: Analysed, money: list[Money]) -> list[Fact]:
    return [
        _fact(
            analysed,
            m,
            "amount",
            f"{_number(m.amount)} {_CURRENCY_SIGNS.get(m.currency, m.currency)}",
            F.AMOUNT_KINDS,
        )
        for m in money
    ]


def rate_facts(analysed: Analysed, percents: list[Percent]) -> list[Fact]:
    return [_fact(analysed, p, "rate", f"{_number(p.value)} %", F.RATE_KINDS) for p in percents]


def date_facts(analysed: Analysed, dates: list[DateMention]) -> list[Fact]:
    return [_fact(analysed, d, "date", d.value.isoformat(), F.DATE_KINDS) for d in dates]


def term_facts(analysed: Analysed, periods: list[Period]) -> list[Fact]:
    facts = []
    for period in periods:
        unit = _UNIT_NAMES.get((period.unit, period.day_kind)) or _UNIT_NAMES[(period.unit, None)]
        facts.append(
            _fact(analysed, period, "term", f"{_number(period.count)} {unit}", F.TERM_KINDS)
        )
    return facts


def number_facts(identifiers: list[Identifier]) -> list[Fact]:
    return [
        Fact(
            field=i.label if i.label != "number" else f"number:{i.of or ''}",
            kind="number" if i.label == "number" else "identifier",
            value=i.value,
            text=i.text,
            start=i.start,
            end=i.end,
            sentence=i.sentence,
        )
        for i in identifiers
    ]
