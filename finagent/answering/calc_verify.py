"""An LLM reading of a question the rules declined or asked back, checked against the
question itself before it may be computed.

The rules ask back when they miss something (the procedure, which date is the event, the
arrears, the due or payment date) and decline a period they cannot tell apart. With an
LLM, its reading is then accepted only when every part the calculation uses is in the
question: each date is a day the question names (with the year the rules resolved), the
arrears an amount it names, a stated period one it states, and the row a candidate its
words name (not outranked by a declined situation) or, when no row's cues match, a row
whose event words stand next to the date taken as its event. Anything else is rejected and
the rules' clarification or decline stands. Another country's or another branch's rules and
a document sent by mail are facts of the question, not a reading: the LLM is not consulted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import date

from finagent.answering.calc_common import money
from finagent.legal.calc_extract import JURISDICTION
from finagent.legal.calc_request import CalcRequest, Missing, RoledAmount, RoledDate
from finagent.legal.calc_text import CalcText, read_question
from finagent.legal.deadline_reading import (
    PERIOD_CONFLICT,
    REGISTERED_MAIL,
    SENT_NOT_RECEIVED,
    asked_periods,
    roled,
    same_period,
)
from finagent.legal.law_scope import OTHER_LAW
from finagent.legal.penalty_reading import date_cues, due_on_working_day
from finagent.legal.period_cues import event_objects, rank_rows
from finagent.legal.periods import ProceduralPeriod, period_by_id
from finagent.legal.question_days import QuestionDay, marked_day, question_days
from finagent.legal.question_periods import stated_periods
from finagent.legal.stated_rule import STATED_RULE

_FACTS = (OTHER_LAW, REGISTERED_MAIL, SENT_NOT_RECEIVED, STATED_RULE)
CHECKED = (
    "{what} — прочтение вопроса языковой моделью, принятое после сверки с датами и словами "
    "вопроса (правила разбора вопроса его не определили)"
)


@dataclass
class Check:
    """The checked request (None when rejected) and why it was rejected."""

    request: CalcRequest | None
    reasons: list[str] = field(default_factory=list)


def consultable(rule: CalcRequest) -> bool:
    """Whether an LLM may read a question the rules would not compute: they miss something
    or declined a period; not another country's or branch's rules, not a mailed document."""
    if rule.kind is None:
        return False
    decline = rule.decline
    return decline is None or not (decline.startswith(JURISDICTION) or decline in _FACTS)


def verify(question: str, today: date, rule: CalcRequest, llm: CalcRequest) -> Check:
    """``llm`` checked against the question's own words and dates (``rule`` is the rules'
    reading, which declined or asked)."""
    if llm.kind != rule.kind:
        return Check(None, ["kind"])
    text = read_question(question)
    days = question_days(text, today)
    if rule.kind == "penalty":
        return _penalty(text, rule, llm, days)
    return _deadline(text, days, rule, llm)


def _day_of(days: list[QuestionDay], day: date | None) -> QuestionDay | None:
    found = [d for d in days if d.day == day]
    return found[0] if found else None


def _row_named(
    text: CalcText, days: list[QuestionDay], rule: CalcRequest, row: ProceduralPeriod
) -> str | None:
    """Why the question does not name ``row``, or None when it does."""
    if row.decline or row.period <= 0:
        return "declined row"
    ranked = rank_rows(text, days)
    mine = [c for c in ranked if c.row.id == row.id]
    if mine:
        if any(c.row.decline and c.score >= mine[0].score for c in ranked):
            return "a declined situation ranks as high"
    elif ranked:
        return "row not named by the question's words"
    if rule.decline == PERIOD_CONFLICT:
        asked = asked_periods(text)
        if rule.row_id == row.id or not asked or not same_period(row, asked[0]):
            return "not the period the question asks about"
    elif rule.decline is not None:
        return "the rules declined the situation"
    return None


def _event_marked(
    text: CalcText, days: list[QuestionDay], row: ProceduralPeriod, event: QuestionDay
) -> bool:
    """Whether the question tells the row's event on ``event``: the event's words with
    its document («получили требование», «акт вручен») stand nearest to that day, and no
    other row of the table with another period runs from the same event (the event then
    says which period is asked)."""
    objects = event_objects(row.id)
    found = marked_day(text, days, objects) if objects else None
    if found is None or found[0].day != event.day:
        return False
    rivals = [
        other
        for other in period_by_id().values()
        if not other.decline
        and other.event == row.event
        and (other.period, other.unit) != (row.period, row.unit)
    ]
    return not rivals


def _deadline(
    text: CalcText, days: list[QuestionDay], rule: CalcRequest, llm: CalcRequest
) -> Check:
    reasons: list[str] = []
    row = period_by_id().get(llm.row_id or "")
    read_row = rule.row_id is not None or rule.period is not None  # its date is a reading
    if llm.period is not None:
        stated = [(p.count, p.unit) for p in stated_periods(text) if not p.extension]
        if llm.period.how != "stated" or (llm.period.count, llm.period.unit) not in stated:
            reasons.append("period not stated in the question")
    elif row is None:
        reasons.append("no row")
    if row is not None:
        why = _row_named(text, days, rule, row)
        if why:
            reasons.append(why)
        if llm.chain_from is not None and llm.chain_from != row.after:
            reasons.append("chain not of the row")
    event = _day_of(days, llm.event_date)
    if len({d.day for d in rule.dated("asked_event")}) > 1:
        # the rules found two documents of the row's kind and nothing that picks one: a
        # reading that takes one of them is a guess, and the question back stands
        reasons.append("the question dates several events of the row's kind")
    if event is None:
        reasons.append("event date not in the question")
    elif read_row and rule.event_date is not None and rule.event_date != event.day:
        reasons.append("another event date than the rules'")
    elif row is not None and not read_row and not _event_marked(text, days, row, event):
        reasons.append("the row's event words do not mark the date")
    if reasons or event is None:
        return Check(None, reasons)
    assumptions = [a for a in rule.assumptions if not a.startswith("год не указан")]
    if not event.year_given:
        assumptions.insert(0, event.year_note)
    dates = [roled(text, d, "asked_event" if d is event else "other_event") for d in days]
    request = rule.model_copy(
        update={
            "row_id": row.id if row is not None else None,
            "variants": [],
            "cited_rows": [],
            "chain_from": llm.chain_from,
            "period": llm.period if row is None else None,
            "dates": dates,
            "kind": "deadline",
            "assumptions": [*assumptions, CHECKED.format(what=_deadline_taken(row, llm, event))],
            "confidence": 0.6,
            "missing": [],
            "decline": None,
        }
    )
    return Check(request)


def _deadline_taken(row: ProceduralPeriod | None, llm: CalcRequest, event: QuestionDay) -> str:
    if row is not None:
        what = f"срок «{row.what}» ({row.norm})"
    else:
        what = "срок, указанный в вопросе"
    return f"{what} от события {event.day:%d.%m.%Y}"


def _penalty(text: CalcText, rule: CalcRequest, llm: CalcRequest, days: list[QuestionDay]) -> Check:
    reasons: list[str] = []
    if rule.decline is not None:
        reasons.append("the rules declined the question")
    named = {a.value for a in rule.amounts}
    arrears = llm.arrears if llm.arrears is not None else rule.arrears
    if arrears is None or arrears not in named:
        reasons.append("arrears not an amount of the question")
    elif rule.arrears is not None and arrears != rule.arrears:
        reasons.append("another arrears than the rules'")
    if llm.payer is not None and rule.payer is not None and llm.payer != rule.payer:
        reasons.append("another payer than the rules'")
    picked: dict[str, date] = {}
    for role in ("due", "payment"):
        ours = [d.day for d in rule.dated(role)]  # type: ignore[arg-type]
        theirs = [d.day for d in llm.dated(role)]  # type: ignore[arg-type]
        day = theirs[0] if theirs else (ours[0] if ours else None)
        if day is None:
            reasons.append(f"no {role} date")
        elif theirs and _day_of(days, day) is None:
            reasons.append(f"{role} date not in the question")
        elif theirs and _told_otherwise(text, days, day, role):
            reasons.append(f"the words call the {role} date otherwise")
        elif role == "due" and ours and due_on_working_day(day) != ours[0]:
            reasons.append("another due date than the rules'")
        elif role == "payment" and ours and day != ours[0]:
            reasons.append("another payment date than the rules'")
        else:
            picked[role] = due_on_working_day(day) if role == "due" and theirs else day
    if len(picked) == 2 and picked["due"] >= picked["payment"]:
        reasons.append("paid before it was due")
    anchored = [
        role
        for role, roled_dates in (("due", llm.dated("due")), ("payment", llm.dated("payment")))
        if not roled_dates or _told_as(text, days, roled_dates[0].day, role)
    ]
    if not reasons and not anchored and not rule.dates:
        reasons.append("no date the words call due or paid")
    if reasons:
        return Check(None, reasons)
    assumptions = list(rule.assumptions)
    stated_due = llm.dated("due")
    if stated_due and picked["due"] != stated_due[0].day:
        assumptions.append(
            f"срок уплаты {stated_due[0].day:%d.%m.%Y} приходится на нерабочий день: по п. 7 "
            f"ст. 6.1 НК РФ последний день уплаты — {picked['due']:%d.%m.%Y}"
        )
    missing: list[Missing] = ["payer"] if rule.payer is None else []
    amounts = [
        RoledAmount(value=a.value, role="arrears" if a.value == arrears else "other", text=a.text)
        for a in rule.amounts
    ]
    request = rule.model_copy(
        update={
            "dates": [
                RoledDate(day=picked["due"], role="due"),
                RoledDate(day=picked["payment"], role="payment"),
            ],
            "amounts": _one_arrears(amounts),
            "assumptions": [
                *assumptions,
                CHECKED.format(
                    what=f"срок уплаты {picked['due']:%d.%m.%Y}, недоимка погашена "
                    f"{picked['payment']:%d.%m.%Y}, недоимка {money(f'{arrears:.2f}')}"
                ),
            ],
            "confidence": 0.6,
            "missing": missing,
        }
    )
    return Check(request)


def _cues_of(text: CalcText, days: list[QuestionDay], day: date) -> set[str | None]:
    return {cue for d, cue in zip(days, date_cues(text, days), strict=True) if d.day == day}


def _told_otherwise(text: CalcText, days: list[QuestionDay], day: date, role: str) -> bool:
    """Whether the words right before a mention of ``day`` call it the other date («срок
    уплаты» before a day the reading takes as paid, «уплатили» before its due date)."""
    return ("paid" if role == "due" else "due") in _cues_of(text, days, day)


def _told_as(text: CalcText, days: list[QuestionDay], day: date, role: str) -> bool:
    """Whether the words right before a mention of ``day`` call it what ``role`` says."""
    return ("due" if role == "due" else "paid") in _cues_of(text, days, day)


def _one_arrears(amounts: list[RoledAmount]) -> list[RoledAmount]:
    """Only the first amount of the arrears' value keeps the role (a sum told twice)."""
    seen = False
    out = []
    for a in amounts:
        if a.role == "arrears":
            out.append(a if not seen else a.model_copy(update={"role": "other"}))
            seen = True
        else:
            out.append(a)
    return out
