"""A table cell looked up by its row and its column: «какая остаточная стоимость сервера
Dell», «сколько за квартал всего по ведомости», «какая компенсация за интернет в месяц».

A table of a user's document (the named document's full text, never a retrieved part of
it) is read as a header over rows. A Word table keeps its cells apart («a | b | c»); a
table a PDF flattened keeps each row's label and then its figures on one line (the label
may wrap over the lines above), and its header as words wrapped over several lines: the
header is cut into columns where a capitalised word opens a name (not after a preposition:
«Итого за III кв.»; a lower-case word or a line so opening goes on the name before), and
the figures of a row are mapped onto the columns from the right: the table's width is the
count of figures most of its numbered rows have, fewer than the header's columns. A row
with fewer (a total row whose first columns are empty, or one whose figures' thousands
groups read ambiguously) is read so only where the figure under the column is the sum of
that column over the full rows; a row with more is left out.

The column asked is the one whose header shares the most words with the question, the
row the one whose label shares the most of the rest (a total asked, «всего», «итого»: the
total row); either must be the only best and share a word, else nothing is looked up.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from decimal import Decimal, InvalidOperation
from functools import cache
from importlib import resources

from finagent.answering.evidence import FULL, Candidate
from finagent.answering.row_totals import asks_total
from finagent.cards.tables import WORD_CELL
from finagent.language.lemmas import fold, lemma, part_of_speech
from finagent.question.model import Question
from finagent.yaml_data import load_yaml

_FILE = "table_lookup.yaml"
_WORD = re.compile(r"[^\W_]+(?:-[^\W_]+)*")
_TOTAL_ROW = frozenset({"итого", "всего"})
_EMPTY = frozenset({"—", "–", "-"})
_SIGNS = "−+-"
_MIN_COLUMNS = 2  # a table of one value column is a list of «label: value» lines
_MAX_HEADER_LINE = 60  # a longer line above a table is prose, not its header
_MAX_LABEL_LINES = 3  # lines of a row's label wrapped above its figures
_GROUP = 3
_DATE = re.compile(r"^\d{2}\.\d{2}\.\d{4}$")
_ASKED_TYPES = frozenset({"amount", "limit", "count", "number"})


@cache
def _ignored() -> frozenset[str]:
    text = resources.files("finagent.answering").joinpath("data", _FILE).read_text("utf-8")
    data: dict[str, list[str]] = load_yaml(text)
    return frozenset(fold(str(w)) for w in data["ignored"])


def _lemmas(text: str) -> frozenset[str]:
    """The content lemmas of a label or header: no figures, no prepositions, no unit."""
    out = set()
    for word in _WORD.findall(text):
        if any(ch.isdigit() for ch in word):
            continue
        lm = fold(lemma(word.lower()))
        if part_of_speech(lm) in {"PREP", "CONJ", "PRCL"} or lm in _ignored():
            continue
        out.add(lm)
    return frozenset(out)


@dataclass(frozen=True)
class TableRow:
    label: str
    values: tuple[str, ...]  # aligned with the table's columns; "" for an empty cell
    quote: str  # the row as written, its lines joined


@dataclass(frozen=True)
class Table:
    columns: tuple[str, ...]  # the value columns' headers
    rows: tuple[TableRow, ...]
    delimited: bool  # its cells kept apart (a Word table): no figure mapped from the right


# --- a Word table ------------------------------------------------------------------


def _word_tables(text: str) -> list[Table]:
    """The tables whose rows the loader flattened as «a | b | c» under a header of words."""
    out: list[Table] = []
    block: list[list[str]] = []
    lines: list[str] = []
    for line in [*text.split("\n"), ""]:
        if WORD_CELL in line and not line.startswith(("|", "+")):
            cells = [c.strip() for c in line.split("|")]
            if block and len(cells) != len(block[0]):
                out += _word_table(block, lines)
                block, lines = [], []
            block.append(cells)
            lines.append(line.strip())
            continue
        out += _word_table(block, lines)
        block, lines = [], []
    return out


def _word_table(block: list[list[str]], lines: list[str]) -> list[Table]:
    if len(block) < 2 or not all(_has_words(c) for c in block[0]):
        return []
    header = block[0]
    rows = []
    for cells, line in zip(block[1:], lines[1:], strict=True):
        at = next((i for i, c in enumerate(cells) if _has_words(c)), None)
        if at is None:
            continue
        values = tuple("" if i == at else c for i, c in enumerate(cells))
        rows.append(TableRow(cells[at], values, line))
    return [Table(tuple(header), tuple(rows), delimited=True)] if rows else []


def _has_words(text: str) -> bool:
    return sum(ch.isalpha() for ch in text) >= 2


# --- a table a PDF flattened -------------------------------------------------------


def _is_figure(token: str) -> bool:
    body = token.lstrip(_SIGNS)
    whole, _, cents = body.partition(",")
    if whole.isdigit() and len(whole) > _GROUP and whole.startswith("0"):
        return False  # «00014»: a code (an inventory number), no figure
    return (
        token in _EMPTY
        or bool(_DATE.match(token))
        or (whole.isdigit() and (not cents or cents.isdigit()))
    )


def _trailing_figures(line: str) -> tuple[str, list[str]]:
    """The words of ``line`` before its trailing figures, and the figures: thousands
    groups («1 260 000,00») joined, a sign or a group of one or two digits opening one."""
    tokens = line.split()
    figures: list[str] = []
    at = len(tokens)
    while at > 0 and _is_figure(tokens[at - 1]):
        at -= 1
        figure = head = tokens[at]
        while (
            head[0].isdigit()
            and len(head.partition(",")[0]) == _GROUP
            and at > 0
            and tokens[at - 1].lstrip(_SIGNS).isdigit()
            and len(tokens[at - 1].lstrip(_SIGNS)) <= _GROUP
        ):
            at -= 1
            head = tokens[at]
            figure = f"{head} {figure}"
        figures.insert(0, figure)
    return " ".join(tokens[:at]), figures


def _header_columns(words: list[str]) -> list[str]:
    """The header's words cut into column names: a capitalised word opens a name unless a
    preposition stands before it («Итого за III кв.»)."""
    columns: list[list[str]] = []
    for word in words:
        opens = word[:1].isupper() and word[:1].isalpha()
        after_preposition = (
            bool(columns) and part_of_speech(columns[-1][-1].lower().strip(".,")) == "PREP"
        )
        if (opens and not after_preposition) or not columns:
            columns.append([word])
        else:
            columns[-1].append(word)
    return [" ".join(c) for c in columns]


def _numbered(label: str) -> bool:
    first = label.split(" ", 1)[0].rstrip(".")
    return first.replace(".", "").isdigit()


def _pdf_tables(text: str) -> list[Table]:
    lines = [line.strip() for line in text.split("\n")]
    out: list[Table] = []
    at = 0
    while at < len(lines):
        if not re.match(r"^1\.?(\s|$)", lines[at]):
            at += 1
            continue
        table, end = _pdf_table(lines, at)
        if table is not None:
            out.append(table)
        at = max(end, at + 1)
    return out


def _pdf_table(lines: list[str], first: int) -> tuple[Table | None, int]:
    """The table whose first numbered row opens at ``lines[first]``, and where it ends."""
    header: list[str] = []
    k = first - 1
    while k >= 0 and lines[k] and len(lines[k]) <= _MAX_HEADER_LINE:
        if ":" in lines[k] or " — " in lines[k] or re.search(r"\d\.$", lines[k]):
            break
        header.insert(0, lines[k])
        k -= 1
    raw: list[tuple[str, list[str], str]] = []  # label, figures, quote
    pending: list[str] = []
    at = first
    while at < len(lines) and len(pending) <= _MAX_LABEL_LINES:
        line = lines[at]
        label, figures = _trailing_figures(line)
        if len(figures) >= _MIN_COLUMNS:
            words = " ".join([*pending, label]).strip()
            raw.append((words, figures, " ".join([*pending, line])))
            pending = []
        elif line and not line.endswith(":"):
            pending.append(line)
        else:
            break  # a blank line or a heading of notes («Примечания:») ends the table
        at += 1
    if not header or len(raw) < _MIN_COLUMNS:
        return None, at
    columns = _header_columns(" ".join(header).split())
    counts = Counter(len(f) for label, f, _ in raw if _numbered(label))
    if not counts:
        return None, at
    (width, _), *rest = counts.most_common()
    if (rest and rest[0][1] == counts[width]) or width >= len(columns):
        return None, at
    # a row with more figures than the table's width was read wrong: it is left out; one
    # with fewer is read only where a column's sum confirms it (:func:`_checked`)
    raw = [r for r in raw if len(r[1]) <= width]
    columns = columns[-width:]
    rows = []
    for label, figures, quote in raw:
        values = ["" for _ in columns]
        values[width - len(figures) :] = figures[-width:]
        rows.append(TableRow(label, tuple(values), quote))
    return Table(tuple(columns), tuple(rows), delimited=False), at


# --- the lookup --------------------------------------------------------------------


def _amount(text: str) -> Decimal | None:
    body = text.replace(" ", "").replace("−", "-").replace(",", ".")
    try:
        return Decimal(body)
    except InvalidOperation:
        return None


def _checked(table: Table, row: TableRow, column: int) -> bool:
    """A row with as many figures as the table has columns reads as it is; a shorter
    one (a total row) only where its figure is the sum of the column over the rest."""
    if table.delimited or all(row.values):
        return True
    full = [r for r in table.rows if all(r.values) and r is not row]
    figures = [_amount(r.values[column]) for r in full]
    mine = _amount(row.values[column])
    if mine is None or not figures or any(f is None for f in figures):
        return False
    return sum((f for f in figures if f is not None), Decimal(0)) == mine


def _best(scores: Sequence[int]) -> int | None:
    top = max(scores, default=0)
    if top <= 0 or list(scores).count(top) != 1:
        return None
    return list(scores).index(top)


@dataclass(frozen=True)
class TableCell:
    candidate: Candidate
    column: str
    row: TableRow
    value: str

    def lines(self) -> list[str]:
        """«Остаточная стоимость — 672 000,00 (строка «Сервер …» документа «…») [n].» and
        the row quoted."""
        number = self.candidate.number
        title = self.candidate.chunk.title
        where = f" документа «{title}»" if title else ""
        head = f"{self.column} — {self.value} (строка «{self.row.label}»{where}) [{number}]."
        return [head, f"- «{self.row.quote}» [{number}]"]


def _lookup(question: Question, table: Table) -> tuple[TableRow, int] | None:
    asked = _lemmas(question.text)
    total = asks_total(question)
    headers = [_lemmas(c) for c in table.columns]
    scores = [len(h & asked) + int(total and bool(h & _TOTAL_ROW)) for h in headers]
    column = _best(scores)
    if column is None:
        return None
    rest = asked - headers[column] - _TOTAL_ROW
    row_scores = [len(_lemmas(r.label) & rest) for r in table.rows]
    if total:
        totals = [
            i for i, r in enumerate(table.rows) if fold(r.label.split(" ", 1)[0]) in _TOTAL_ROW
        ]
        at = totals[0] if len(totals) == 1 and not any(row_scores) else None
    else:
        at = _best(row_scores)
    if at is None:
        return None
    row = table.rows[at]
    if not row.values[column] or row.values[column] in _EMPTY:
        return None
    return (row, column) if _checked(table, row, column) else None


def tables_of(text: str) -> list[Table]:
    """The tables of a document's text with a header over their rows."""
    return _word_tables(text) + _pdf_tables(text)


def table_cell(question: Question, ranked: list[Candidate]) -> TableCell | None:
    """The one cell of the user's whole documents the question asks by row and column."""
    if question.answer_type not in _ASKED_TYPES:
        return None
    found: list[TableCell] = []
    seen: set[str | None] = set()
    for candidate in ranked:
        chunk = candidate.chunk
        if chunk.source != "user_docs" or not chunk.metadata.get(FULL):
            continue
        if chunk.document_id in seen:
            continue
        seen.add(chunk.document_id)
        for table in tables_of(chunk.text):
            hit = _lookup(question, table)
            if hit is not None:
                row, column = hit
                found.append(TableCell(candidate, table.columns[column], row, row.values[column]))
    return found[0] if len(found) == 1 else None
