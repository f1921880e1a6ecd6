"""A total over the rows of a document's table: «сколько всего пришло от X за март».

A statement, register or table whose rows a document's text flattens into cells («Дата:
03.03.2025; Контрагент: …; Кредит (поступление), руб.: 1 284 000,00») is read whole
(the named document's full text, never a retrieved part of it). Of a question asking a
total (``data/row_totals.yaml``: «всего», «итого») in one direction (incoming: «пришло»,
«поступило»; outgoing: «оплатили», «перечислили») of a party it names, the rows summed
are those with a cell naming the party, a date in the asked months (all rows without
one) and a sum in a column of that direction; a row of the other direction is never
summed. The lead shows the total as an equation of the rows' sums (the figure check
accepts a result only so, :func:`finagent.answering.figures.computed`) and the rows'
numbers; each row is quoted under it.

The module is also the one reader of «does the question ask a total» (:func:`asks_total`,
which the document sentences' order reads too) and of a table's total row
(:func:`total_label`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal
from functools import cache
from importlib import resources

from finagent.answering.evidence import FULL, Candidate
from finagent.cards.tables import row_cells
from finagent.language.dates import MONTHS
from finagent.language.lemmas import counted, fold, lemma
from finagent.language.money import digits_of
from finagent.question.model import Question
from finagent.yaml_data import load_yaml

_FILE = "row_totals.yaml"
MIN_CELLS = 3  # a flattened row has at least this many «label: value» cells
_CELL = re.compile(r"^\s*([^:;]{1,80}):\s+(.+?)\s*$")
_DATE = re.compile(r"\b(\d{2})\.(\d{2})\.(\d{4})\b")
_SUM = re.compile(r"^\d{1,3}(?: \d{3})*(?:,\d{2})?$")
_WORDS = re.compile(r"[\w-]+")
MIN_NAME = 5  # letters of a party's name as written; its ending may differ in the row
_ENDING = 2  # letters a case ending may change («СибМеталлТоргу» — «СибМеталлТорг»)
_ROW_NUMBER = ("№", "n", "номер")


@cache
def _table() -> dict[str, object]:
    text = resources.files("finagent.answering").joinpath("data", _FILE).read_text("utf-8")
    data: dict[str, object] = load_yaml(text)
    return data


def _words(key: str) -> frozenset[str]:
    return frozenset(str(w) for w in _table()[key])  # type: ignore[attr-defined]


def _directions() -> dict[str, tuple[frozenset[str], frozenset[str]]]:
    raw: dict[str, dict[str, list[str]]] = _table()["directions"]  # type: ignore[assignment]
    return {key: (frozenset(v["asked"]), frozenset(v["columns"])) for key, v in raw.items()}


@dataclass(frozen=True)
class Row:
    candidate: Candidate
    cells: tuple[tuple[str, str], ...]

    def label_lemmas(self, label: str) -> frozenset[str]:
        return frozenset(lemma(w) for w in _WORDS.findall(label.lower()))

    @property
    def number(self) -> str | None:
        first_label, first_value = self.cells[0]
        return first_value if fold(first_label).strip() in _ROW_NUMBER else None


@dataclass(frozen=True)
class RowTotal:
    """The rows summed, their sums as written and the total."""

    rows: tuple[Row, ...]
    sums: tuple[str, ...]
    total: Decimal

    def lines(self) -> list[str]:
        """«Всего — 3 300 000,00 руб.: a + b + c = 3 300 000,00 руб. (3 строки …) [n].»
        and the rows quoted."""
        first = self.rows[0].candidate
        total = shown_sum(self.total)
        numbers = [r.number for r in self.rows if r.number]
        which = f": № {', '.join(numbers)}" if len(numbers) == len(self.rows) else ""
        count = counted(len(self.rows), "строка")
        where = f"документа «{first.chunk.title}»" if first.chunk.title else "документа"
        equation = f"{' + '.join(self.sums)} = {total} руб." if len(self.sums) > 1 else ""
        head = f"Всего — {total} руб." + (f": {equation}" if equation else "")
        line = f"{head} ({count} {where}{which}) [{first.number}]."
        quotes = [f"- «{r.candidate.sentence.strip()}» [{first.number}]" for r in self.rows]
        return [line, "\n".join(quotes)]


def shown_sum(value: Decimal) -> str:
    """«3 300 000,00»: the kopecks always shown."""
    return digits_of(value.quantize(Decimal("0.01")), kopecks=True)


def _row(candidate: Candidate) -> Row | None:
    cells = []
    for part in candidate.sentence.split("; "):
        found = _CELL.match(part)
        if found is None:
            return None
        cells.append((found.group(1).strip(), found.group(2).strip()))
    return Row(candidate, tuple(cells)) if len(cells) >= MIN_CELLS else None


def asked_direction(question: Question) -> str | None:
    """«incoming» or «outgoing» when the question asks exactly one."""
    lemmas = set(question.lemmas)
    named = [k for k, (asked, _) in _directions().items() if asked & lemmas]
    return named[0] if len(named) == 1 else None


_DASHES = frozenset("–—-")


def asked_months(question: Question) -> tuple[set[int], int | None]:
    """The months asked and the year named: «за март и май» lists two months; «за
    июль–сентябрь», «с июля по сентябрь» name a range (a dash or a word of
    ``data/row_totals.yaml`` ``month_range_words`` between the two)."""
    numbers: list[int] = []
    ranged = False
    since: int | None = None  # the position after the last month named
    for at, lm in enumerate(question.lemmas):
        named = [MONTHS[p] for p in re.split(r"[–—-]", lm) if p in MONTHS]
        if not named:
            continue
        between = question.lemmas[since:at] if since is not None else []
        # only a range word or a dash right between the two months: in «за март по
        # договору поставки и за май» the «по» belongs to the contract
        joins = _words("month_range_words") | _DASHES
        ranged = ranged or len(named) > 1 or (bool(between) and set(between) <= joins)
        numbers += named
        since = at + 1
    numbers += [m.month for m in question.months if m.month not in numbers]
    year = next((m.year for m in question.months if m.year), None)
    year = year or next((int(lm) for lm in question.lemmas if re.fullmatch(r"20\d\d", lm)), None)
    if ranged and len(numbers) == 2 and numbers[0] < numbers[1]:
        return set(range(numbers[0], numbers[1] + 1)), year
    return set(numbers), year


def _names_party(row: Row, names: list[str]) -> bool:
    text = fold(" ".join(v for _, v in row.cells))
    for name in names:
        written = fold(name)
        stem = written[: len(written) - _ENDING] if len(written) > MIN_NAME + _ENDING else written
        if len(stem) >= MIN_NAME and stem in text:
            return True
    return False


def _in_months(row: Row, months: set[int], year: int | None) -> bool:
    if not months:
        return True
    for _, value in row.cells:
        found = _DATE.match(value)
        if found:
            month, at = int(found.group(2)), int(found.group(3))
            return month in months and (year is None or at == year)
    return False


def _sum_of(row: Row, columns: frozenset[str], others: frozenset[str]) -> str | None:
    """The row's sum in a column of the asked direction; None when it has none, or has one
    of the other direction too."""
    mine = [v for label, v in row.cells if row.label_lemmas(label) & columns and _SUM.match(v)]
    theirs = [v for label, v in row.cells if row.label_lemmas(label) & others and _SUM.match(v)]
    return mine[0] if len(mine) == 1 and not theirs else None


def asks_total(question: Question) -> bool:
    """The question asks a total: a word of ``total_words`` as written («всего», «итого»:
    the lemma of «всего» is «весь», and «за весь срок» asks none), or an adjective of
    ``total_adjectives`` in any form beside a noun of ``total_nouns`` («итоговое сальдо»,
    «общую сумму», «сумма общая»); «на общей системе», «в общем порядке» ask none."""
    written = _words("total_words")
    adjectives = _words("total_adjectives")
    nouns = {fold(w) for w in _words("total_nouns")}
    words = _WORDS.findall(fold(question.text))
    lemmas = [fold(lemma(w)) for w in words]
    if any(w in written for w in words):
        return True
    return any(
        lm in adjectives and nouns & set(lemmas[max(i - 1, 0) : i] + lemmas[i + 1 : i + 2])
        for i, lm in enumerate(lemmas)
    )


_ROW_CELLS = 2  # a row read as «header: value; header: value»


def total_label(sentence: str) -> str | None:
    """The label of a table row of a total: its cell opening with a word of
    ``total_rows`` («Итого по субсчёту 62.01», «ВСЕГО») or ending with one («Дебиторская
    задолженность, всего»); None for any other sentence, and for an attribute named with
    «общий» or «итоговый» («Общая площадь», «Итоговая оценка»), which sums no rows."""
    cells = row_cells(sentence)
    if len(cells) < _ROW_CELLS or any(value is None for _, value in cells):
        return None  # no row of «header: value» cells
    labels = _words("total_rows")
    for _, value in cells:
        if value is None:
            continue
        words = fold(value).replace(",", " ").split()
        if words and (words[0] in labels or words[-1] in labels):
            return value
    return None


def row_total(question: Question, ranked: list[Candidate]) -> RowTotal | None:
    """The total the question asks over one whole document's rows, or None."""
    if question.answer_type != "amount" or not question.names or not asks_total(question):
        return None
    direction = asked_direction(question)
    if direction is None:
        return None
    columns = _directions()[direction][1]
    others = frozenset().union(*(c for k, (_, c) in _directions().items() if k != direction))
    months, year = asked_months(question)
    by_document: dict[str | None, list[Row]] = {}
    seen: set[str] = set()
    for candidate in ranked:
        if candidate.chunk.source != "user_docs" or not candidate.chunk.metadata.get(FULL):
            continue
        row = _row(candidate)
        if row is None or candidate.sentence in seen:
            continue
        seen.add(candidate.sentence)
        if _names_party(row, question.names) and _in_months(row, months, year):
            by_document.setdefault(candidate.chunk.document_id, []).append(row)
    best: RowTotal | None = None
    for rows in by_document.values():
        summed = [
            (r, s)
            for r in sorted(rows, key=lambda r: r.candidate.position)
            if (s := _sum_of(r, columns, others))
        ]
        if not summed:
            continue
        total = sum((Decimal(s.replace(" ", "").replace(",", ".")) for _, s in summed), Decimal(0))
        found = RowTotal(tuple(r for r, _ in summed), tuple(s for _, s in summed), total)
        if best is None or len(found.rows) > len(best.rows):
            best = found
    return best
