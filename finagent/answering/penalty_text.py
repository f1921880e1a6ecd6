"""The пени answer's text: the breakdown table, which key-rate history served, and the
partial answer when the key rate of some days of arrears is unknown.

Works on the JSON of ``Req_Calculate_Penalty_For_Payments`` (rows and ``key_rates``).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from finagent.answering.calc_common import money as rubles
from finagent.answering.calc_common import ru_day as ddmmyyyy
from finagent.moscow_time import MOSCOW

PAYER_RU = {"individual": "физическое лицо / ИП", "organization": "организация"}
PENALTY_RULE = (
    "Пени начисляются за каждый календарный день просрочки со дня, следующего за сроком "
    "уплаты, по день погашения включительно (п. 3 ст. 75 НК РФ); пеня = недоимка × доля × "
    "ключевая ставка, действовавшая в этот день (п. 4 ст. 75 НК РФ)."
)
NO_RATE = "нет данных"


def penalty_table(row: dict[str, Any]) -> list[str]:
    """The periods of one result as a Markdown table (days without a rate marked)."""
    lines = [
        "| Период | Дней | Ключевая ставка | Доля | Пени | Основание |",
        "|---|---|---|---|---|---|",
    ]
    for p in row["periods"]:
        rate = NO_RATE if p["key_rate"] is None else f"{p['key_rate']} %"
        amount = "—" if p["amount"] is None else rubles(p["amount"])
        lines.append(
            f"| {ddmmyyyy(p['date_from'])} – {ddmmyyyy(p['date_to'])} | {p['days']} | {rate} "
            f"| {p['fraction']} | {amount} | {p['basis']} |"
        )
    return lines


def _moscow(iso: str | None) -> str:
    if not iso:
        return "в неизвестное время"
    return datetime.fromisoformat(iso).astimezone(MOSCOW).strftime("%d.%m.%Y %H:%M МСК")


def history_note(key_rates: dict[str, Any]) -> str | None:
    """Which key-rate history the answer used and up to which date («> Ключевая ставка: ...»)."""
    if key_rates.get("source") == "cbr":
        when = _moscow(key_rates.get("fetched_at"))
        if key_rates.get("stale"):
            return (
                f"> Ключевая ставка: данные Банка России, загруженные ранее ({when}); сейчас "
                "Банк России недоступен."
            )
        return f"> Ключевая ставка: данные Банка России, загружены {when}."
    if key_rates.get("source") == "shipped":
        return (
            "> Ключевая ставка: встроенная история ставок Банка России по состоянию на "
            f"{ddmmyyyy(key_rates['known_until'])}."
        )
    return None


def _coverage(key_rates: dict[str, Any], missing: list[dict[str, str]]) -> str:
    """Where the history used ends on the side of each missing range (before its first
    day, after its last), and why no other source filled the gap."""
    first, until = key_rates.get("known_from"), key_rates["known_until"]
    shipped = key_rates.get("source") == "shipped"
    history = "встроенная история ставок" if shipped else "история ставок Банка России"
    known = f"с {ddmmyyyy(first)} по {ddmmyyyy(until)}" if first else f"по {ddmmyyyy(until)}"
    parts = []
    if first and any(m["date_to"] < first for m in missing):
        parts.append(f"{history} начинается с {ddmmyyyy(first)}, более ранних значений в ней нет")
    if any(m["date_from"] > until for m in missing) or not parts:
        parts.append(
            f"{history} охватывает даты {known}"
            if shipped
            else f"ставка Банка России известна по {ddmmyyyy(until)}, на более поздние даты "
            "её ещё нет"
        )
    why = {
        "not_configured": ", а источник Банка России не подключён",
        "unavailable": ", а Банк России сейчас недоступен",
    }.get(key_rates.get("cbr", ""), "")
    return "; ".join(parts) + why


def _formula(row: dict[str, Any]) -> list[str]:
    """The formula of each period without a rate, with its days."""
    amount = rubles(row["amount"])
    return [
        f"- {ddmmyyyy(p['date_from'])} – {ddmmyyyy(p['date_to'])}, {p['days']} дн.: "
        f"{amount} × {p['fraction']} × ключевая ставка дня / 100 за каждый день (при одной "
        f"ставке за весь период — {amount} × {p['fraction']} × ставка / 100 × {p['days']})"
        for p in row["periods"]
        if p["key_rate"] is None
    ]


def _same(rows: list[dict[str, Any]]) -> bool:
    def shape(r: dict[str, Any]) -> tuple[Any, ...]:
        return r["partial_total"], tuple(p["fraction"] for p in r["periods"])

    return len({shape(r) for r in rows}) == 1


def partial_penalty(
    rows: list[dict[str, Any]],
    payer_given: bool,
    assumptions: list[str],
    data: dict[str, Any],
) -> list[str]:
    """The answer when some days have no key rate: what is computed, the formula for the
    rest and exactly which dates lack a rate; no «Ответ:» is claimed."""
    first = rows[0]
    if not payer_given and _same(rows):
        rows = rows[:1]
    ranges = ", ".join(
        f"с {ddmmyyyy(m['date_from'])} по {ddmmyyyy(m['date_to'])}" for m in first["missing_rates"]
    )
    missing_days = sum(p["days"] for p in first["periods"] if p["key_rate"] is None)
    known_days = first["days"] - missing_days
    lines = [
        "## Краткий вывод",
        f"Пени рассчитаны не полностью: ключевой ставки Банка России на даты {ranges} "
        f"({missing_days} дн. просрочки) нет — "
        f"{_coverage(data.get('key_rates', {}), first['missing_rates'])}. "
        "Ставку за эти дни мы не подставляем.",
    ]
    for r in rows:
        who = PAYER_RU[r["payer"]] if payer_given or len(rows) > 1 else "любой плательщик"
        done = (
            f"за {known_days} дн. с известной ставкой — **{rubles(r['partial_total'])}**, к "
            f"этому прибавляются пени за {missing_days} дн. без ставки (формула ниже)"
            if known_days
            else "ставка не известна ни за один день просрочки, пени — по формуле ниже"
        )
        lines.append(f"- Недоимка {rubles(r['amount'])} ({who}): {done}.")
    if len(rows) > 1:
        lines.append("Плательщик не указан, а доли ставки для них разные: уточните, кто платит.")
    lines += [f"> Допущение: {a}." for a in assumptions]
    lines += [
        "",
        "## Расчёт",
        f"Срок уплаты — {ddmmyyyy(first['due_date'])}, недоимка погашена "
        f"{ddmmyyyy(first['paid_date'])}. {PENALTY_RULE}",
    ]
    for r in rows:
        if len(rows) > 1:
            lines += ["", f"**{PAYER_RU[r['payer']]}:**"]
        lines += ["", *penalty_table(r), "", "Дни без ставки — пени по формуле:", *_formula(r)]
        lines.append(
            f"Рассчитано за дни с известной ставкой: {rubles(r['partial_total'])}; итог — эта "
            "сумма плюс пени за дни без ставки."
        )
    citations = dict.fromkeys(c for r in rows for c in r["citations"])
    lines += ["", "## Нормы", "- " + "; ".join(citations) + "."]
    lines.append(f"\n_{data.get('edition', '')}_")
    return lines
