"""The rule extractor: a deadline or пени question read once into a :class:`CalcRequest`.

Offline it is the only reader; with an LLM it is the referee of the LLM's reading. It never
computes a date or an amount: the calculators do (finagent/answering/calc.py).
"""

from __future__ import annotations

from datetime import date

from finagent.legal.calc_cues import asks_penalty, looks_like_calc, told_receipt
from finagent.legal.calc_request import CalcRequest, Missing
from finagent.legal.calc_text import CalcText, read_question
from finagent.legal.deadline_reading import read_deadline
from finagent.legal.jurisdiction import foreign_authority, foreign_country, foreign_party_only
from finagent.legal.law_scope import OTHER_LAW, other_law
from finagent.legal.penalty_reading import read_penalty
from finagent.legal.question_days import QuestionDay, question_days
from finagent.legal.stated_rule import STATED_RULE, stated_rule

JURISDICTION = "jurisdiction:"
# пени asked by a key rate the Bank of Russia has not set yet
FUTURE_KEY_RATE = "future_key_rate"
# the router's cheap check and its pieces, read here too (finagent/legal/calc_cues.py)
__all__ = [
    "FUTURE_KEY_RATE",
    "JURISDICTION",
    "asks_penalty",
    "extract_calc_request",
    "looks_like_calc",
    "told_receipt",
]


def extract_calc_request(question: str, today: date) -> CalcRequest:
    """What the question asks the calculators, with every date's role, what was assumed
    and what is missing. ``today`` gives the year of a date written without one when the
    question has no other dated day."""
    text = read_question(question)
    days = question_days(text, today)
    foreign = foreign_country(question) or foreign_authority(question)
    if asks_penalty(text):
        req = _penalty(text, days, today, foreign)
    else:
        req = _deadline(text, days, foreign, foreign is not None and foreign_party_only(question))
    if req.kind is not None and req.decline is None and stated_rule(text):
        # a told rule with a condition the Code lacks: declined, never computed by it
        return req.model_copy(update={"decline": STATED_RULE})
    return req


def _decline_of(country: str | None) -> str | None:
    return f"{JURISDICTION}{country}" if country else None


def _penalty(
    text: CalcText, days: list[QuestionDay], today: date, foreign: str | None
) -> CalcRequest:
    reading = read_penalty(text, days, today)
    missing: list[Missing] = []
    if not any(a.role == "arrears" for a in reading.amounts):
        missing.append("amount")
    if not any(d.role == "due" for d in reading.dates):
        missing.append("due_date")
    if not any(d.role == "payment" for d in reading.dates):
        missing.append("payment_date")
    if reading.dates_assumed and missing:
        # asked back anyway: the dates only assumed from the days of delay are named too
        missing += ["due_date", "payment_date"]
    if reading.payer is None:
        missing.append("payer")
    confidence = 0.9 if not missing else 0.7 if missing == ["payer"] else 0.3
    return CalcRequest(
        kind="penalty",
        dates=reading.dates,
        amounts=reading.amounts,
        late_days=reading.late_days,
        payer=reading.payer,
        assumptions=reading.assumptions,
        confidence=confidence,
        missing=missing,
        decline=_decline_of(foreign)
        or (OTHER_LAW if other_law(text, row_found=False) else None)
        or (FUTURE_KEY_RATE if reading.future_rate else None),
    )


def in_russia(text: CalcText) -> bool:
    """The story happens here: «у нас» (a place name cannot say it: pymorphy3 tags Russian
    and foreign cities alike)."""
    words = text.words
    return any(
        words[k - 1].lemma == "у" and words[k].lemma == "мы" and not words[k].negated
        for k in range(1, len(words))
    )


def _deadline(
    text: CalcText, days: list[QuestionDay], foreign: str | None, party_only: bool = False
) -> CalcRequest:
    reading = read_deadline(text, days)
    if foreign and party_only and (reading.row is not None or reading.decline):
        # «эстонская фирма открыла у нас подразделение»: a foreign party acting here is
        # under the Russian Code; the rows read its adjective as «иностранный» and decide
        if in_russia(text):
            foreign = None
    missing: list[Missing] = []
    if reading.row is None and reading.period is None and reading.decline is None:
        missing.append("procedure")
    if (not days or reading.event_missing) and reading.decline is None:
        missing.append("event_date")
    asks = bool(text.asking_phrases) or reading.row is not None
    found = reading.row is not None or reading.period is not None
    scope = OTHER_LAW if other_law(text, row_found=found) else None
    return CalcRequest(
        kind="deadline" if asks else None,
        row_id=reading.row.id if reading.row else None,
        variants=[r.id for r in reading.variants],
        cited_rows=[r.id for r in reading.cited],
        chain_from=reading.chain_from,
        period=reading.period,
        dates=reading.dates,
        assumptions=reading.assumptions,
        confidence=reading.confidence,
        missing=missing,
        decline=_decline_of(foreign) or scope or reading.decline,
    )
