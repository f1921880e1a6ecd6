"""The unit a table's column header gives the bare figures under it.

A table writes a cell's unit once, in its column's header, and leaves the figure bare:
«Отработано, ч» over «178», «Явки, дней» over «22», «Лимит одной выдачи, руб.» over
«15 000», «Площадь (кв. м)» over «148,6». A row read as «header: value; …» (Markdown,
Word and grid tables, :mod:`finagent.cards.tables`; a form's «label | value»; a PDF's
«label: figure» line) states each such figure in its header's unit. The unit is the
header's tail after its last comma or in its closing brackets; an abbreviation is read by
``language/data/header_units.yaml``, a full word («часов», «календарных дней») by its
lemma, when the lemma is a unit of time, of measure, of money or a percent.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

from finagent.cards.tables import row_cells
from finagent.language.lemmas import fold, lemma, parses, part_of_speech
from finagent.language.measures import SYMBOLS
from finagent.language.periods import UNITS
from finagent.yaml_data import load_yaml

# a sum with kopecks in thousands' groups («1 240 600,00»): money whatever its header says
_KOPECK_SUM = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+,\d{2}")
_ROUBLE = "рубль"
# a bare figure: «178», «15 000», «2,5», «1 396 503,89» (no word, no sign of its own)
_FIGURE = re.compile(r"\d{1,3}(?:[ \u00a0\u202f]\d{3})+(?:[.,]\d+)?|\d+(?:[.,]\d+)?")
_TAIL_WORDS = 3  # «кал. дн.», «тыс. руб.»: a longer tail is a name, not a unit
_WORD = re.compile(r"[^\W\d_]+", re.U)
_FORM_CELL = " | "  # a form's «label | value» line, as the loader flattens it
_MODIFIERS = frozenset({"ADJF", "PRTF"})  # «Общая сумма», «Кол-во отработанных»


@dataclass(frozen=True)
class UnitCell:
    """A bare figure of a table row and the unit its header names."""

    header: str
    name: str  # the header without its unit: what the figure is («Отработано»)
    unit: str  # the unit's lemma: «час», «день», «рубль», «процент», «метр»
    kind: str  # «time», «measure», «money» or «percent»
    figure: str


@cache
def _lexicon() -> dict[str, object]:
    text = resources.files("finagent.language").joinpath("data", "header_units.yaml")
    data: dict[str, object] = load_yaml(text.read_text("utf-8"))
    return data


@cache
def _abbreviations() -> dict[str, str]:
    raw: dict[str, str] = _lexicon()["abbreviations"]  # type: ignore[assignment]
    return {" ".join(str(k).split()): str(v) for k, v in raw.items()}


@cache
def _kinds() -> dict[str, str]:
    out = {unit: "time" for unit in UNITS}
    out |= {unit: "measure" for unit in SYMBOLS}
    for kind in ("time", "money", "percent"):
        out |= {str(unit): kind for unit in _lexicon()[kind]}  # type: ignore[attr-defined]
    return out


def _tails(header: str) -> list[tuple[str, str]]:
    """Where a header names its unit, with the header's name before it: its closing
    brackets («Сумма (руб.)») and the part after its last comma, brackets dropped
    («Всего, руб. (без НДС)» — «руб.»)."""
    text = " ".join(header.split()).rstrip(":").strip()
    out = []
    if text.endswith(")") and "(" in text:
        at = text.rfind("(")
        out.append((text[:at].strip(), text[at + 1 : -1]))
    if "," in text:
        name, tail = text.rsplit(",", 1)
        out.append((name.strip(), re.sub(r"\([^()]*\)", "", tail)))
    return out


def _unit_of(tail: str) -> str | None:
    """The lemma of the unit a header's tail names, None when it names none."""
    text = " ".join(tail.lower().split()).rstrip(".").strip()
    if not text or len(text.split()) > _TAIL_WORDS:
        return None
    found = _abbreviations().get(text)
    if found is not None:
        return found if found in _kinds() else None
    words = _WORD.findall(text)
    if not words or len(words) != len(text.split()):
        return None  # «№ 3», «2026 г.»: no unit
    unit = lemma(words[-1])
    return unit if unit in _kinds() else None


def measure_name(name: str) -> bool:
    """A header's name that names only a measure of the row's thing («Продолжительность»,
    «Кол-во календарных», «Общая сумма»: its adjectives aside), no thing of its own
    («Явки», «Отработано»)."""
    words = [w.lower() for w in _WORD.findall(name.replace("-", ""))] if name else []
    measures = {str(w).replace("-", "") for w in _lexicon()["measure_names"]}  # type: ignore[attr-defined]
    nouns = [w for w in words if part_of_speech(w) not in _MODIFIERS]
    return bool(nouns) and all(w in measures or lemma(w) in measures for w in nouns)


def abbreviated_unit(word: str) -> str | None:
    """The lemma of the unit an abbreviation stands for («мес» — «месяц», «руб.» —
    «рубль»), None for a full word or another word."""
    text = " ".join(word.lower().split()).rstrip(".").strip()
    found = _abbreviations().get(text)
    return found if found is not None and found != text else None


def unit_named(word: str) -> str | None:
    """The lemma of the unit a word or an abbreviation names («ч», «часов» — «час»)."""
    return _unit_of(word)


def _counted(word: str) -> str | None:
    """The lemma of a unit a count counts: its word in the genitive plural («дней»,
    «суток», «месяцев»); None for another word or case («месяца»: «Число месяца» is a day
    of the month, no count of months)."""
    if not _WORD.fullmatch(word):
        return None
    for parse in parses(fold(word)):
        unit = fold(parse.normal_form)
        if {"gent", "plur"} <= parse.tag.grammemes and unit in _kinds():
            return unit
    return None


def _counted_in(header: str) -> tuple[str, str] | None:
    """«Кол-во календарных дней», «Количество часов»: the unit a count header counts and
    the header without it. The unit is the count head's noun, right after it and its
    adjectives or abbreviated adjectives («кал.»), in the genitive plural, and ends the
    header: «Число месяца» (a date) and «Число дней месяца» (the month names no count)
    name none."""
    words = " ".join(header.split()).rstrip(":").strip().split()
    heads = {str(w) for w in _lexicon()["count_heads"]}  # type: ignore[attr-defined]
    first = words[0].lower().rstrip(".") if words else ""
    if len(words) < 2 or (first not in heads and lemma(first) not in heads):
        return None
    between = words[1:-1]
    if not all(w.endswith(".") or part_of_speech(w) in _MODIFIERS for w in between):
        return None
    unit = _counted(words[-1])
    return (" ".join(words[:-1]), unit) if unit is not None else None


def _named_unit(header: str) -> tuple[str, str] | None:
    """The header's name and the lemma of the unit it names, None when it names none."""
    for name, tail in _tails(header):
        unit = _unit_of(tail)
        if unit is not None:
            return name, unit
    return _counted_in(header)


def header_unit(header: str) -> tuple[str, str] | None:
    """The unit a column header names for the bare figures under it, as its lemma and
    kind («Отработано, ч» — («час», «time»)); None when it names none."""
    found = _named_unit(header)
    return (found[1], _kinds()[found[1]]) if found is not None else None


def _pairs(sentence: str) -> list[tuple[str, str]]:
    """A row's «header: value» cells, or a form line's «label | value»."""
    text = " ".join(sentence.split())
    if text.count(_FORM_CELL) == 1 and not text.startswith(("|", "+")):
        label, value = text.split(_FORM_CELL)
        return [(label, value)]
    return [(header, value) for header, value in row_cells(text) if value is not None]


# a column header naming its unit after a comma, in a table whose header line and rows a
# PDF's text runs together: «№ Срок платежа Сумма, руб. Доля цены 1 … 4 276 800,00 30 %»
_RUN_HEADER = re.compile(r"([^\W\d_]+),\s([^\W\d_]+\.?)")
_OWN_UNIT = re.compile(r"\s*(?:руб|р\.|₽|коп|%|тыс|млн|долл|евро|usd|eur)", re.IGNORECASE)


def _run_together_money(sentence: str) -> list[UnitCell]:
    """The sums with kopecks in thousands' groups («4 989 600,00») and no unit of their own
    of a table whose header line and rows run together into one sentence, when one of its
    column headers names the rouble («Сумма, руб.»): the header line is not a row of
    «header: value» cells, so the figures under it are read by that header."""
    text = " ".join(sentence.split())
    header = None
    for found in _RUN_HEADER.finditer(text):
        if _unit_of(found.group(2)) == _ROUBLE:
            header = found
            break
    if header is None:
        return []
    out = []
    for figure in _KOPECK_SUM.finditer(text, header.end()):
        if not _OWN_UNIT.match(text, figure.end()):
            name = header.group(1)
            out.append(UnitCell(header.group(0), name, _ROUBLE, "money", figure.group(0)))
    return out


def unit_cells(sentence: str) -> list[UnitCell]:
    """The bare figures of a table row or a form line whose header names their unit
    (:func:`_unit_cells`, remembered by sentence)."""
    return list(_unit_cells(sentence))


@lru_cache(maxsize=16_384)  # by sentence text, read again for every question: bounded
def _unit_cells(sentence: str) -> tuple[UnitCell, ...]:
    """The bare figures of a table row or a form line whose header names their unit
    («№: 1; ФИО: …; Отработано, ч: 178» — 178 hours), and its sums with kopecks in
    thousands' groups, money in a register that names its currency once or nowhere
    («Сальдо на 30.09.2026 Дебет: 874 400,00»); without such cells, the sums of a table
    run together with its header line (``_run_together_money``)."""
    out = []
    for header, value in _pairs(sentence):
        figure = value.strip().strip("*").strip()
        if not _FIGURE.fullmatch(figure):
            continue
        label = header.strip().strip("*").strip()
        found = _named_unit(label)
        if found is None and _KOPECK_SUM.fullmatch(figure):
            found = label, _ROUBLE  # «Сальдо на 30.09 Дебет: 874 400,00» in a register
        if found is not None:
            name, unit = found
            out.append(UnitCell(header.strip(), name, unit, _kinds()[unit], figure))
    return tuple(out or _run_together_money(sentence))
