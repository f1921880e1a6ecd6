"""Periods a question states itself: «в течение 20 дней», «30 календарных дней», «двух
месяцев», «месячный срок», and an extension («продлили до четырёх месяцев», «на два
месяца»). Read from the question's lemmas; a number of more than three digits is a year,
not a period («за 2024 год»)."""

from __future__ import annotations

from dataclasses import dataclass

from finagent.language.numbers import NUMBER_WORDS
from finagent.legal.calc_text import CalcText
from finagent.legal.deadlines import Unit

_UNITS: dict[str, Unit] = {"день": "working_days", "месяц": "months", "год": "years"}
_DAY_KINDS: dict[str, Unit] = {"рабочий": "working_days", "календарный": "days"}
_EXTENDED = "продлить"
_EXTENSION_REACH = 6  # words between «продлили» and the period


@dataclass(frozen=True)
class PeriodMention:
    count: int
    unit: Unit
    first: int  # word indices
    last: int
    day_kind_given: bool  # «рабочих» or «календарных» was written
    extension: str | None = None  # «до» (extended to) or «на» (extended by)


def _number(lemma: str, text: str) -> int | None:
    if lemma in NUMBER_WORDS:
        return NUMBER_WORDS[lemma]
    head = text.split("-")[0]  # «3-х», «5-ти»
    if head.isascii() and head.isdigit() and len(head) <= 3:
        return int(head)
    return None


def stated_periods(text: CalcText) -> list[PeriodMention]:
    """Every period the question states, in order."""
    words = text.words
    out: list[PeriodMention] = []
    i = 0
    while i < len(words):
        w = words[i]
        if w.day is not None:
            i += 1
            continue
        count = _number(w.lemma, w.text)
        j = i + 1
        kind: Unit | None = None
        if count is not None and j < len(words) and words[j].lemma in _DAY_KINDS:
            kind = _DAY_KINDS[words[j].lemma]
            j += 1
        if count is None and w.lemma == "месяц" and i > 0 and words[i - 1].lemma == "течение":
            count, j = 1, i  # «в течение месяца»
        if count is None or count == 0 or j >= len(words) or words[j].lemma not in _UNITS:
            i += 1
            continue
        unit = _UNITS[words[j].lemma]
        if unit == "working_days" and kind is not None:
            unit = kind
        out.append(PeriodMention(count, unit, i, j, kind is not None, _extension(text, i)))
        i = j + 1
    return out


def _extension(text: CalcText, first: int) -> str | None:
    """«продлили до четырех месяцев» (to) or «продлили на два месяца» (by)."""
    words = text.words
    before = first - 1
    if before < 0 or words[before].lemma not in ("до", "на"):
        return None
    for k in range(before - 1, max(-1, before - 1 - _EXTENSION_REACH), -1):
        if words[k].text in ".?!;":
            return None
        if words[k].lemma == _EXTENDED and not words[k].negated:
            return words[before].lemma
    return None
