"""Table cells of a document's text and the labels that say what each cell holds.

Loaders flatten tables into lines of cells: Markdown and grid tables («| a | b |», with
«|---|» or «+---+» rules) and Word tables («a | b | c»); a PDF's text keeps a row as its
label and one figure with kopecks («Итого 153 500,00»). A value in a cell is read with its
row's label (the first cell with words: «Всего к оплате», «Сальдо конечное», a
counterparty) and, in a table of three columns or more, its column's header («Сумма с
НДС, руб.»): the header alone says whether a figure is with or without VAT.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import reduce

_RULE_CHARS = frozenset("|+-=:. ")
_KEY_VALUE_COLUMNS = 2  # a two-column table is a list of «label | value» pairs
_KOPECKS = 2  # «754 800,00»: two decimals mark an amount of money
_GROUP = 3  # digits of a thousands group
_MAX_ROW = 200  # a longer line is prose, not a flattened row
_CONTINUES = frozenset(",;:—–-(«")  # a label ending so runs on into its figure: prose


@dataclass(frozen=True)
class Cell:
    start: int  # offsets of the cell's text in the document
    end: int
    row: str  # the row's label
    column: str  # the column's header ("" when none)

    @property
    def label(self) -> str:
        return " · ".join(part for part in (self.row, self.column) if part)


@dataclass(frozen=True)
class _Piece:
    left: int  # the cell's span in its line, between its delimiters
    right: int
    start: int  # the cell's text in the document
    end: int
    text: str


def _is_rule(line: str) -> bool:
    return bool(line.strip()) and set(line) <= _RULE_CHARS and ("-" in line or "=" in line)


def _cells(line: str, offset: int) -> list[_Piece]:
    """The cells of a table line; rule segments inside a header line («Документ +---+---+»)
    are cut off. A line that opens with «|» is a Markdown or grid row, else a Word row
    whose first cell may be empty (« | | Всего к оплате | …»)."""
    inner, at = line, 0
    if line.startswith("|"):
        inner, at = line[1:], 1
        inner = inner[:-1] if inner.endswith("|") else inner
    out = []
    for piece in inner.split("|"):
        text = piece
        cut = text.find("+-")
        if cut >= 0:
            text = text[:cut]
        stripped = text.strip()
        start = at + (len(text) - len(text.lstrip()))
        shown = stripped.strip("*").strip()
        span = (offset + start, offset + start + len(stripped))
        out.append(_Piece(at, at + len(text), *span, shown))
        at += len(piece) + 1
    return out


def _has_words(text: str) -> bool:
    return sum(ch.isalpha() for ch in text) >= 2


def _is_header(cells: list[_Piece]) -> bool:
    """A row of names: no cell is a bare figure («№ | Дата | Сумма, руб.»)."""
    return all(_has_words(c.text) or c.text in {"", "№", "#"} for c in cells)


def _header_of(cell: _Piece, i: int, head: list[list[_Piece]], fixed: bool) -> str:
    """The header of a cell: in a fixed-width (grid) table every header cell above it,
    merged ones too («По данным ООО «А», руб.» over «Дебет»); else the same column's."""
    if fixed:
        parts = [h.text for row in head for h in row if h.left < cell.right and cell.left < h.right]
    else:
        parts = [row[i].text for row in head if i < len(row)]
    return reduce(_joined, parts, "")


def _block_cells(rows: list[list[_Piece]], header_rows: int, fixed: bool) -> list[Cell]:
    width = max(len(r) for r in rows)
    head = rows[:header_rows] if width > _KEY_VALUE_COLUMNS else []
    out: list[Cell] = []
    for row in rows[header_rows:]:
        label_at = next((i for i, c in enumerate(row) if _has_words(c.text)), None)
        label = row[label_at].text if label_at is not None else ""
        for i, cell in enumerate(row):
            if cell.text and i != label_at:
                out.append(Cell(cell.start, cell.end, label, _header_of(cell, i, head, fixed)))
    return out


def _label_line(line: str, offset: int) -> Cell | None:
    """«В том числе НДС (20 %): 125 800,00»: a label and a bare figure on one line (a
    table a PDF flattened, a form's requisite) is a row of two cells."""
    label, colon, value = line.rpartition(":")
    figure = value.strip().strip("*").strip()
    if not colon or not _has_words(label) or not figure or _has_words(figure):
        return None
    if not any(ch.isdigit() for ch in figure):
        return None
    start = offset + len(label) + 1 + (len(value) - len(value.lstrip()))
    return Cell(start, start + len(value.strip()), label.strip().strip("*").strip(), "")


def _figure_start(words: list[str]) -> int | None:
    """Where a figure with kopecks that ends ``words`` starts («8 461 200,00»: digit groups
    of three after a first group of one to three digits), None when the last word is none."""
    whole, comma, decimals = words[-1].partition(",")
    if not comma or len(decimals) != _KOPECKS or not (whole + decimals).isdigit():
        return None
    at = len(words) - 1
    if len(whole) != _GROUP:
        return at  # «153500,00» or «45,00»: the figure is one word
    while at > 0 and words[at - 1].isdigit() and len(words[at - 1]) <= _GROUP:
        at -= 1
        if len(words[at]) < _GROUP:
            break  # a first group of one or two digits opens the figure
    return at


def _trailing_figure_line(line: str, offset: int) -> Cell | None:
    """«Итого стоимость выполненных работ без НДС 8 461 200,00»: a table a PDF flattened
    keeps a row's label and its one figure with kopecks on a line, with no delimiter."""
    stripped = line.rstrip().rstrip("*").rstrip()
    words = stripped.split(" ")
    if len(stripped) > _MAX_ROW or len(words) < _KEY_VALUE_COLUMNS:
        return None
    at = _figure_start(words)
    if at is None or at == 0:
        return None
    label = " ".join(words[:at]).strip().strip("*").strip()
    if not _has_words(label) or label[-1] in _CONTINUES:
        return None
    start = offset + len(" ".join(words[:at])) + 1
    return Cell(start, offset + len(stripped), label, "")


def table_cells(text: str) -> list[Cell]:
    """Every value cell of every table of ``text`` with its row label and column header."""
    out: list[Cell] = []
    rows: list[list[_Piece]] = []
    lengths: set[int] = set()
    header_rows = 0  # rows above the first rule of the block (its header)
    ruled = False

    def flush() -> None:
        nonlocal rows, header_rows, ruled, lengths
        if rows:
            heads = header_rows if ruled else int(len(rows) > 1 and _is_header(rows[0]))
            out.extend(_block_cells(rows, min(heads, len(rows)), ruled and len(lengths) == 1))
        rows, header_rows, ruled, lengths = [], 0, False, set()

    offset = 0
    for line in text.split("\n"):
        start, offset = offset, offset + len(line) + 1
        if _is_rule(line):
            if rows and not ruled:
                ruled, header_rows = True, len(rows)
            continue
        if "|" not in line:
            flush()
            pair = _label_line(line, start) or _trailing_figure_line(line, start)
            if pair is not None:
                out.append(pair)
            continue
        cells = _cells(line, start)
        if len(cells) < _KEY_VALUE_COLUMNS:
            flush()
            continue
        if rows and len(cells) != len(rows[0]) and not line.startswith("|"):
            flush()  # a Word table of another width starts
        rows.append(cells)
        lengths.add(len(line.rstrip()))
    flush()
    return out


ROW_CELLS = "; "  # between the cells of a table row rendered as «header: value; …»
_HEADER_VALUE = ": "  # between a rendered cell's column header and its value


def rendered_row(cells: Sequence[tuple[str, str]], extra: Sequence[str] = ()) -> str:
    """A table row as one sentence, «header: value; header: value» (the values with no
    header, ``extra``, first): how a passage's table rows are read
    (:func:`finagent.answering.evidence.units_of`) and embedded."""
    return ROW_CELLS.join([*extra, *(f"{h}{_HEADER_VALUE}{v}" for h, v in cells)])


def row_cells(sentence: str) -> list[tuple[str, str | None]]:
    """The cells of a sentence read as a rendered table row (:func:`rendered_row`): each
    part between «; » as its header and value, a part with no «: » as itself and None.
    The one reader of such rows; what counts as a row is its caller's («all cells with
    a header», «three cells or more»)."""
    out: list[tuple[str, str | None]] = []
    for part in sentence.split(ROW_CELLS):
        header, colon, value = part.partition(_HEADER_VALUE)
        out.append((header, value) if colon else (part, None))
    return out


def markdown_row(line: str) -> bool:
    """A line that is a Markdown table's row by itself: it opens and closes with «|»
    («| a | b |»); a row without its closing «|» is one in a table with a «|---|» rule
    (:func:`markdown_rows`). A Word row whose first cell is empty opens with «|» too
    («| Итого | 54 400,00»)."""
    line = line.strip()
    return len(line) > 1 and line.startswith("|") and line.endswith("|")


WORD_CELL = " | "  # the cell delimiter of a Word table's row as the loader flattens it
_WORD_COLUMNS = 3  # a Word line of two cells is a form's label and value, no table row


def word_row(line: str) -> bool:
    """A Word table's row of three cells or more as the loader flattens it («a | b | c»),
    not a Markdown or grid row («| a | b |», «+---+») nor a form's label and value; a row
    whose first cell is empty opens with «|» («| Итого | 54 400,00»), but does not end with it."""
    return (
        line.count(WORD_CELL) >= _WORD_COLUMNS - 1
        and not markdown_row(line)
        and not line.startswith("+")
    )


def markdown_separator(line: str) -> bool:
    """A Markdown table's rule under its header («|---|---|», «| :-- | --: »)."""
    line = line.strip()
    return line.startswith("|") and "-" in line and set(line) <= set("|-: ")


def markdown_rows(lines: Sequence[str]) -> frozenset[int]:
    """The indices of the Markdown table rows among ``lines``: each line opening with «|»
    of a run of such lines that holds a «|---|» rule (GitHub Markdown lets a row go
    without its closing «|»), and any line that closes with «|» too (:func:`markdown_row`)."""
    out: set[int] = set()
    run: list[int] = []
    for i, line in enumerate([*lines, ""]):
        if line.strip().startswith("|"):
            run.append(i)
            continue
        proven = any(markdown_separator(lines[j]) for j in run)
        out.update(j for j in run if proven or markdown_row(lines[j]))
        run = []
    return frozenset(out)


def grid_rule(line: str) -> bool:
    """A rule line of a grid table («+----+-----+», «+====+»)."""
    return line.startswith("+") and _is_rule(line)


def _joined(head: str, tail: str) -> str:
    """A cell's text wrapped over two lines joined again; after a hyphen with no space
    («Кол-» + «во» is «Кол-во»)."""
    if not head or not tail:
        return head or tail
    if head.endswith("-") and len(head) > 1 and head[-2].isalpha():
        return head + tail
    return f"{head} {tail}"


def _is_value(text: str) -> bool:
    """A cell holding a figure («300», «18 600,00», «до 30.07.2026»): no more letters than
    digits, where a wrapped line of text («белая, ведро 10 л») has words around its digits."""
    digits = sum(ch.isdigit() for ch in text)
    return digits > 0 and digits >= sum(ch.isalpha() for ch in text)


def _grid_records(section: list[list[_Piece]]) -> list[tuple[int, list[_Piece], list[str]]]:
    """The rows of a grid table's section: ``(line, pieces, texts)``. A line whose first
    cell is empty and which fills fewer cells than the row above it goes on that row's
    cells (a name or a note wrapped over two lines), when both have as many cells and no
    cell of the line holds a figure: a line with one is a row of its own, a group's next
    row or its total in a table without rules between rows («| | Итого | 300 |»)."""
    out: list[tuple[int, list[_Piece], list[str]]] = []
    for k, pieces in enumerate(section):
        filled = sum(bool(p.text) for p in pieces)
        text_only = not any(_is_value(p.text) for p in pieces)
        if out and not pieces[0].text and len(pieces) == len(out[-1][1]) and text_only:
            above = sum(bool(t) for t in out[-1][2])
            if filled < above:
                texts = out[-1][2]
                for i, piece in enumerate(pieces):
                    texts[i] = _joined(texts[i], piece.text)
                continue
        out.append((k, pieces, [p.text for p in pieces]))
    return out


def _grid_end(lines: list[str], first: int) -> int:
    """Where the grid table whose top rule is ``lines[first]`` ends: at a line that is no
    row, or at a rule of another width (the next table, a blank line between them gone)."""
    width, end = len(lines[first]), first + 1
    while end < len(lines) and (
        lines[end].startswith("|") or (grid_rule(lines[end]) and len(lines[end]) == width)
    ):
        end += 1
    return end


def _grid_block(lines: list[str], first: int, end: int) -> dict[int, str]:
    """The rows of one grid table, ``lines[first:end]`` (:func:`grid_rows`)."""
    sections: list[list[int]] = [[]]
    for i in range(first, end):
        if grid_rule(lines[i]):
            if sections[-1]:
                sections.append([])
        else:
            sections[-1].append(i)
    sections = [s for s in sections if s]
    if len(sections) < _KEY_VALUE_COLUMNS:
        return {}  # no header over a body: a box of a form, read as before
    out: dict[int, str] = {i: "" for i in sections[0]}
    head = [_cells(lines[i], 0) for i in sections[0]]
    for section in sections[1:]:
        out.update({i: "" for i in section})
        for k, cells, texts in _grid_records([_cells(lines[i], 0) for i in section]):
            named: list[tuple[str, str]] = []
            bare: list[str] = []
            for i, (cell, text) in enumerate(zip(cells, texts, strict=True)):
                header = _header_of(cell, i, head, fixed=True)
                if text:
                    if header:
                        named.append((header, text))
                    else:
                        bare.append(text)
            out[section[k]] = rendered_row(named, bare)
    return out


def grid_rows(lines: list[str]) -> dict[int, str]:
    """The rows of the grid tables among ``lines`` («+---+» rules around «| a | b |» lines,
    a plain-text document's table) as «header: value; …» sentences, keyed by the index of
    a row's first line; its header, rule and wrapped lines map to "" (no sentence of their
    own). A header is every header line's text above the cell's position, so a header
    wrapped over lines («Цена без НДС,» / «руб.») or merged over columns («По данным
    ООО «А», руб.» over «Дебет») is read whole; the rules inside the body («+---+» before
    «ИТОГО») keep the header."""
    out: dict[int, str] = {}
    at = 0
    while at < len(lines):
        if not grid_rule(lines[at]):
            at += 1
            continue
        end = _grid_end(lines, at)
        out.update({i: "" for i in range(at, end) if grid_rule(lines[i])})
        out.update(_grid_block(lines, at, end))
        at = end
    return out
