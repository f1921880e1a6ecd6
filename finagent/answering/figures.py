"""Every figure of an answer must occur in a cited source or in the question.

A figure is a number with a unit, percent or currency («30 %», «297 200 руб.», «3 месяца»)
or a date («01.03.2025», «1 марта 2025»). Numbers compare normalised: «297 200» = «297200»,
«30 %» = «30%», «49 533,33» = «49533.33»; a sum a source writes in words («трех тысяч
рублей») supports the same sum in digits («3 000 руб.»), a count in words («двух
месяцев») the same count («2 месяца»). Legal references («п. 3 ст.
224») and citation marks ``[n]`` are not figures. An unsupported figure is replaced by a
visible marker, like an unsupported reference (:mod:`finagent.answering.reference_check`),
and counted.

A figure the answer computes is supported only as the result of an equation the answer
shows with its inputs («1 284 000,00 + 1 056 000,00 = 2 340 000,00 руб.», «29 253,60 / 2
= 14 626,80 руб.» of a question naming two parties): every operand a known number (a
factor or divisor too, except the named unit conversions :data:`CONVERSIONS`: «/ 100» of
a percentage, «× 12» of months), the arithmetic exact (:func:`computed`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from decimal import Decimal, InvalidOperation
from functools import lru_cache

from finagent.answering.messages import FIGURE_REMOVED
from finagent.language.counts import worded_counts
from finagent.language.money import worded_amounts
from finagent.legal.references import find_references
from finagent.russian_months import MONTHS

_SPACE = "[ \u00a0\u202f\u2009]"
_NUMBER = rf"\d+(?:{_SPACE}\d{{3}})*(?:[.,]\d+)?"
_UNIT = (
    r"%|процент\w*|руб\w*|₽|коп\w*|тыс\w*|млн\w*|млрд\w*|(?:календарн|рабоч)\w*\s+дн\w*"
    r"|дн(?:я|ей)\b|день|месяц\w*|недел\w*|лет\b|год(?:а|ов)?\b|час\w*|евро|долл\w*"
)
_MONTH_WORDS = "|".join(sorted({re.escape(m) for m in MONTHS}, key=len, reverse=True))
_NUMERIC_DATE = r"\b\d{1,2}\.\d{1,2}\.\d{2,4}\b"
FIGURE = re.compile(
    rf"{_NUMERIC_DATE}"
    rf"|\b\d{{1,2}}\s+(?:{_MONTH_WORDS})[а-я]{{0,3}}\b(?:\s+\d{{4}})?"
    rf"|(?<![\d.,]){_NUMBER}\s*(?:{_UNIT})",
    re.IGNORECASE,
)
_DIGITS = re.compile(_NUMBER)
# a source's number wrapped over a line («… НДС 22 % — 528» / «000 рублей») or set in a
# justified line a PDF's text keeps («24  000  рублей»): any whitespace between digit groups
_WRAPPED_NUMBER = re.compile(r"\d+(?:\s{1,3}\d{3})*(?:[.,]\d+)?")
_CITATION = re.compile(r"\[\d{1,3}\]")
_ISO_DATE = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def _core(figure: str) -> str:
    """What a figure is compared by: its number («297200.50»), or a numeric date whole."""
    if re.fullmatch(_NUMERIC_DATE, figure):
        return figure
    match = _DIGITS.search(figure)
    return re.sub(r"\s", "", match.group(0)).replace(",", ".") if match else figure


def known_numbers(texts: Iterable[str]) -> set[str]:
    """Every number and numeric date of ``texts``, normalised as :func:`_core` does."""
    found: set[str] = set()
    for text in texts:
        found |= numbers_of(text)
    return found


@lru_cache(maxsize=1024)  # by source text, checked again for every answer citing it: bounded
def numbers_of(text: str) -> frozenset[str]:
    """Every number and numeric date of ``text`` (:func:`known_numbers`)."""
    found: set[str] = set()
    if text:
        spaced = re.sub(r"[\u00a0\u202f\u2009]", " ", text)
        found |= {re.sub(r"\s", "", n).replace(",", ".") for n in _DIGITS.findall(spaced)}
        found |= {re.sub(r"\s", "", n).replace(",", ".") for n in _WRAPPED_NUMBER.findall(spaced)}
        found |= set(re.findall(_NUMERIC_DATE, text))
        # a source's ISO date (a card's value, an edition) as an answer writes it
        found |= {f"{d}.{m}.{y}" for y, m, d in _ISO_DATE.findall(text)}
        # a sum the source writes in words («трех тысяч рублей»), stated in digits
        found |= {f"{amount:f}" for amount in worded_amounts(text)}
        # a count the source writes in words («двух месяцев»), stated in digits
        found |= {f"{count:f}" for count in worded_counts(text)}
    return frozenset(found)


# «a + b + c = r», «a × b = r», «a / 2 = r», «a − b = r»: one operator kind per equation
_OPERATOR = r"\s*[+×*/−-]\s*"
EQUATION = re.compile(rf"(?<![\d.,])({_NUMBER}(?:{_OPERATOR}{_NUMBER})+)\s*=\s*({_NUMBER})(?![\d])")
_OPERATORS = re.compile(_OPERATOR.replace("\\s*", ""))
_CENT = Decimal("0.01")
# the factors and divisors an equation may use without a source stating them: unit
# conversions, each named; any other factor («× 3», «/ 2») must be a known number
CONVERSIONS: dict[str, str] = {
    "100": "a percentage as a fraction («× 13 / 100»)",
    "12": "the months of a year («× 12», «/ 12»)",
}


def _decimal(number: str) -> Decimal:
    return Decimal(re.sub(r"\s", "", number).replace(",", "."))


def _evaluate(expression: str) -> Decimal | None:
    """The value of «a + b + c», «a × b», «a / b», «a − b» (one operator kind)."""
    spaced = re.sub(r"[\u00a0\u202f\u2009]", " ", expression)
    operators = {o.strip() for o in re.findall(_OPERATOR, spaced)}
    if len(operators) != 1:
        return None
    operands = [_decimal(n) for n in re.split(_OPERATOR, spaced)]
    op = operators.pop()
    value = operands[0]
    try:
        for operand in operands[1:]:
            if op == "+":
                value += operand
            elif op in "−-":
                value -= operand
            elif op in "×*":
                value *= operand
            else:
                value /= operand
    except (InvalidOperation, ZeroDivisionError):
        return None
    return value


def _same_to_kopeck(value: Decimal, result: Decimal) -> bool:
    """Whether two sums agree to the kopeck; a number too long to round never does."""
    try:
        return value.quantize(_CENT) == result.quantize(_CENT)
    except InvalidOperation:
        return False


def computed(text: str, known: set[str]) -> set[str]:
    """The results of the equations ``text`` shows whose operands are all ``known`` and
    whose arithmetic holds to the kopeck, normalised as :func:`_core` does."""
    found: set[str] = set()
    spaced = re.sub(r"[\u00a0\u202f\u2009]", " ", _CITATION.sub("", text))
    for match in EQUATION.finditer(spaced):
        expression, result = match.group(1), match.group(2)
        operands = [re.sub(r"\s", "", n).replace(",", ".") for n in re.split(_OPERATOR, expression)]
        # a factor or divisor must be known too, unless it is a named unit conversion
        scaled = re.search(r"[×*/]", expression) is not None
        allowed = known | CONVERSIONS.keys() if scaled else known
        if operands[0] not in known or not all(o in allowed for o in operands[1:]):
            continue
        value = _evaluate(expression)
        if value is not None and _same_to_kopeck(value, _decimal(result)):
            found.add(re.sub(r"\s", "", result).replace(",", "."))
    return found


def _blanked(text: str) -> str:
    """``text`` with legal references and citation marks blanked (same length)."""
    chars = list(text)
    for ref in find_references(text):
        chars[ref.start : ref.end] = " " * (ref.end - ref.start)
    out = "".join(chars)
    return _CITATION.sub(lambda m: " " * len(m.group(0)), out)


def figures_in(text: str) -> list[re.Match[str]]:
    """The figures stated in ``text`` (references and ``[n]`` excluded), with offsets."""
    return list(FIGURE.finditer(_blanked(text)))


@dataclass
class FigureReport:
    supported: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def as_debug(self) -> dict[str, object]:
        return {
            "supported": self.supported,
            "removed": self.removed,
            "unsupported": len(self.removed),
        }


def check_figures(text: str, sources: Iterable[str]) -> tuple[str, FigureReport]:
    """``text`` with every figure no source states replaced by a marker, and the report.

    ``sources`` are the cited passages, the question and our own notes (edition dates)."""
    known = known_numbers(sources)
    known |= computed(text, known)
    report = FigureReport()
    removed: list[tuple[int, int]] = []
    for match in figures_in(text):
        figure = match.group(0).strip()
        if _core(figure) in known:
            report.supported.append(figure)
        else:
            report.removed.append(figure)
            removed.append((match.start(), match.start() + len(match.group(0).rstrip())))
    for start, end in reversed(removed):
        text = text[:start] + FIGURE_REMOVED + text[end:]
    return text, report
