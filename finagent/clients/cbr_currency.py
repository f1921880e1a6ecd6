"""Find a Bank of Russia currency by ISO code, internal code, name or a common alias."""

from __future__ import annotations

import re

from finagent.clients.cbr_models import Currency

# Stems of common Russian/English names (any case/ending): «доллары», «евро», «юаней».
ALIASES: dict[str, str] = {
    "доллар": "USD",
    "бакс": "USD",
    "dollar": "USD",
    "$": "USD",
    "евро": "EUR",
    "euro": "EUR",
    "€": "EUR",
    "юан": "CNY",
    "жэньминьб": "CNY",
    "yuan": "CNY",
    "renminbi": "CNY",
    "rmb": "CNY",
    "фунт": "GBP",
    "pound": "GBP",
    "£": "GBP",
    "иен": "JPY",
    "йен": "JPY",
    "yen": "JPY",
    "тенге": "KZT",
    "tenge": "KZT",
    "лир": "TRY",
    "lira": "TRY",
    "франк": "CHF",
    "franc": "CHF",
    "дирхам": "AED",
    "dirham": "AED",
    "белорусск": "BYN",
    "гонконгск": "HKD",
    "рупи": "INR",
    "rupee": "INR",
}


def match_currency(query: str, currencies: list[Currency]) -> Currency | None:
    """Find a currency by ISO letters, ISO numeric, internal code, alias or name."""
    q = query.strip()
    if not q:
        return None
    upper = q.upper()
    by_char = {c.iso_char: c for c in currencies if c.iso_char}
    if upper in by_char:
        return by_char[upper]
    if q.isdigit():
        return next((c for c in currencies if c.iso_num == int(q)), None)
    if re.fullmatch(r"R\d{5}[A-Z]?", upper):
        return next((c for c in currencies if c.internal_code.upper() == upper), None)
    lower = " ".join(q.lower().split())
    for c in currencies:
        if lower in (c.name_ru.lower(), c.name_en.lower()):
            return c
    for stem, char in ALIASES.items():
        if lower.startswith(stem) and char in by_char:
            return by_char[char]
    return None
