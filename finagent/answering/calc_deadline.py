"""The deadline answer (art. 6.1 НК РФ) for a request: one date, a chain of two periods, or
every reading of an ambiguous question with none claimed."""

from __future__ import annotations

import json
from datetime import date
from typing import Any

from finagent.answering.calc_common import (
    DEADLINE_TOOL,
    CalcOutcome,
    assumption_lines,
    ru_day,
)
from finagent.legal.calc_request import CalcRequest
from finagent.legal.catalog import LawCatalog
from finagent.legal.deadlines import Unit, plural
from finagent.legal.norm_excerpt import period_excerpt
from finagent.legal.periods import ProceduralPeriod, period_by_id
from finagent.legal.references import find_references
from finagent.tools.base import ToolContext
from finagent.tools.registry import ToolRegistry

ART_6_1_NOTE = (
    "Текст ст. 6.1 НК РФ в подключённой редакции Кодекса отсутствует; правила исчисления "
    "сроков применены по действующей редакции ст. 6.1 (пп. 2, 3, 5–8)."
)
NORM_QUOTE_CHARS = 700


def absent_note(row: ProceduralPeriod) -> str | None:
    """The row's article is not in the loaded Code text: say the period is its current
    edition's, as the answer does for ст. 6.1."""
    if not row.absent:
        return None
    return (
        f"Текст {row.absent} НК РФ в подключённой редакции Кодекса отсутствует; срок "
        f"({row.norm}) приведён по действующей редакции {row.absent}."
    )


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


async def _compute(
    registry: ToolRegistry, ctx: ToolContext, events: list[dict[str, Any]]
) -> tuple[list[dict[str, Any]], str | None]:
    out = await registry.call(DEADLINE_TOOL, {"events": events}, ctx)
    data: dict[str, Any] = json.loads(out) if out.ok else {"errors": [{"error_text": out.text}]}
    results: list[dict[str, Any]] = data.get("results") or []
    if len(results) != len(events):
        return [], "; ".join(e["error_text"] for e in data.get("errors", [])) or str(out)
    return results, None


def _event(day: date, period: int, unit: Unit, basis: str | None) -> dict[str, Any]:
    return {
        "event_date": day.isoformat(),
        "period": period,
        "unit": unit,
        **({"basis": basis} if basis else {}),
    }


def _steps(result: dict[str, Any]) -> list[str]:
    return [f"{i}. {s['text']} ({s['basis']})" for i, s in enumerate(result["steps"], 1)]


async def _variants(
    req: CalcRequest,
    event: date,
    rows: list[ProceduralPeriod],
    registry: ToolRegistry,
    ctx: ToolContext,
) -> CalcOutcome:
    """An ambiguous question: every reading computed, no single «Ответ:» claimed."""
    events = [_event(event, r.period, r.unit, r.norm) for r in rows]
    results, error = await _compute(registry, ctx, events)
    debug: dict[str, Any] = {"tool": DEADLINE_TOOL, "args": {"events": events}}
    debug["ambiguous"] = [r.id for r in rows]
    if error is not None:
        return CalcOutcome(f"Срок рассчитать не удалось: {error}.", False, debug, "decline")
    lines = [
        "## Краткий вывод",
        "Вопрос подходит под несколько норм с разными сроками. Уточните, какая ситуация "
        f"ваша; от события {event:%d.%m.%Y} срок истекает:",
    ]
    for r, res in zip(rows, results, strict=True):
        lines.append(
            f"- если это «{r.what}» — {plural(r.period, r.unit)} ({r.norm}; отсчёт от события: "
            f"{r.event}): **{ru_day(res['end_date'])}**"
        )
    if req.assumptions:
        lines.append(assumption_lines(req.assumptions))
    lines += ["", "## Расчёт"]
    for r, res in zip(rows, results, strict=True):
        lines += [f"**{r.norm}:**", *_steps(res)]
    lines += ["", "## Нормы", *(f"- **{r.norm}** (`{r.unit_id}`)" for r in rows)]
    lines.append("- " + "; ".join(c for c in results[0]["citations"] if c != rows[0].norm) + ".")
    lines.append(f"\n_{ART_6_1_NOTE}_")
    lines += [f"_{n}_" for n in dict.fromkeys(absent_note(r) for r in rows) if n]
    debug.update(end_dates=[res["end_date"] for res in results])
    return CalcOutcome("\n".join(lines), True, debug, "variants")


async def answer_deadline(
    req: CalcRequest, registry: ToolRegistry, ctx: ToolContext, catalog: LawCatalog | None
) -> CalcOutcome:
    """The deadline of a complete request (its row or stated period, and its event date)."""
    table = period_by_id()
    row = table.get(req.row_id) if req.row_id else None
    event = req.event_date
    assert event is not None  # the caller asks for a missing date
    if req.variants and row is not None:
        rows = [row, *(table[v] for v in req.variants)]
        return await _variants(req, event, rows, registry, ctx)
    period, unit = (req.period.count, req.period.unit) if req.period else (row.period, row.unit)  # type: ignore[union-attr]
    basis = row.norm if row else None
    lines_chain: list[str] = []
    debug: dict[str, Any] = {"tool": DEADLINE_TOOL}
    start = event
    if req.chain_from and row is not None:
        first = table[req.chain_from]
        results, error = await _compute(
            registry, ctx, [_event(event, first.period, first.unit, first.norm)]
        )
        if error is not None:
            return CalcOutcome(f"Срок рассчитать не удалось: {error}.", False, debug, "decline")
        start = date.fromisoformat(results[0]["end_date"])
        lines_chain = [
            f"**Сначала срок «{first.what}» — {plural(first.period, first.unit)} "
            f"({first.norm}) от события {event:%d.%m.%Y}: он истекает "
            f"{start:%d.%m.%Y}.**",
            *_steps(results[0]),
            f"**Затем {plural(period, unit)} ({row.norm}) от {start:%d.%m.%Y}:**",
        ]
        debug["chain"] = {"row": first.id, "end_date": results[0]["end_date"]}
    events = [_event(start, period, unit, basis)]
    results, error = await _compute(registry, ctx, events)
    debug["args"] = {"events": events}
    if error is not None:
        return CalcOutcome(f"Срок рассчитать не удалось: {error}.", False, debug, "decline")
    result = results[0]
    lines = ["## Краткий вывод", f"**Ответ: {ru_day(result['end_date'])}** — последний день срока."]
    if row is not None:
        lines.append(
            f"Срок «{row.what}» — {plural(period, unit)} ({row.norm}); "
            f"отсчитывается от события: {row.event}."
        )
    if req.chain_from:
        lines.append(
            f"В вопросе дана дата более раннего события ({event:%d.%m.%Y}): срок считается "
            f"от окончания срока «{table[req.chain_from].what}» ({start:%d.%m.%Y})."
        )
    if req.assumptions:
        lines.append(assumption_lines(req.assumptions))
    lines += ["", "## Расчёт", *lines_chain, *_steps(result), "", "## Нормы"]
    if row is not None:
        quote = await _norm_quote(catalog, row.norm, period, unit)
        lines.append(f"- **{row.norm}** (`{row.unit_id}`)" + (f": «{quote}»" if quote else ""))
        if req.chain_from:
            first = table[req.chain_from]
            lines.append(f"- **{first.norm}** (`{first.unit_id}`)")
    lines.append("- " + "; ".join(c for c in result["citations"] if c != basis) + ".")
    lines.append(f"\n_{ART_6_1_NOTE}_")
    note = absent_note(row) if row is not None else None
    if note:
        lines.append(f"_{note}_")
    debug.update(end_date=result["end_date"], norm=row.id if row else None)
    return CalcOutcome("\n".join(lines), True, debug)
