"""Rows of Bank of Russia replies turned into the client's typed results."""

from __future__ import annotations

from typing import Any

from finagent.clients.cbr_models import Currency, DynamicPoint, KeyRatePoint, NewsItem, Rate
from finagent.clients.cbr_soap import int_or_none, iter_rows, parse_date, parse_decimal


def currencies_from(result: Any) -> list[Currency]:
    """EnumValutes: the currency reference (rows without a code are skipped)."""
    out = []
    for row in iter_rows(result, "EnumValutes"):
        code = row.get("Vcode", "").strip()
        if not code:
            continue
        out.append(
            Currency(
                internal_code=code,
                iso_char=row.get("VcharCode", "").strip().upper() or None,
                iso_num=int_or_none(row.get("VnumCode", "")),
                nominal=int(parse_decimal(row.get("Vnom", "1") or "1")),
                name_ru=row.get("Vname", "").strip(),
                name_en=row.get("VEngname", "").strip(),
            )
        )
    return out


def rates_from(result: Any) -> list[Rate]:
    """GetCursOnDateXML: the official rates on one date."""
    rates = []
    for row in iter_rows(result, "ValuteCursOnDate"):
        char = row.get("VchCode", "").strip().upper()
        if not char:
            continue
        nominal = int(parse_decimal(row.get("Vnom", "1") or "1"))
        value = parse_decimal(row.get("Vcurs", ""))
        unit = row.get("VunitRate", "").strip()
        rates.append(
            Rate(
                iso_char=char,
                iso_num=int_or_none(row.get("Vcode", "")),
                name=row.get("Vname", "").strip(),
                nominal=nominal,
                value=value,
                unit_rate=parse_decimal(unit) if unit else value / nominal,
            )
        )
    return rates


def dynamics_from(result: Any) -> list[DynamicPoint]:
    """GetCursDynamicXML: one currency's rates, ascending by date."""
    points = []
    for row in iter_rows(result, "ValuteCursDynamic"):
        nominal = int(parse_decimal(row.get("Vnom", "1") or "1"))
        value = parse_decimal(row.get("Vcurs", ""))
        unit = row.get("VunitRate", "").strip()
        points.append(
            DynamicPoint(
                date=parse_date(row.get("CursDate", "")),
                nominal=nominal,
                value=value,
                unit_rate=parse_decimal(unit) if unit else value / nominal,
            )
        )
    return sorted(points, key=lambda p: p.date)


def key_rates_from(result: Any) -> list[KeyRatePoint]:
    """KeyRateXML: key rate rows, ascending (the service order is not relied on)."""
    points = [
        KeyRatePoint(date=parse_date(r.get("DT", "")), rate=parse_decimal(r["Rate"]))
        for r in iter_rows(result, "KR")
        if r.get("Rate")
    ]
    return sorted(points, key=lambda p: p.date)


def news_from(result: Any, site: str) -> list[NewsItem]:
    """NewsInfoXML: news items, newest first (relative links made absolute on ``site``)."""
    items = []
    for r in iter_rows(result, "News"):
        url = r.get("Url", "").strip()
        items.append(
            NewsItem(
                doc_id=r.get("Doc_id", "").strip(),
                date=parse_date(r.get("DocDate", "")),
                title=r.get("Title", "").strip(),
                url=url if url.startswith("http") else site + url,
            )
        )
    return sorted(items, key=lambda n: n.date, reverse=True)
