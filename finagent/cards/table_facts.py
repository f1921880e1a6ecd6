"""Facts read from table cells: each gets its row and column label, and the field they name.

A figure with kopecks in a cell («1 056 000,00» under «Стоимость с НДС, руб.») is an
amount although no currency follows it: the header states the currency, or the document
states its amounts in one currency. The field of a cell's value is named by its row
(«Всего к оплате», «Сальдо конечное»); a totals row's VAT column holds the VAT, and the
items' rows name no field of the card (their labels still qualify them).
"""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal, InvalidOperation

from finagent.cards import fields as F
from finagent.cards.model import Fact
from finagent.cards.tables import Cell
from finagent.language.cues import cue_lemmas
from finagent.language.money import CURRENCIES
from finagent.language.spans import Money
from finagent.language.text import Analysed, analyse

_KOPECKS = 2  # «754 800,00»: two decimals mark an amount of money
# a minus before a cell's figure: a debit balance («Сумма сальдо, руб.: -486 312,40»)
_MINUS = ("-", "\u2212", "\u2013")


def _figure(text: str) -> Decimal | None:
    """«1 056 000,00» → 1056000.00, «-486 312,40» → -486312.40 (a negative balance);
    None unless a number with two decimals."""
    plain = text.strip("* ").replace("\u00a0", " ").replace(" ", "")
    sign = ""
    if plain.startswith(_MINUS):
        sign, plain = "-", plain[1:]
    whole, comma, decimals = plain.partition(",")
    if not comma or len(decimals) != _KOPECKS or not (whole + decimals).isdigit():
        return None
    if not whole.isascii():
        return None
    try:
        return Decimal(f"{sign}{whole}.{decimals}")
    except InvalidOperation:
        return None


def _lemmas(text: str) -> list[str]:
    return [t.lemma for s in analyse(text).sentences for t in s.tokens]


def _currency(cell: Cell, default: str | None) -> str | None:
    for lemma in _lemmas(cell.label):
        if lemma in CURRENCIES:
            return CURRENCIES[lemma]
    return default


def bare_amounts(analysed: Analysed, cells: Sequence[Cell], found: Sequence[Money]) -> list[Money]:
    """Amounts of cells whose figure has kopecks and no currency after it."""
    currencies = {m.currency for m in found}
    default = next(iter(currencies)) if len(currencies) == 1 else None
    taken = [(m.start, m.end) for m in found]
    out: list[Money] = []
    for cell in cells:
        amount = _figure(analysed.text[cell.start : cell.end])
        if amount is None or any(s < cell.end and cell.start < e for s, e in taken):
            continue
        currency = _currency(cell, default)
        sentence = next(
            (
                s.sentence
                for s in analysed.sentences
                if s.sentence.start <= cell.start < s.sentence.end
            ),
            None,
        )
        if currency is None or sentence is None:
            continue
        text = analysed.text[cell.start : cell.end]
        out.append(
            Money(
                text=text,
                start=cell.start,
                end=cell.end,
                sentence=sentence,
                amount=amount,
                currency=currency,
            )
        )
    return out


def field_named(text: str, kinds: tuple[F.FieldKind, ...]) -> str | None:
    """The field a label names: the cue that ends last in it («Сумма НДС» → НДС; «с НДС»
    qualifies an amount, as in a clause)."""
    lemmas = _lemmas(text)
    best: tuple[int, int, str] | None = None
    for order, field in enumerate(F.FIELDS):
        if field.kind not in kinds:
            continue
        not_after = {lm for word in field.not_after for lm in cue_lemmas(word)}
        for cue in field.cues:
            cue_lm = cue_lemmas(cue)
            for at in range(len(lemmas) - len(cue_lm) + 1):
                if tuple(lemmas[at : at + len(cue_lm)]) != cue_lm:
                    continue
                if at > 0 and lemmas[at - 1] in not_after:
                    continue
                end = at + len(cue_lm)
                if best is None or (-end, order) < (-best[0], best[1]):
                    best = (end, order, field.key)
    return best[2] if best else None


def label_table_facts(facts: Sequence[Fact], cells: Sequence[Cell]) -> None:
    """Give each fact inside a cell the cell's label and the field its row or column names."""
    for fact in facts:
        cell = next((c for c in cells if c.start <= fact.start and fact.end <= c.end), None)
        if cell is None:
            continue
        fact.label = cell.label
        if fact.kind in ("number", "identifier"):
            continue
        kinds = F.AMOUNT_KINDS if fact.kind in ("amount", "rate") else F.DATE_KINDS
        named = field_named(cell.row, kinds)
        # a totals row's VAT column holds the VAT; the items' rows name no field of the card
        if named in (None, "total") and field_named(cell.column, kinds) == "vat":
            named = "vat" if named else None
        fact.field = named or "other"
