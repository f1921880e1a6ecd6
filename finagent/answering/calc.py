"""The answer of a ``calc`` question: the calculators' result with every step and norm.

:func:`calculate` parses the question (dates, amounts, periods, payer, governing norm),
calls the registry's calculator tools and renders Russian Markdown: the result first,
then the steps, each with the point of art. 6.1 or art. 75 it applies, the substantive
norm (quoted from the ingested Code when it is there) and the edition of the rules used.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import date
from typing import Any

from finagent.answering.calc_format import ddmmyyyy as _d
from finagent.answering.calc_format import rubles as _money
from finagent.answering.penalty_text import PAYER_RU as _PAYER_RU
from finagent.answering.penalty_text import PENALTY_RULE as _PENALTY_RULE
from finagent.answering.penalty_text import history_note, partial_penalty
from finagent.answering.penalty_text import penalty_table as _penalty_table
from finagent.error_report import report_text
from finagent.legal.calc_asks import asks_for_penalty
from finagent.legal.calc_query import DeadlineQuery, PenaltyQuery, parse_deadline, parse_penalty
from finagent.legal.catalog import LawCatalog
from finagent.legal.deadlines import Unit, plural
from finagent.legal.norm_excerpt import period_excerpt
from finagent.legal.references import find_references
from finagent.tools.base import ToolContext
from finagent.tools.registry import ToolRegistry

DEADLINE_TOOL = "Req_Calculate_Deadline_For_Events"
PENALTY_TOOL = "Req_Calculate_Penalty_For_Payments"
KEY_RATE_UNAVAILABLE = (
    "Пени рассчитать не удалось: ключевая ставка Банка России сейчас недоступна, а "
    "сохранённых значений за этот период нет. Повторите запрос позже."
)
CALC_TOOL = "calc"
ART_6_1_NOTE = (
    "Текст ст. 6.1 НК РФ в подключённой редакции Кодекса отсутствует; правила исчисления "
    "сроков применены по действующей редакции ст. 6.1 (пп. 2, 3, 5–8)."
)
NEEDS_DATA = "Не удалось извлечь из вопроса данные для расчёта. Укажите {what}, например: {example}"
NORM_QUOTE_CHARS = 700


@dataclass
class CalcOutcome:
    markdown: str
    ok: bool
    debug: dict[str, Any] = field(default_factory=dict)
    parsed: bool = True  # False: the question gave nothing to compute from


async def _norm_quote(
    catalog: LawCatalog | None, citation: str, period: int, unit: Unit
) -> str | None:
    """The абзац of the unit ``citation`` names that states the computed period."""
    if catalog is None:
        return None
    refs = find_references(citation)
    if not refs:
        return None
    try:
        resolution = await catalog.resolve(refs[0])
    except Exception:  # the index being down must not stop the arithmetic
        return None
    if not resolution.ok:
        return None
    return period_excerpt(resolution.units[0].text, citation, period, unit, NORM_QUOTE_CHARS)


def _assumptions(items: list[str]) -> str:
    return "".join(f"\n> Допущение: {a}." for a in items)


async def _variants(q: DeadlineQuery, registry: ToolRegistry, ctx: ToolContext) -> CalcOutcome:
    """An ambiguous question: every reading computed, no single «Ответ:» claimed."""
    rows = [r for r in (q.norm, *q.alternatives) if r is not None]
    args: dict[str, Any] = {
        "events": [
            {
                "event_date": q.event_date.isoformat(),
                "period": r.period,
                "unit": r.unit,
                "basis": r.norm,
            }
            for r in rows
        ]
    }
    out = await registry.call(DEADLINE_TOOL, args, ctx)
    debug: dict[str, Any] = {"tool": DEADLINE_TOOL, "args": args, "ambiguous": [r.id for r in rows]}
    data: dict[str, Any] = json.loads(out) if out.ok else {}
    results = data.get("results") or []
    if len(results) != len(rows):
        return CalcOutcome(f"Срок рассчитать не удалось: {out}.", False, debug)
    lines = [
        "## Краткий вывод",
        "Вопрос подходит под несколько норм с разными сроками. Уточните, какая ситуация "
        f"ваша; от события {q.event_date:%d.%m.%Y} срок истекает:",
    ]
    for r, res in zip(rows, results, strict=True):
        lines.append(
            f"- если это «{r.what}» — {plural(r.period, r.unit)} ({r.norm}; отсчёт от события: "
            f"{r.event}): **{_d(res['end_date'])}**"
        )
    if q.assumptions:
        lines.append(_assumptions(q.assumptions).strip())
    lines += ["", "## Расчёт"]
    for r, res in zip(rows, results, strict=True):
        lines.append(f"**{r.norm}:**")
        lines += [f"{i}. {s['text']} ({s['basis']})" for i, s in enumerate(res["steps"], 1)]
    lines += ["", "## Нормы"]
    lines += [f"- **{r.norm}** (`{r.unit_id}`)" for r in rows]
    lines.append("- " + "; ".join(c for c in results[0]["citations"] if c != rows[0].norm) + ".")
    lines.append(f"\n_{ART_6_1_NOTE}_")
    debug.update(end_dates=[res["end_date"] for res in results])
    return CalcOutcome("\n".join(lines), True, debug)


async def _deadline(
    q: DeadlineQuery, registry: ToolRegistry, ctx: ToolContext, catalog: LawCatalog | None
) -> CalcOutcome:
    if q.alternatives:
        return await _variants(q, registry, ctx)
    basis = q.norm.norm if q.norm else None
    args: dict[str, Any] = {
        "events": [
            {
                "event_date": q.event_date.isoformat(),
                "period": q.period,
                "unit": q.unit,
                **({"basis": basis} if basis else {}),
            }
        ]
    }
    out = await registry.call(DEADLINE_TOOL, args, ctx)
    debug: dict[str, Any] = {"tool": DEADLINE_TOOL, "args": args}
    data: dict[str, Any] = json.loads(out) if out.ok else {"errors": [{"error_text": out.text}]}
    if not data.get("results"):
        error = "; ".join(e["error_text"] for e in data.get("errors", [])) or out
        return CalcOutcome(f"Срок рассчитать не удалось: {error}.", False, debug)
    row = data["results"][0]
    lines = ["## Краткий вывод", f"**Ответ: {_d(row['end_date'])}** — последний день срока."]
    if q.norm:
        lines.append(
            f"Срок «{q.norm.what}» — {plural(q.period, q.unit)} ({q.norm.norm}); "
            f"отсчитывается от события: {q.norm.event}."
        )
    if q.assumptions:
        lines.append(_assumptions(q.assumptions).strip())
    lines += ["", "## Расчёт"]
    lines += [f"{i}. {s['text']} ({s['basis']})" for i, s in enumerate(row["steps"], 1)]
    lines += ["", "## Нормы"]
    if q.norm:
        quote = await _norm_quote(catalog, q.norm.norm, q.period, q.unit)
        lines.append(
            f"- **{q.norm.norm}** (`{q.norm.unit_id}`)" + (f": «{quote}»" if quote else "")
        )
    lines.append("- " + "; ".join(c for c in row["citations"] if c != basis) + ".")
    lines.append(f"\n_{ART_6_1_NOTE}_")
    debug.update(end_date=row["end_date"], norm=q.norm.id if q.norm else None)
    return CalcOutcome("\n".join(line for line in lines if line is not None), True, debug)


def _both_payers(q: PenaltyQuery, rows: list[dict[str, Any]], data: dict[str, Any]) -> list[str]:
    """The payer is not stated and the fractions differ: both results, none claimed."""
    lines = [
        "## Краткий вывод",
        "Плательщик не указан, а доля ключевой ставки для организаций и для физических лиц "
        f"(ИП) при этой просрочке разная. Пени на недоимку {_money(rows[0]['amount'])} за "
        f"{rows[0]['days']} дн. просрочки (с {_d(rows[0]['periods'][0]['date_from'])} по "
        f"{_d(rows[0]['paid_date'])} включительно):",
    ]
    lines += [f"- {_PAYER_RU[r['payer']]}: **{_money(r['total'])}**" for r in rows]
    lines.append("Уточните, кто плательщик, — ответ для вашего случая один из этих.")
    if q.assumptions:
        lines.append(_assumptions(q.assumptions).strip())
    lines += [
        "",
        "## Расчёт",
        f"Срок уплаты — {_d(rows[0]['due_date'])}, недоимка погашена "
        f"{_d(rows[0]['paid_date'])}. {_PENALTY_RULE}",
    ]
    for r in rows:
        lines += ["", f"**{_PAYER_RU[r['payer']]}:**", *_penalty_table(r)]
        lines.append(f"Итого: {_money(r['total'])}.")
    citations = dict.fromkeys(c for r in rows for c in r["citations"])
    lines += ["", "## Нормы", "- " + "; ".join(citations) + "."]
    lines.append(f"\n_{data.get('edition', '')}_")
    return lines


async def _penalty(q: PenaltyQuery, registry: ToolRegistry, ctx: ToolContext) -> CalcOutcome:
    payers = [q.payer] if q.payer_given else ["individual", "organization"]
    args = {
        "payments": [
            {
                "amount": str(q.amount),
                "due_date": q.due_date.isoformat(),
                "paid_date": q.paid_date.isoformat(),
                "payer": payer,
            }
            for payer in payers
        ]
    }
    debug: dict[str, Any] = {"tool": PENALTY_TOOL, "args": args}
    if PENALTY_TOOL not in registry:
        return CalcOutcome(
            "Пени рассчитать нельзя: источник ключевой ставки Банка России не подключён.",
            False,
            debug,
        )
    out = await registry.call(PENALTY_TOOL, args, ctx)
    data: dict[str, Any] = json.loads(out) if out.ok else {"fatal_error": out.text}
    results: list[dict[str, Any]] = data.get("results") or []
    if len(results) != len(payers):
        if data.get("fatal_error"):
            # the tool's text is for the LLM (English); the reader gets Russian, the log the cause
            debug["error"] = report_text(
                "key_rate_unavailable", str(data["fatal_error"]), "calc_penalty_failed"
            )
            return CalcOutcome(KEY_RATE_UNAVAILABLE, False, debug)
        error = "; ".join(e["error_text"] for e in data.get("errors", []))
        return CalcOutcome(f"Пени рассчитать не удалось: {error}.", False, debug)
    assumptions = list(q.assumptions)
    if any(r.get("complete") is False for r in results):  # some days have no key rate
        debug.update(missing_rates=results[0]["missing_rates"])
        return CalcOutcome(
            "\n".join(partial_penalty(results, q.payer_given, assumptions, data)), True, debug
        )
    note = history_note(data.get("key_rates") or {})
    if not q.payer_given:
        if len({r["total"] for r in results}) > 1:
            debug.update(totals=[r["total"] for r in results], ambiguous="payer")
            lines = _both_payers(q, results, data)
            if note:
                lines.insert(lines.index("## Расчёт") - 1, note)
            return CalcOutcome("\n".join(lines), True, debug)
        assumptions.append(
            "плательщик не указан: при этой просрочке доля ставки для организаций и для "
            "физических лиц одинакова, пени тоже"
        )
    row = results[0]
    lines = [
        "## Краткий вывод",
        f"**Ответ: {_money(row['total'])}** — пени на недоимку {_money(row['amount'])} "
        f"({_PAYER_RU[row['payer']] if q.payer_given else 'любой плательщик'}) за "
        f"{row['days']} дн. просрочки: с "
        f"{_d(row['periods'][0]['date_from'])} по {_d(row['paid_date'])} включительно.",
    ]
    if note:
        lines.append(note)
    if assumptions:
        lines.append(_assumptions(assumptions).strip())
    lines += [
        "",
        "## Расчёт",
        f"Срок уплаты — {_d(row['due_date'])}, недоимка погашена {_d(row['paid_date'])}. "
        + _PENALTY_RULE,
        "",
        *_penalty_table(row),
    ]
    lines.append(
        f"\n**Итого: {_money(row['total'])}** (сумма по периодам без промежуточного "
        "округления, округлена до копеек)."
    )
    lines += ["", "## Нормы", "- " + "; ".join(row["citations"]) + "."]
    lines.append(f"\n_{data.get('edition', '')}_")
    debug.update(total=row["total"], periods=len(row["periods"]))
    return CalcOutcome("\n".join(line for line in lines if line is not None), True, debug)


async def calculate(
    query: str,
    registry: ToolRegistry,
    ctx: ToolContext,
    today: date,
    catalog: LawCatalog | None = None,
) -> CalcOutcome:
    """Parse ``query``, run the matching calculator, render the answer."""
    if asks_for_penalty(query):
        pq = parse_penalty(query, today)
        if pq is None:
            return CalcOutcome(
                NEEDS_DATA.format(
                    what="сумму недоимки, срок уплаты и дату уплаты",
                    example="«пени на 100 000 руб., срок 28.04.2025, уплачено 10.06.2025, ИП»",
                ),
                False,
                parsed=False,
            )
        return await _penalty(pq, registry, ctx)
    dq = parse_deadline(query, today)
    if dq is None:
        return CalcOutcome(
            NEEDS_DATA.format(
                what="дату события и срок (или действие: пояснения, возражения на акт, "
                "документы по требованию, камеральная или выездная проверка)",
                example="«до какого числа подать возражения на акт, полученный 10.03.2025»",
            ),
            False,
            parsed=False,
        )
    return await _deadline(dq, registry, ctx, catalog)
