"""A second value asked beside a card field: «сколько и до какого числа?».

A question may ask two values of different types («с какого числа и сколько в месяц?»,
«сколько осталось доплатить и до какой даты?»). When a card field answers one, the other
is read from the same sentence of the document (a clause that states an amount states its
date or term with it), else from the nearest value of that type in the sentences just
after it. Of several dates, those after the preposition the question asks with («до
какого числа» — «до», «не позднее»; «с какого числа» — «с»).

A bound asked beside a value («какая неустойка и какой у неё потолок?», «есть ли
ограничение?»: the question asks a limit) is the rate or amount its sentence states after a
word of an upper bound («но не более 10 % от стоимости», «не может превышать»), named
«предел»; of several candidate values of the field, those whose sentence states such a
bound answer, each named with its own value instead of «или» between clauses.
"""

from __future__ import annotations

from collections.abc import Sequence

from finagent.cards.model import DocumentCard, Fact
from finagent.language.cues import find_cue
from finagent.language.text import analyse
from finagent.question.model import Question

# the answer types a companion may state, the fact kinds of each and its name
_TYPES: dict[str, tuple[set[str], str]] = {
    "date": ({"date"}, "дата"),
    "period": ({"term"}, "срок"),
    "amount": ({"amount"}, "сумма"),
}
# how the question asks for the date, and the words before a date of that kind
_BOUNDS: tuple[tuple[tuple[str, ...], frozenset[str]], ...] = (
    (("до какого", "до какой", "по какое", "не позднее"), frozenset({"до", "позднее", "по"})),
    (("с какого", "с какой", "начиная с"), frozenset({"с", "начинать"})),
)
_LOOK_BACK = 3  # words before a value that may be its preposition
# words before a value that make it an upper bound («не более», «не свыше», «в пределах»)
_UPPER = frozenset(
    "более свыше превышать выше предел предельный максимум максимальный ограничивать "
    "ограничиваться".split()
)
_BOUND_KINDS = frozenset({"rate", "amount"})
_BOUND_NAME = "предел"
_TERM = "срок"  # a period asked: a deadline date of the value's own clause answers it
_DEADLINES = frozenset({"date"})
_CLAUSE_END = ";"  # the end of one clause of a sentence that states several values
_NEAR = 600  # characters after the answer's sentence where its companion may be stated


def _preceding(fact: Fact) -> set[str]:
    text = fact.sentence.text[: fact.start - fact.sentence.start]
    lemmas = [t.lemma for s in analyse(text).sentences for t in s.tokens]
    return set(lemmas[-_LOOK_BACK:])


def _bounded(question: Question, facts: list[Fact]) -> list[Fact]:
    for asked, before in _BOUNDS:
        if any(find_cue(question.lemmas, cue) >= 0 for cue in asked):
            fitting = [f for f in facts if _preceding(f) & before]
            return fitting or facts
    return facts


def _clause_of(fact: Fact) -> tuple[int, int]:
    """The span of the «;»-clause of its sentence that states the fact («первый платёж —
    …, — не позднее 20 марта; второй платёж — …, — не позднее 15 мая»)."""
    text, base = fact.sentence.text, fact.sentence.start
    at = fact.start - base
    start = text.rfind(_CLAUSE_END, 0, at) + 1
    end = text.find(_CLAUSE_END, at)
    return base + start, base + (len(text) if end < 0 else end)


def _same_clause(inside: list[Fact], stated: Sequence[Fact]) -> list[Fact]:
    """Of the facts of the answer's sentences, those of a stated value's own «;»-clause:
    a sentence of several payments states each one's date beside it."""
    spans = [_clause_of(f) for f in stated]
    return [f for f in inside if any(a <= f.start < b for a, b in spans)]


def _schedule(stated: Sequence[Fact], peers: Sequence[Fact]) -> bool:
    """The stated value's sentence states values of its kind in several «;»-clauses: a
    schedule («первый платёж — …; второй платёж — …; окончательный — …»), each clause with
    its own date or term."""
    own = {f.sentence for f in stated}
    kinds = {f.kind for f in stated}
    spans = {_clause_of(f) for f in peers if f.sentence in own and f.kind in kinds}
    return len(spans) > 1


def _near(
    question: Question,
    facts: list[Fact],
    stated: Sequence[Fact],
    dates: Sequence[Fact] = (),
    peers: Sequence[Fact] = (),
) -> list[Fact]:
    """The facts of the answer's sentences — in a schedule (:func:`_schedule` over the
    card's ``peers``) those of the stated value's own clause, where a deadline of ``dates``
    answers a period asked when the clause states no term («второй платёж — 512 400 руб. —
    не позднее 15 мая») — else the nearest one stated just after them; those after the
    preposition the question asks with, when any is."""
    own = {f.sentence for f in stated}
    inside = [f for f in facts if f.sentence in own]
    if _schedule(stated, peers):
        clause = _same_clause(inside, stated) or _same_clause(
            [f for f in dates if f.sentence in own], stated
        )
        if clause:
            return _bounded(question, clause)
    if inside:
        return _bounded(question, inside)
    end = max(f.sentence.end for f in stated)
    after = sorted((f for f in facts if end <= f.start <= end + _NEAR), key=lambda f: f.start)
    return _bounded(question, after)[:1]


def asks_bound(question: Question) -> bool:
    """The question asks a limit beside or of a value («и какой у неё потолок?»)."""
    return "limit" in question.answer_types


def bound_facts(card: DocumentCard, stated: Sequence[Fact]) -> list[Fact]:
    """The upper bounds the sentences of the ``stated`` facts set on them: a rate or an
    amount after «не более», «не свыше», «не может превышать» …, not a stated fact."""
    own = {f.sentence.start for f in stated}
    starts = {f.start for f in stated}
    return [
        f
        for f in card.facts
        if f.kind in _BOUND_KINDS
        and f.sentence.start in own
        and f.start not in starts
        and _preceding(f) & _UPPER
    ]


def companion_facts(
    question: Question, card: DocumentCard, stated: Sequence[Fact]
) -> list[tuple[str, list[Fact]]]:
    """(name, facts) for each asked type none of the ``stated`` facts has, and the bound
    of the stated value when the question asks one."""
    out: list[tuple[str, list[Fact]]] = []
    if not stated:
        return out
    if asks_bound(question):
        bounds = bound_facts(card, stated)
        if bounds:
            out.append((_BOUND_NAME, bounds))
    kinds_stated = {f.kind for f in stated}
    for answer_type in dict.fromkeys(question.answer_types):
        if answer_type not in _TYPES:
            continue
        kinds, name = _TYPES[answer_type]
        if not kinds & kinds_stated:
            facts = [f for f in card.facts if f.kind in kinds]
            dates = [f for f in card.facts if f.kind in _DEADLINES] if name == _TERM else []
            near = _near(question, facts, stated, dates, card.facts)
            if near:
                out.append((name, near))
    return out
