"""Which of a document's candidate values fits the question: by the qualifiers both state.

A document states one field several times: the price with and without VAT, per month
and for the whole term, per specification, the advance and the balance. The question's
qualifiers choose among them: VAT inclusion («с НДС», «в т. ч. НДС» vs «без НДС»,
«кроме того НДС»), the time basis («в месяц», «в сутки», «за весь срок»), a final figure
(«итого», «в итоге», «к оплате», «остаток»), and the other words and numbers it shares
with the value's own clause or table label («спецификация № 3», «второй транш»), also in
the clause's own wording (:mod:`finagent.language.synonyms`). A value
is read with the words of its own stretch of the clause (between the neighbouring
amounts), else of its clause, and a table cell with its row and column labels.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import pairwise

from finagent.cards.model import Fact
from finagent.language.cues import cue_lemmas, find_cue
from finagent.language.lemmas import name_like
from finagent.language.numbers import ORDINALS
from finagent.language.synonyms import by_root, by_synonym
from finagent.language.text import analyse
from finagent.question.model import Question
from finagent.question.tables import STOP_LEMMAS

# qualifier classes: each value of a class is a tuple of cue phrases (lemmas matched)
VAT: dict[str, tuple[str, ...]] = {
    "with": (
        "с НДС",
        "в том числе НДС",
        "в т. ч. НДС",
        "в т.ч. НДС",
        "включая НДС",
        "с учётом НДС",
        "НДС включён",
    ),
    "without": (
        "без НДС",
        "без учёта НДС",
        "кроме того НДС",
        "не включая НДС",
        "НДС не облагается",
    ),
}
BASIS: dict[str, tuple[str, ...]] = {
    "month": ("в месяц", "за месяц", "ежемесячно", "ежемесячный", "месячный"),
    "day": ("в сутки", "за сутки", "в день", "за день", "ежедневно", "посуточно"),
    "quarter": ("в квартал", "за квартал", "ежеквартально", "квартальный"),
    "year": ("в год", "ежегодно", "годовой"),
    "term": ("за весь срок", "весь срок", "общая сумма", "общая стоимость"),
}
# a final figure: the total of everything, or what remains after what was paid
FINAL: dict[str, tuple[str, ...]] = {
    # a turnover is the total of a period's operations («Обороты по кредиту (поступило)»)
    "total": ("итого", "всего", "в итоге", "итоговый", "общая сумма", "оборот"),
    "rest": ("остаток", "остаться", "сальдо", "к доплате", "доплатить", "окончательный расчёт"),
    # what is paid after every deduction: «Итого к оплате по акту», «К выплате»
    "payable": ("к оплате", "к выплате", "к перечислению"),
}
# a total that is also what is payable («Итого к оплате») is what is payable; what remains
# payable («Остаток к оплате») is the rest
_FINAL_OVER = {
    frozenset({"total", "payable"}): "payable",
    frozenset({"rest", "payable"}): "rest",
}
_TOTALS = frozenset({"total", "payable"})
_CLAUSE_BREAKS = frozenset({";"})
_NAMES = frozenset({"number", "identifier"})  # «№ 3» names an object, it is no figure
# a clause's qualifier is a weaker sign than one in the value's own stretch
_OWN, _CLAUSE = 2.0, 1.0
_SHARED = 0.5  # each content word or number the question shares with the value's context
# a value wins alone by this much: a qualifier, or two shared words, not one shared word
DECISIVE = 1.0


@dataclass(frozen=True)
class Qualifiers:
    vat: str | None = None
    basis: str | None = None
    final: str | None = None


def _class_of(
    lemmas: Sequence[str], table: dict[str, tuple[str, ...]], *, first: bool = False
) -> str | None:
    """The class value whose cue occurs in ``lemmas`` (None when none or several do, but
    a pair one of which refines the other: ``_FINAL_OVER``). With ``first``, of several the
    one whose cue opens the words: «Всего подлежит удержанию (остаток долга + сбор)» is a
    total whose label names the parts it sums."""
    at: dict[str, int] = {}
    for key, cues in table.items():
        places = [p for c in cues if (p := find_cue(lemmas, c)) >= 0]
        if places:
            at[key] = min(places)
    if len(at) > 1:
        over = _FINAL_OVER.get(frozenset(at))
        if over is not None or not first:
            return over
        return min(at, key=lambda key: at[key])
    return next(iter(at), None)


def qualifiers_of(lemmas: Sequence[str]) -> Qualifiers:
    return _qualifiers(tuple(lemmas))


@lru_cache(maxsize=16_384)  # a value's context, read again for every question: bounded
def _qualifiers(lemmas: tuple[str, ...]) -> Qualifiers:
    return Qualifiers(
        vat=_class_of(lemmas, VAT),
        basis=_class_of(lemmas, BASIS),
        final=_class_of(lemmas, FINAL, first=True),
    )


def asked(question: Question) -> Qualifiers:
    """The qualifiers the question states of the value it asks."""
    return qualifiers_of(question.lemmas)


def _lemmas(text: str) -> list[str]:
    return [t.lemma for s in analyse(text).sentences for t in s.tokens]


def _clause(fact: Fact) -> tuple[str, int, int]:
    """The clause of the value's sentence (between «;») and the value's offsets in it."""
    text = fact.sentence.text
    at, end = fact.start - fact.sentence.start, fact.end - fact.sentence.start
    left = max(text.rfind(b, 0, at) for b in _CLAUSE_BREAKS) + 1
    right = min((i for b in _CLAUSE_BREAKS if (i := text.find(b, end)) >= 0), default=len(text))
    return text[left:right], at - left, end - left


@dataclass(frozen=True)
class Context:
    own: list[str]  # lemmas of the value's own stretch of its clause (or its table label)
    clause: list[str]  # lemmas of the whole clause
    labelled: bool = False  # a table cell read with its row and column labels
    # a table cell's whole row (its other cells: the counterparty, the item it is of)
    row: tuple[str, ...] = ()


def context_of(fact: Fact, neighbours: Sequence[Fact]) -> Context:
    """The words that qualify ``fact``: its table label, else the stretch of its clause
    between the amounts before and after it, and the whole clause. The figures of the
    clause (the value's own digits, other sums and dates) are no words of it; the numbers
    of documents and objects («Спецификация № 3») are."""
    if fact.label:
        lemmas = _lemmas(fact.label)
        return Context(lemmas, lemmas, labelled=True, row=tuple(_lemmas(fact.sentence.text)))
    clause, at, end = _clause(fact)
    base = fact.start - at
    inside = [
        (n.start - base, n.end - base, n.kind)
        for n in neighbours
        if n.kind not in _NAMES and 0 <= n.start - base and n.end - base <= len(clause)
    ]
    words = list(clause)
    for s, e, _ in inside:
        words[s:e] = " " * (e - s)
    blanked = "".join(words)
    amounts = [(s, e) for s, e, kind in inside if kind == fact.kind and (s, e) != (at, end)]
    left = max((e for s, e in amounts if e <= at), default=0)
    right = min((s for s, e in amounts if s >= end), default=len(clause))
    return Context(_lemmas(blanked[left:right]), _lemmas(blanked))


def _class_score(wanted: str | None, own: str | None, clause: str | None) -> float:
    if wanted is None:
        return 0.0
    if own is not None:
        return _OWN if own == wanted else -_OWN
    if clause is not None:
        return _CLAUSE if clause == wanted else -_CLAUSE
    return 0.0


def _final_score(wanted: str | None, own: str | None, clause: str | None) -> float:
    """As :func:`_class_score`; but a total asked («итого с НДС») is met, more weakly than
    by a total of its own, by a final figure that is a total payable («Всего к оплате»):
    it is the whole sum, not an item's cell."""
    if wanted == "total" and (own or clause) == "payable":
        return _CLAUSE
    return _class_score(wanted, own, clause)


@dataclass(frozen=True)
class Fit:
    score: float
    conflict: bool  # the value's own words contradict a qualifier the question states


def _ordinals_named(asked: Sequence[str], lemmas: Sequence[str]) -> set[str]:
    """The objects the question names by an ordinal («второй этап», «третий транш») that
    the context names by the same noun and that number («Этап 2», «транш № 3»)."""
    out = set()
    for ordinal, noun in pairwise(asked):
        if ordinal not in ORDINALS:
            continue
        number = str(ORDINALS[ordinal])
        for i, word in enumerate(lemmas[:-1]):
            following = lemmas[i + 2] if lemmas[i + 1] == "№" and i + 2 < len(lemmas) else None
            if word == noun and number in (lemmas[i + 1], following):
                out.add(number)
    return out


def fit(question: Question, wanted: Qualifiers, context: Context, ignore: set[str]) -> Fit:
    """How well a value's context fits the question's qualifiers and words."""
    own, clause = qualifiers_of(context.own), qualifiers_of(context.clause)
    parts = [
        _class_score(wanted.vat, own.vat, clause.vat),
        _class_score(wanted.basis, own.basis, clause.basis),
        _final_score(wanted.final, own.final, clause.final),
    ]
    words = {lm for lm in question.lemmas if lm not in STOP_LEMMAS and lm not in ignore}
    words = {w for w in words if w.isalnum()}
    clause_words = set(context.clause)
    shared = words & clause_words
    # the clause's own wording of a question word: a synonym («на юристов» — «услуг
    # представителя») counts as the word, a word of its root («страховать» — «страховую
    # сумму») as half of it
    kin = len(by_synonym(words, clause_words)) + 0.5 * len(
        by_root(words - by_synonym(words, clause_words), clause_words)
    )
    # a number the question names («спецификация № 3», «второй этап» — «Этап 2») identifies
    # the object itself
    numbers = {w for w in shared if w.isdigit()} | _ordinals_named(question.lemmas, context.own)
    # a name the question gives («по ЛогистикПро») that a table row holds identifies the
    # row, like a number (the names of the document's own parties are in ``ignore``)
    named = (named_words(question) - ignore) & set(context.row)
    score = (
        sum(parts)
        + _SHARED * (len(shared - numbers - named) + kin)
        + DECISIVE * len(numbers | named)
    )
    return Fit(score, any(p < 0 for p in parts))


def _a_name(word: str) -> bool:
    """A brand or a name, not a capitalised common word («ИТ-обслуживание»): a part of it
    is name-like (pymorphy3 tags, unknown to the dictionary, capitals inside a word)."""
    return any(name_like(part) for part in word.split("-") if part)


def named_words(question: Question) -> set[str]:
    """Lemmas of the names the question gives as written («ЛогистикПро», «ТехСервис-Плюс»)."""
    return {
        lm
        for name in question.names
        for lm in _lemmas(name)
        if any(c.isalpha() for c in lm) and _a_name(lm if lm.isalpha() else name)
    }


def qualifier_words() -> set[str]:
    """Lemmas of every qualifier cue: they are scored as qualifiers, not as shared words."""
    cues = [c for t in (VAT, BASIS, FINAL) for cs in t.values() for c in cs]
    return {lm for cue in cues for lm in cue_lemmas(cue)}


def _item_named(question: Question, contexts: Sequence[Context], skip: set[str]) -> bool:
    """Whether the question shares a content word or number with an item row of a table
    (a labelled value that is no total): it asks about that item, not the whole."""
    words = {lm for lm in question.lemmas if lm not in STOP_LEMMAS and lm not in skip}
    words = {w for w in words if w.isalnum()}
    return any(
        words & set(c.own) for c in contexts if c.labelled and qualifiers_of(c.own).final is None
    )


def best_facts(
    question: Question, facts: Sequence[Fact], neighbours: Sequence[Fact], ignore: set[str]
) -> tuple[list[Fact], bool]:
    """The candidates that fit the question best (all of them closer than ``DECISIVE`` to
    the best: never one picked on a single shared word), and whether even they all
    contradict a qualifier the question states. A table's total row («Итого») is the
    document's figure when the question asks no final figure and names no item row: it
    leads the items' cells by ``DECISIVE``."""
    if not facts:
        return [], False
    wanted = asked(question)
    skip = ignore | qualifier_words()
    contexts = [context_of(f, neighbours) for f in facts]
    fits = [fit(question, wanted, c, skip) for c in contexts]
    if wanted.final is None and not _item_named(question, contexts, skip):
        fits = [
            Fit(f.score + DECISIVE, f.conflict)
            if c.labelled and qualifiers_of(c.own).final in _TOTALS
            else f
            for f, c in zip(fits, contexts, strict=True)
        ]
    top = max(f.score for f in fits)
    close = [(f, s) for f, s in zip(facts, fits, strict=True) if s.score > top - DECISIVE]
    return [f for f, _ in close], all(s.conflict for _, s in close)
