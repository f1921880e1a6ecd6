"""Rule-based Russian query expansion (used when there is no LLM).

Documented behaviour: the original query always comes first; then (1) the query with
question words and politeness removed, and (2) the query with common tax abbreviations
spelled out (НДС -> налог на добавленную стоимость, ...). At most three sub-queries,
duplicates removed. The LLM orchestrator returns its own sub-queries instead.
"""

from __future__ import annotations

import re

ABBREVIATIONS = {
    "ндс": "налог на добавленную стоимость",
    "ндфл": "налог на доходы физических лиц",
    "усн": "упрощенная система налогообложения",
    "псн": "патентная система налогообложения",
    "нпд": "налог на профессиональный доход самозанятые",
    "енп": "единый налоговый платеж",
    "енс": "единый налоговый счет",
    "иис": "индивидуальный инвестиционный счет",
    "ип": "индивидуальный предприниматель",
    "цб": "Банк России",
    "фнс": "налоговая служба",
}
_FILLER = re.compile(
    r"\b(подскажите|подскажи|пожалуйста|скажите|скажи|расскажите|расскажи|объясните|объясни|"
    r"хочу узнать|можно ли узнать|найди|найдите|покажи|покажите|информацию|информация|"
    r"а|ну|вот|мне|нам|бы|ли|какая|какой|какие|каков|как|что|сколько|где|когда)\b",
    re.IGNORECASE,
)
MAX_SUB_QUERIES = 3


def expand_query(query: str) -> list[str]:
    """Up to three Russian sub-queries for ``query`` (the original first)."""
    original = " ".join(query.split())
    variants = [original]
    stripped = " ".join(_FILLER.sub(" ", original).replace("?", " ").split())
    if stripped and len(stripped.split()) >= 2:
        variants.append(stripped)
    expanded = original
    for short, full in ABBREVIATIONS.items():
        expanded = re.sub(rf"(?i)\b{short}\b", full, expanded)
    variants.append(expanded)
    unique: list[str] = []
    for variant in variants:
        if variant.lower() not in {u.lower() for u in unique}:
            unique.append(variant)
    return unique[:MAX_SUB_QUERIES]
