"""The пени answer: the calculator's day-by-day breakdown (art. 75 НК РФ) for a request.

When the question does not say who pays and the fractions of the key rate for
organisations and for persons differ at this delay, the answer is a clarifying question
with both amounts: it never picks a payer silently.
"""

from __future__ import annotations

import json
from datetime import date, timedelta
from typing import Any

from finagent.answering import messages
from finagent.answering.calc_common import (
    PENALTY_TOOL,
    CalcOutcome,
    assumption_lines,
    money,
    ru_day,
)
from finagent.answering.penalty_text import (
    PAYER_RU,
    PENALTY_RULE,
    history_note,
    partial_penalty,
    penalty_table,
)
from finagent.error_report import report_text
from finagent.legal.calc_request import CalcRequest
from finagent.tools.base import ToolContext
from finagent.tools.registry import ToolRegistry

KEY_RATE_UNAVAILABLE = (
    "Пени рассчитать не удалось: ключевая ставка Банка России сейчас недоступна, а "
    "сохранённых значений за этот период нет. Повторите запрос позже."
)
NO_KEY_RATE_SOURCE = "Пени рассчитать нельзя: источник ключевой ставки Банка России не подключён."


def future_rate_answer(req: CalcRequest, today: date | None = None) -> str:
    """The refusal of пени asked by a key rate not set yet: why, and the formula with the
    days of delay when both dates are known."""
    lines = [
        "## Краткий вывод",
        "Точную сумму пеней заранее рассчитать нельзя: пени начисляются по ключевой ставке "
        "Банка России, действующей в каждый день просрочки (п. 4 ст. 75 НК РФ), а ставки "
        "на будущие даты Банк России ещё не установил. Прогноз ставки мы не подставляем.",
        "",
        "## Как посчитать, когда ставки станут известны",
        PENALTY_RULE,
    ]
    due, paid = req.dated("due"), req.dated("payment")
    amount = money(str(req.arrears)) if req.arrears is not None else "недоимка"
    if due and paid and paid[0].day > due[0].day:
        days = (paid[0].day - due[0].day).days
        lines.append(
            f"Просрочка — {days} дн.: с {due[0].day + timedelta(days=1):%d.%m.%Y} по "
            f"{paid[0].day:%d.%m.%Y} включительно; пени = {amount} × доля × ключевая ставка "
            "дня / 100 за каждый из этих дней."
        )
    elif due:
        lines.append(
            f"Пени идут с {due[0].day + timedelta(days=1):%d.%m.%Y} по день погашения "
            f"включительно: {amount} × доля × ключевая ставка дня / 100 за каждый день."
        )
    if today is not None and due and due[0].day >= today:
        lines.append(
            f"Срок уплаты ({due[0].day:%d.%m.%Y}) ещё не наступил, на сегодня пеней нет. Могу "
            "посчитать пени на дату погашения, когда ставки на эти дни будут опубликованы."
        )
    else:
        lines.append(
            "Могу посчитать пени на сегодня (по уже известным ставкам) или на дату погашения, "
            "когда ставки на эти дни будут опубликованы."
        )
    return "\n".join(lines)


def _ask_payer(req: CalcRequest, rows: list[dict[str, Any]]) -> str:
    """The payer is not stated and the fractions differ: a question back, with both sums."""
    first = rows[0]
    lines = [
        messages.CLARIFY_HEADER,
        "- Кто плательщик: организация или физическое лицо (ИП)? Доля ключевой ставки для "
        "них при этой просрочке разная.",
        "",
        f"Пени на недоимку {money(first['amount'])} за {first['days']} дн. просрочки (с "
        f"{ru_day(first['periods'][0]['date_from'])} по {ru_day(first['paid_date'])} "
        "включительно):",
    ]
    lines += [f"- {PAYER_RU[r['payer']]}: {money(r['total'])}" for r in rows]
    if req.assumptions:
        lines.append(assumption_lines(req.assumptions))
    return "\n".join(lines)


def _not_late(due: date, paid: date) -> str:
    """Paid on or before the due date: no arrears, so no пени (п. 3 ст. 75 НК РФ)."""
    when = "в срок" if paid == due else "до срока уплаты"
    return "\n".join(
        [
            "## Краткий вывод",
            f"**Ответ: 0,00 руб.** — пени не начисляются, налог уплачен {when}: срок уплаты "
            f"{due:%d.%m.%Y}, уплата {paid:%d.%m.%Y}.",
            "",
            "## Расчёт",
            PENALTY_RULE + " Дней просрочки нет, поэтому и пеней нет.",
            "",
            "## Нормы",
            "- п. 3 ст. 75 НК РФ.",
        ]
    )


async def answer_penalty(
    req: CalcRequest, registry: ToolRegistry, ctx: ToolContext, today: date | None = None
) -> CalcOutcome:
    """The пени of a complete request (amount, due and payment dates). With ``today``, a
    payment date after it whose days the key-rate history does not cover gets the answer
    on rates not set yet (``future_rate_answer``), not a partial calculation."""
    due, paid, amount = req.dated("due")[0].day, req.dated("payment")[0].day, req.arrears
    if paid <= due:
        return CalcOutcome(_not_late(due, paid), True, {"days": 0})
    payers = [req.payer] if req.payer else ["individual", "organization"]
    args = {
        "payments": [
            {
                "amount": str(amount),
                "due_date": due.isoformat(),
                "paid_date": paid.isoformat(),
                "payer": payer,
            }
            for payer in payers
        ]
    }
    debug: dict[str, Any] = {"tool": PENALTY_TOOL, "args": args}
    if PENALTY_TOOL not in registry:
        return CalcOutcome(NO_KEY_RATE_SOURCE, False, debug, "decline")
    out = await registry.call(PENALTY_TOOL, args, ctx)
    data: dict[str, Any] = json.loads(out) if out.ok else {"fatal_error": out.text}
    results: list[dict[str, Any]] = data.get("results") or []
    incomplete = len(results) != len(payers) or any(r.get("complete") is False for r in results)
    if today is not None and paid > today and incomplete:  # rates of days to come: not set
        debug["declined"] = "future_key_rate"
        return CalcOutcome(future_rate_answer(req, today), True, debug, "decline")
    if len(results) != len(payers):
        if data.get("fatal_error"):
            # the tool's text is for the LLM (English); the reader gets Russian, the log the cause
            debug["error"] = report_text(
                "key_rate_unavailable", str(data["fatal_error"]), "calc_penalty_failed"
            )
            return CalcOutcome(KEY_RATE_UNAVAILABLE, False, debug, "decline")
        error = "; ".join(e["error_text"] for e in data.get("errors", []))
        return CalcOutcome(f"Пени рассчитать не удалось: {error}.", False, debug, "decline")
    assumptions = list(req.assumptions)
    if any(r.get("complete") is False for r in results):  # some days have no key rate
        debug.update(missing_rates=results[0]["missing_rates"])
        text = "\n".join(partial_penalty(results, req.payer is not None, assumptions, data))
        return CalcOutcome(text, True, debug)
    note = history_note(data.get("key_rates") or {})
    if req.payer is None:
        if len({r["total"] for r in results}) > 1:
            debug.update(totals=[r["total"] for r in results], ambiguous="payer")
            asked = _ask_payer(req, results)
            return CalcOutcome(f"{asked}\n\n{note}" if note else asked, True, debug, "clarify")
        assumptions.append(
            "плательщик не указан: при этой просрочке доля ставки для организаций и для "
            "физических лиц одинакова, пени тоже"
        )
    row = results[0]
    lines = [
        "## Краткий вывод",
        f"**Ответ: {money(row['total'])}** — пени на недоимку {money(row['amount'])} "
        f"({PAYER_RU[row['payer']] if req.payer else 'любой плательщик'}) за "
        f"{row['days']} дн. просрочки: с "
        f"{ru_day(row['periods'][0]['date_from'])} по {ru_day(row['paid_date'])} включительно.",
    ]
    if note:
        lines.append(note)
    if assumptions:
        lines.append(assumption_lines(assumptions))
    lines += [
        "",
        "## Расчёт",
        f"Срок уплаты — {ru_day(row['due_date'])}, недоимка погашена {ru_day(row['paid_date'])}. "
        + PENALTY_RULE,
        "",
        *penalty_table(row),
        f"\n**Итого: {money(row['total'])}** (сумма по периодам без промежуточного "
        "округления, округлена до копеек).",
        "",
        "## Нормы",
        "- " + "; ".join(row["citations"]) + ".",
        f"\n_{data.get('edition', '')}_",
    ]
    debug.update(total=row["total"], periods=len(row["periods"]))
    return CalcOutcome("\n".join(lines), True, debug)
