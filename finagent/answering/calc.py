"""The answer of a ``calc`` question from its :class:`CalcRequest`.

:func:`answer_request` takes the request (read once, by the rule extractor or an LLM) and
gives one of: the calculators' result with every step and norm (deadlines in
``calc_deadline``, пени in ``calc_penalty``); every reading of an ambiguous question; a
short clarifying question naming what is missing (the date, the amount, the payer, the
procedure); a refusal for another country's rules; or nothing to compute (the knowledge
base answers: a situation the calculators do not guess at, or no calculation at all).

:func:`calculate` reads the question with the rule extractor and, with an LLM, with the
LLM extractor too; the rules referee the LLM's reading (``calc_referee``).
"""

from __future__ import annotations

from datetime import date
from typing import Any

from finagent.answering import messages
from finagent.answering.abstention import jurisdiction_abstention, render_abstention
from finagent.answering.calc_common import CALC_TOOL, DEADLINE_TOOL, PENALTY_TOOL, CalcOutcome
from finagent.answering.calc_deadline import answer_deadline
from finagent.answering.calc_declines import (
    CONTRACT_DEBT,
    contract_debt,
    other_law_refusal,
    stated_rule_answer,
)
from finagent.answering.calc_penalty import answer_penalty, future_rate_answer
from finagent.answering.calc_referee import Verdict, disagreement_question, referee
from finagent.answering.calc_verify import consultable, verify
from finagent.error_report import report
from finagent.legal.calc_extract import (
    FUTURE_KEY_RATE,
    JURISDICTION,
    extract_calc_request,
    told_receipt,
)
from finagent.legal.calc_lexicon import document_names, lexicon, phrases, word_set
from finagent.legal.calc_llm import LlmReader, llm_calc_request
from finagent.legal.calc_request import CalcRequest, Missing
from finagent.legal.calc_text import read_question
from finagent.legal.calendar import CalendarYearError
from finagent.legal.catalog import LawCatalog
from finagent.legal.deadline_reading import REGISTERED_MAIL, SENT_NOT_RECEIVED
from finagent.legal.deadlines import compute_deadline, plural
from finagent.legal.law_scope import OTHER_LAW, governing_law
from finagent.legal.periods import ProceduralPeriod, period_by_id
from finagent.legal.stated_rule import STATED_RULE, without_rule
from finagent.legal.taxes import taxes_named
from finagent.question.build import build_question
from finagent.tools.base import ToolContext
from finagent.tools.registry import ToolRegistry

__all__ = [
    "CALC_TOOL",
    "DEADLINE_TOOL",
    "PENALTY_TOOL",
    "CalcOutcome",
    "LlmReader",
    "answer_request",
    "calculate",
    "clarification",
]

_PROCEDURE = (
    "О каком сроке речь: какое действие и какое событие (например, возражения на акт "
    "проверки, пояснения или документы по требованию, камеральная или выездная проверка)?"
)
_AMOUNT = "Какова сумма недоимки (налога, не уплаченного в срок)?"
_DUE = "Какой был срок уплаты налога?"
_PAID = "Когда недоимка погашена (или на сколько дней опоздала уплата)?"
_SENT = (
    "Когда документ получен? В вопросе указана дата его отправки, а срок считается со дня "
    "получения."
)
_MAIL = (
    "Когда документ получен и какой срок от этой даты нужно посчитать? Документ, "
    "отправленный заказным письмом, считается полученным на шестой рабочий день со дня "
    "отправки (п. 4 ст. 31 НК РФ)."
)


_UNDATED_EVENT = "От какой даты считать срок (дата события, с которого он начинается)?"
_RECEIVED_ON = (
    "Какого числа документ из инспекции получен (по ТКС или в личном кабинете — дата "
    "получения, а не отправки)? Срок ответа считается со дня получения."
)

_LISTED = 6  # rows of a cited article named in a question back


def _procedure_question(req: CalcRequest) -> str:
    """Which period is meant: the cited article's own periods when it has none for the
    asked action («Решение по ст. 101 …, когда уплатить налог?»), else the general one."""
    table = period_by_id()
    rows = [table[r] for r in req.cited_rows if r in table]
    if not rows:
        return _PROCEDURE
    listed = "; ".join(
        f"«{row.what}» — {plural(row.period, row.unit)} ({row.norm}; от события: {row.event})"
        for row in rows[:_LISTED]
    )
    more = " и другие" if len(rows) > _LISTED else ""
    return (
        "Для нормы, на которую ссылается вопрос, в таблице сроков нет срока того действия, "
        f"о котором вы спрашиваете. Сроки этой статьи: {listed}{more}. О каком сроке речь "
        "(какое действие и от какого события)?"
    )


def _demand_question(question: str) -> str | None:
    """The question back for a dated demand whose kind is not told («пришло требование
    14 октября, до какого числа отвечать?»): what the demand is about decides the period,
    so that is asked, with the periods of the commonest kinds (``demand_kinds``)."""
    text = read_question(question)
    demands = document_names("требование")
    if not any(w.lemma in demands and not w.negated for w in text.words):
        return None
    table = period_by_id()
    rows = [table[i] for i in lexicon()["demand_kinds"] if i in table]
    listed = "; ".join(f"{row.what} — {plural(row.period, row.unit)} ({row.norm})" for row in rows)
    return (
        "О чём требование и в рамках какой процедуры оно направлено? От этого зависит "
        f"срок ответа, например: {listed}."
    )


def _event_question(req: CalcRequest) -> str:
    row = period_by_id().get(req.row_id) if req.row_id else None
    asked = sorted({d.day for d in req.dated("asked_event")})
    if row is not None and len(asked) > 1:
        # two documents of the row's kind, or two days the event may be, and the question
        # does not say which: each reading is named with the day it gives
        named = " или ".join(f"{day:%d.%m.%Y}" for day in asked)
        readings = _readings(row, asked)
        return (
            f"В вопросе несколько событий, от которых может считаться срок ({row.event}): "
            f"{named}. От какого из них считать срок?{readings}"
        )
    if row is None:
        return _UNDATED_EVENT
    return f"Какого числа было событие, от которого считается срок: {row.event}?"


def _readings(row: ProceduralPeriod, days: list[date]) -> str:
    """« Если от 10.03.2025 — срок истекает 24.03.2025; …» for a row run from one event
    (a chain's second period is not counted here); empty when a year is not in the
    calendar."""
    if row.after is not None:
        return ""
    try:
        ends = [compute_deadline(day, row.period, row.unit).end_date for day in days]
    except CalendarYearError:
        return ""
    told = "; ".join(
        f"от {day:%d.%m.%Y} — {end:%d.%m.%Y}" for day, end in zip(days, ends, strict=True)
    )
    return f" Срок ({plural(row.period, row.unit)}, {row.norm}) истекает: {told}."


def clarification(req: CalcRequest) -> str | None:
    """The short question back that names what the request misses, or None."""
    if req.decline == REGISTERED_MAIL:
        return f"{messages.CLARIFY_HEADER}\n- {_MAIL}"
    if req.decline == SENT_NOT_RECEIVED:
        return f"{messages.CLARIFY_HEADER}\n- {_SENT}"
    wanted: dict[Missing, str] = {
        "procedure": _procedure_question(req),
        "event_date": _event_question(req),
        "amount": _AMOUNT,
        "due_date": _DUE,
        "payment_date": _PAID,
    }
    missing = [m for m in req.missing if m in wanted]
    if req.kind == "penalty" and req.late_days and "amount" not in missing:
        # days of delay give the other date, or both when neither is stated (paid today);
        # asked back for the amount anyway, the dates that were not told are asked too
        missing = [m for m in missing if m not in ("due_date", "payment_date")]
    if not missing:
        return None
    return messages.CLARIFY_HEADER + "\n" + "\n".join(f"- {wanted[m]}" for m in missing)


def asks_the_law(req: CalcRequest, question: str) -> bool:
    """A deadline question that names a procedure but no date or year and asks how long
    the period is («Сколько может идти выездная проверка?», «В какой срок надо представить
    документы?») asks what the law says, not a date to compute: the Code answers it, and
    asking back for the day of an event the user never mentioned would not. A question
    asking the date itself («До какого числа …?», also beside «сколько дней») still gets
    the clarification."""
    if req.kind != "deadline" or req.missing != ["event_date"] or req.dates:
        return False
    text = read_question(question)
    if any(text.has(p) for p in phrases("asks_day_itself")):
        return False
    typed = build_question(question)
    return typed.answer_type == "period" and not typed.years and not typed.dates


def asks_tax_payment(req: CalcRequest, question: str) -> bool:
    """A dated question asking when a named tax is paid («НДФЛ с выплаты 29-го числа —
    когда перечислить?», «патент кончается 31-го, когда доплатить?») with no procedure of
    the periods' table: the tax's own chapter sets that term, so the Code answers it and
    asking back which procedure is meant would not. A question citing an article the
    table knows (its periods are named back) or naming a demand keeps its question."""
    if req.kind != "deadline" or "procedure" not in req.missing or req.row_id is not None:
        return False
    if not req.dates or req.cited_rows or not taxes_named(question):
        return False
    if _demand_question(question) is not None:
        return False
    paying = word_set("tax_payment_verbs")
    return any(w.lemma in paying and not w.negated for w in read_question(question).words)


def _declined(req: CalcRequest, question: str, today: date | None) -> CalcOutcome | None:
    if req.decline is None or req.decline in (REGISTERED_MAIL, SENT_NOT_RECEIVED):
        return None
    debug = {"declined": req.decline}
    if req.decline == FUTURE_KEY_RATE:
        return CalcOutcome(future_rate_answer(req, today), True, debug, "decline")
    if (
        req.decline == OTHER_LAW
        and req.kind == "penalty"
        and contract_debt(read_question(question))
    ):
        return CalcOutcome(CONTRACT_DEBT, True, {**debug, "civil_law": True}, "decline")
    law = governing_law(read_question(question)) if req.decline == OTHER_LAW else None
    if law is not None:
        return CalcOutcome(other_law_refusal(law), True, {**debug, "law": law.law}, "decline")
    if req.decline.startswith(JURISDICTION):
        abstention = jurisdiction_abstention(question, req.decline.removeprefix(JURISDICTION))
        if abstention is not None:
            return CalcOutcome(render_abstention(abstention), True, debug, "decline")
    return CalcOutcome("", False, debug, "not_calc")  # the knowledge base answers


async def answer_request(
    req: CalcRequest,
    question: str,
    registry: ToolRegistry,
    ctx: ToolContext,
    catalog: LawCatalog | None = None,
    today: date | None = None,
) -> CalcOutcome:
    """The answer to a request: computed, variants, a clarification, a refusal, or
    ``not_calc`` when the knowledge base should answer instead."""
    if req.decline == STATED_RULE:
        stripped = without_rule(read_question(question))
        when = today or date.today()

        async def code_count(text: str) -> CalcOutcome:
            inner = extract_calc_request(text, when)
            if inner.decline == STATED_RULE:  # never recurses into the told rule
                return CalcOutcome("", False, {}, "not_calc")
            return await answer_request(inner, text, registry, ctx, catalog, today)

        return await stated_rule_answer(stripped, code_count)
    declined = _declined(req, question, today)
    if declined is not None:
        return declined
    if req.kind is None:
        return CalcOutcome("", False, {"calc": "no calculation asked"}, "not_calc")
    if asks_the_law(req, question):
        return CalcOutcome("", False, {"calc": "a period asked in general"}, "not_calc")
    if asks_tax_payment(req, question):
        return CalcOutcome("", False, {"calc": "a tax's own payment term"}, "not_calc")
    asked = clarification(req)
    if asked is not None:
        received = (
            req.kind == "deadline"
            and not req.dates
            and told_receipt(read_question(question), dated=False)
        )
        if "procedure" in req.missing and not req.dates and req.kind == "deadline":
            if not received:
                # neither a period nor a date: not a calculation the table knows
                return CalcOutcome("", False, {"missing": req.missing}, "not_calc")
        demand = _demand_question(question) if "procedure" in req.missing else None
        if demand is not None and _PROCEDURE in asked:
            asked = asked.replace(_PROCEDURE, demand)
        if received and req.row_id is None and _UNDATED_EVENT in asked:
            # a document from the inspection told received, undated: its day is asked
            asked = asked.replace(_UNDATED_EVENT, _RECEIVED_ON)
        return CalcOutcome(asked, True, {"missing": req.missing}, "clarify")
    if req.kind == "penalty":
        return await answer_penalty(req, registry, ctx, today)
    return await answer_deadline(req, registry, ctx, catalog)


def computable(req: CalcRequest) -> bool:
    """Whether the rules would compute ``req`` as it is (not declined, nothing missing)."""
    if req.decline is not None or req.kind is None:
        return False
    return clarification(req) is None


async def _llm_verdict(
    req: CalcRequest, query: str, today: date, reader: LlmReader, debug: dict[str, Any]
) -> Verdict:
    """The rules' verdict on the LLM's reading; the rule reading alone when the LLM fails
    (logged, redacted; the user sees the rule reading's answer, not an error)."""
    try:
        read = await llm_calc_request(reader.llm, query, today, reader.method, reader.keep_limits)
    except Exception as exc:  # error, timeout, invalid output: the rules serve alone
        debug["llm_reading"] = {"failed": report(exc, "calc_llm_failed")}
        return Verdict("agree", req)
    verdict = referee(req, read)
    debug["llm_reading"] = {
        "verdict": verdict.outcome,
        "differences": [d.what for d in verdict.differences],
        "request": read.model_dump(mode="json"),
    }
    return verdict


async def _llm_checked(
    req: CalcRequest, query: str, today: date, reader: LlmReader, debug: dict[str, Any]
) -> CalcRequest:
    """The LLM's reading of a question the rules declined or asked back, when it checks out
    against the question's own words and dates and leaves nothing to ask; else ``req``."""
    try:
        read = await llm_calc_request(reader.llm, query, today, reader.method)
    except Exception as exc:  # error, timeout, invalid output: the rules' answer stands
        debug["llm_reading"] = {"failed": report(exc, "calc_llm_failed")}
        return req
    check = verify(query, today, req, read)
    accepted = check.request is not None and clarification(check.request) is None
    debug["llm_reading"] = {
        "verdict": "verified" if accepted else "unverified",
        "differences": check.reasons,
        "request": read.model_dump(mode="json"),
    }
    return check.request if accepted and check.request is not None else req


async def calculate(
    query: str,
    registry: ToolRegistry,
    ctx: ToolContext,
    today: date,
    catalog: LawCatalog | None = None,
    reader: LlmReader | None = None,
) -> CalcOutcome:
    """Read ``query`` and answer it: the rule extractor alone offline; with ``reader``,
    the LLM's reading refereed by the rules when they would compute, and checked against
    the question when they decline or ask back (``calc_verify``)."""
    req = extract_calc_request(query, today)
    debug: dict[str, Any] = {}
    verdict = Verdict("agree", req)
    if reader is not None and computable(req):
        verdict = await _llm_verdict(req, query, today, reader, debug)
    elif reader is not None and consultable(req):
        verdict = Verdict("agree", await _llm_checked(req, query, today, reader, debug))
    if verdict.outcome == "ask":
        question = disagreement_question(verdict.differences)
        outcome = CalcOutcome(question, True, {"ambiguous": "readings"}, "clarify")
    else:
        outcome = await answer_request(verdict.request, query, registry, ctx, catalog, today)
    outcome.debug.setdefault("request", verdict.request.model_dump(mode="json"))
    outcome.debug.update(debug)
    return outcome
