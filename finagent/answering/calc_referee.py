"""The rule extractor referees the LLM's reading of a calc question.

Only a reading the rules would compute is refereed (a declined, incomplete or non-calc
rule reading is answered as it is). A field the LLM leaves empty is no opinion. When the
two readings agree on what the calculators use (the row, a chain, a stated period, the
asked event's date; for пени the due and payment dates, the arrears, the payer, the days
of delay), the rule reading is answered as without an LLM. When they disagree only on the
row and both rows have a period, both readings are computed as variants; any other
disagreement is asked back, naming both readings. Neither reading is ever picked silently.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

from finagent.answering import messages
from finagent.answering.calc_common import money
from finagent.legal.calc_request import CalcRequest, DateRole
from finagent.legal.deadline_reading import POSTED_RECEIPT
from finagent.legal.deadlines import plural
from finagent.legal.penalty_reading import due_on_working_day
from finagent.legal.periods import period_by_id

Outcome = Literal["agree", "variants", "ask"]
What = Literal[
    "kind", "procedure", "event_date", "due_date", "payment_date", "amount", "payer", "late_days"
]


@dataclass(frozen=True)
class Difference:
    """One thing the two readings disagree on, each side in Russian."""

    what: What
    rule: str
    llm: str


@dataclass
class Verdict:
    """What the answer does: the request to answer, or the differences to ask about."""

    outcome: Outcome
    request: CalcRequest
    differences: list[Difference] = field(default_factory=list)


def _days(req: CalcRequest, role: DateRole) -> str:
    days = {d.day for d in req.dated(role)}
    if role == "due":  # a due date on a day off is the next working day for both readings
        days = {due_on_working_day(d) for d in days}
    return ", ".join(f"{d:%d.%m.%Y}" for d in sorted(days))


def _posted_sending(req: CalcRequest) -> str:
    """The sending date of a posted document whose receipt the rules derived (the sixth
    day of the row's own article), rendered; empty otherwise. A reading that counts from
    the sending itself names the same event."""
    asked = req.dated("asked_event")
    if not asked or not asked[0].text.startswith(POSTED_RECEIPT):
        return ""
    return asked[0].text.removeprefix(POSTED_RECEIPT).strip()


def _procedure(req: CalcRequest) -> str:
    table = period_by_id()
    parts = []
    row = table.get(req.row_id) if req.row_id else None
    if row is not None:
        parts.append(f"«{row.what or row.id}» ({row.norm or 'не рассчитывается'})")
    if req.chain_from in table:
        parts.append(f"после срока «{table[req.chain_from].what}»")
    if req.period is not None:
        stated = plural(req.period.count, req.period.unit)
        parts.append(
            {"stated": stated, "extended_to": f"продлён до {stated}"}.get(
                req.period.how, f"продлён на {stated}"
            )
        )
    return ", ".join(parts)


def _money(req: CalcRequest) -> str:
    return "" if req.arrears is None else money(f"{req.arrears:.2f}")


_PAYER = {"organization": "организация", "individual": "физическое лицо (ИП)"}


def _compared(req: CalcRequest) -> dict[What, str]:
    """What the calculators use of a reading, rendered; empty when the reading is silent."""
    if req.kind == "deadline":
        return {"procedure": _procedure(req), "event_date": _days(req, "asked_event")}
    return {
        "due_date": _days(req, "due"),
        "payment_date": _days(req, "payment"),
        "amount": _money(req),
        "payer": _PAYER.get(req.payer or "", ""),
        "late_days": str(req.late_days or ""),
    }


def _only_rows_differ(rule: CalcRequest, llm: CalcRequest) -> bool:
    table = period_by_id()
    rows = [table.get(rule.row_id or ""), table.get(llm.row_id or "")]
    return (
        all(r is not None and not r.decline and r.period > 0 for r in rows)
        and rule.chain_from is None
        and llm.chain_from is None
        and rule.period is None
        and llm.period is None
    )


def referee(rule: CalcRequest, llm: CalcRequest) -> Verdict:
    """The verdict on two readings of one question (``rule`` computable as it is)."""
    if llm.kind is None:  # the LLM read no calculation: no opinion on the fields
        return Verdict("agree", rule)
    if llm.kind != rule.kind:
        kinds = {"deadline": "последний день срока", "penalty": "сумма пеней"}
        diff = Difference("kind", kinds[rule.kind or "deadline"], kinds[llm.kind])
        return Verdict("ask", rule, [diff])
    ours, theirs = _compared(rule), _compared(llm)
    if theirs.get("event_date") and theirs["event_date"] == _posted_sending(rule):
        theirs["event_date"] = ours["event_date"]  # the sending the rules' receipt counts from
    differences = [
        Difference(what, ours[what], theirs[what])
        for what in ours
        if theirs[what] and theirs[what] != ours[what]
    ]
    if not differences:
        return Verdict("agree", rule)
    if [d.what for d in differences] == ["procedure"] and _only_rows_differ(rule, llm):
        variants = [v for v in rule.variants if v != llm.row_id]
        if llm.row_id != rule.row_id and llm.row_id is not None:
            variants.append(llm.row_id)
        return Verdict("variants", rule.model_copy(update={"variants": variants}), differences)
    return Verdict("ask", rule, differences)


_ASK: dict[What, str] = {
    "kind": "Что нужно рассчитать: {rule} или {llm}?",
    "procedure": "О каком сроке речь: {rule} или {llm}?",
    "event_date": "От какой даты считать срок: {rule} или {llm}?",
    "due_date": "Какой был срок уплаты налога: {rule} или {llm}?",
    "payment_date": "Когда недоимка погашена: {rule} или {llm}?",
    "amount": "Какова сумма недоимки: {rule} или {llm}?",
    "payer": "Кто плательщик: {rule} или {llm}?",
    "late_days": "На сколько дней опоздала уплата: {rule} или {llm}?",
}


def disagreement_question(differences: list[Difference]) -> str:
    """The short question back naming each point the two readings differ on."""
    lines = [messages.CLARIFY_HEADER]
    lines += [f"- {_ASK[d.what].format(rule=d.rule, llm=d.llm)}" for d in differences]
    lines.append("\nВопрос допускает оба прочтения, а от этого зависит результат расчёта.")
    return "\n".join(lines)
