"""The part of a unit's text that states a period: the абзац a norm names, or the one
that says «в течение двух месяцев» for a two-month period.

A point of the Code often holds several periods (п. 2 ст. 88: three months, two months
for НДС, 30 calendar days for a deduction). Quoting the point from its start would show
the reader a different period from the one computed.
"""

from __future__ import annotations

import re

from finagent.legal.deadlines import Unit

_NUMBER_FORMS: dict[int, str] = {
    1: "одного|один|одна|одну",
    2: "двух|два|две",
    3: "трех|три",
    4: "четырех|четыре",
    5: "пяти|пять",
    6: "шести|шесть",
    7: "семи|семь",
    8: "восьми|восемь",
    9: "девяти|девять",
    10: "десяти|десять",
    12: "двенадцати|двенадцать",
    15: "пятнадцати|пятнадцать",
    20: "двадцати|двадцать",
    30: "тридцати|тридцать",
}
_UNIT_STEMS: dict[str, str] = {
    "days": r"(?:календарн\w+\s+)?(?:дн|день)",
    "working_days": r"(?:рабоч\w+\s+)?(?:дн|день)",
    "months": r"месяц",
    "years": r"(?:год|лет)",
}
_PARAGRAPH = re.compile(r"\(абз\.\s*(\d+)\)|абз\.\s*(\d+)")


def period_pattern(period: int, unit: Unit) -> re.Pattern[str]:
    """«двух месяцев», «2 месяцев», «10 рабочих дней», «месячный срок» for ``period``."""
    number = rf"(?:{period}|{_NUMBER_FORMS[period]})" if period in _NUMBER_FORMS else str(period)
    forms = [rf"\b{number}\s+(?:\w+\s+)?{_UNIT_STEMS[unit]}"]
    if unit == "months" and period in _NUMBER_FORMS:  # «в двухмесячный срок»
        forms.append(rf"\b{_NUMBER_FORMS[period].split('|')[0]}месячн")
    if period == 1 and unit == "months":
        forms.append(r"месячн\w*\s+срок|в\s+течение\s+месяца")
    if period == 1 and unit == "years":
        forms.append(r"в\s+течение\s+года")
    return re.compile("|".join(forms), re.IGNORECASE)


def _named_paragraph(norm: str) -> int | None:
    # «подп. 3 п. 2 ст. 23 (абз. 3)» counts абзацы of the подпункт, not of the point
    if "подп" in norm:
        return None
    m = _PARAGRAPH.search(norm)
    return int(m[1] or m[2]) if m else None


def _window(text: str, match: re.Match[str] | None, limit: int) -> str:
    if len(text) <= limit:
        return text
    if match is None or match.end() <= limit - 40:
        return text[:limit].rstrip() + "…"
    start = max(0, match.start() - limit // 2)
    end = min(len(text), start + limit)
    return ("…" if start else "") + text[start:end].strip() + ("…" if end < len(text) else "")


def period_excerpt(text: str, norm: str, period: int, unit: Unit, limit: int = 700) -> str:
    """The абзац of ``text`` that states ``period`` (the one ``norm`` names when it does),
    cut to ``limit`` characters around the period's words."""
    paragraphs = [" ".join(p.split()) for p in text.split("\n") if p.strip()]
    if not paragraphs:
        return ""
    pattern = period_pattern(period, unit)
    stating = [i for i, p in enumerate(paragraphs) if pattern.search(p)]
    named = _named_paragraph(norm)
    if named is not None and named - 1 in stating:
        index = named - 1
    elif stating:
        target = named - 1 if named is not None else 0
        index = min(stating, key=lambda i: abs(i - target))
    elif named is not None and named <= len(paragraphs):
        index = named - 1
    else:
        index = 0
    chosen = paragraphs[index]
    return _window(chosen, pattern.search(chosen), limit)
