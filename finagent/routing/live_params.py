"""Arguments for the live-data tools, read from a Russian question."""

from __future__ import annotations

import re
from datetime import date, timedelta
from typing import Any

from finagent.moscow_time import moscow_today
from finagent.routing.rules import KEY_RATE
from finagent.russian_months import MONTHS
from finagent.text_normalize import normalize

CURRENCY_WORDS = {
    "доллар": "USD",
    "usd": "USD",
    "евро": "EUR",
    "eur": "EUR",
    "юан": "CNY",
    "cny": "CNY",
    "фунт": "GBP",
    "gbp": "GBP",
    "иен": "JPY",
    "jpy": "JPY",
    "франк": "CHF",
    "chf": "CHF",
    "тенге": "KZT",
    "kzt": "KZT",
    "лир": "TRY",
    "try": "TRY",
    "дирхам": "AED",
    "aed": "AED",
    "рупи": "INR",
    "inr": "INR",
    "белорусск": "BYN",
    "byn": "BYN",
}
_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
_DOTTED = re.compile(r"\b(\d{1,2})\.(\d{1,2})\.(\d{4})\b")
_WORDY = re.compile(r"\b(\d{1,2})\s+([а-я]+)\s+(\d{4})")


def find_dates(text: str, today: date) -> list[date]:
    """Dates mentioned in ``text`` in order (ISO, dd.mm.yyyy, «1 апреля 2025», сегодня, вчера)."""
    text = normalize(text)
    found: list[tuple[int, date]] = []
    for match in _ISO.finditer(text):
        y, m, d = (int(g) for g in match.groups())
        _append(found, match.start(), y, m, d)
    for match in _DOTTED.finditer(text):
        d, m, y = (int(g) for g in match.groups())
        _append(found, match.start(), y, m, d)
    for match in _WORDY.finditer(text):
        month = next((n for stem, n in MONTHS.items() if match.group(2).startswith(stem)), None)
        if month:
            _append(found, match.start(), int(match.group(3)), month, int(match.group(1)))
    if re.search(r"\bвчера\b", text):
        found.append((10_000, today - timedelta(days=1)))
    elif re.search(r"\bсегодня|\bсейчас|\bтекущ|\bна данный момент", text):
        found.append((10_000, today))
    return [d for _, d in sorted(found, key=lambda pair: pair[0])]


def _append(found: list[tuple[int, date]], pos: int, y: int, m: int, d: int) -> None:
    try:
        found.append((pos, date(y, m, d)))
    except ValueError:
        pass


def find_currencies(text: str) -> list[str]:
    text = normalize(text)
    codes: list[str] = []
    for word in re.findall(r"[a-zа-я]+", text):
        for stem, code in CURRENCY_WORDS.items():
            if word.startswith(stem) and code not in codes:
                codes.append(code)
    return codes


def cbr_arguments(query: str, today: date | None = None) -> dict[str, Any]:
    """``fetch_cbr_data`` arguments for a rates question."""
    today = today or moscow_today()
    text = normalize(query)
    dates = find_dates(text, today)
    codes = find_currencies(text)
    args: dict[str, Any]
    if re.search(KEY_RATE, text):
        args = {"mode": "key_rate"}
        if len(dates) >= 2:
            args |= {"date_from": dates[0].isoformat(), "date_to": dates[1].isoformat()}
        else:
            args["date"] = (dates[0] if dates else today).isoformat()
        return args
    if (re.search(r"динамик|с .* по ", text) and len(dates) >= 2) or len(dates) >= 2:
        return {
            "mode": "dynamics",
            "code": codes[0] if codes else "USD",
            "date_from": dates[0].isoformat(),
            "date_to": dates[1].isoformat(),
        }
    args = {"mode": "currency", "date": (dates[0] if dates else today).isoformat()}
    if len(codes) == 1:
        args["code"] = codes[0]
    return args


NEWS_QUERY_MAX_CHARS = 400  # fetch_finance_news's input limit


def news_arguments(query: str) -> dict[str, Any]:
    """``fetch_finance_news`` arguments: the question itself, Russian finance focus."""
    cleaned = re.sub(r"(?i)\b(какие|последние|свежие|расскажи|покажи|новости)\b", " ", query)
    cleaned = " ".join(cleaned.replace("?", " ").split())
    query = f"новости {cleaned}".strip() if cleaned else "финансовые новости России"
    return {"query": query[:NEWS_QUERY_MAX_CHARS].rstrip(), "max_results": 5}
