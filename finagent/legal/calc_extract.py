"""The rule extractor: a deadline or пени question read once into a :class:`CalcRequest`.

Offline it is the only reader; with an LLM it is the referee of the LLM's reading. It never
computes a date or an amount: the calculators do (finagent/answering/calc.py).
"""

from __future__ import annotations

from datetime import date

from finagent.legal.calc_lexicon import phrases
from finagent.legal.calc_request import CalcRequest, Missing
from finagent.legal.calc_text import CalcText, read_question
from finagent.legal.deadline_reading import read_deadline
from finagent.legal.jurisdiction import foreign_country
from finagent.legal.law_scope import OTHER_LAW, other_law
from finagent.legal.penalty_reading import read_penalty
from finagent.legal.period_cues import rank_rows
from finagent.legal.question_days import QuestionDay, question_days
from finagent.legal.question_periods import stated_periods

PENALTY = ("пеня",)
JURISDICTION = "jurisdiction:"


def asks_penalty(text: CalcText) -> bool:
    """Whether the question asks for пени: it names them, and its asking part asks for
    them or asks for no date («пени закрыли 5 июня ... Какой последний день для ответа на
    требование?» asks for a date)."""
    if not text.has(PENALTY):
        return False
    asked_penalty = any(w.lemma == PENALTY[0] and w.asked for w in text.words)
    asks_date = any(text.words[first].asked for first, _ in text.asking_phrases)
    return asked_penalty or not asks_date


def _asks_amount(text: CalcText) -> bool:
    lemmas = [w.lemma for w in text.words]
    return any(
        tuple(lemmas[i : i + len(p)]) == p
        for p in phrases("asks_amount")
        for i in range(len(lemmas))
    )


def looks_like_calc(question: str) -> bool:
    """The router's cheap check: the question asks for пени with something to count from
    (an amount, a date, «сколько пеней»), or asks for a day (a length only when it gives a
    date) about a period the table knows, one it states, or a dated event. It reads the
    words, not the dates' roles or the amounts."""
    text = read_question(question)
    if asks_penalty(text):
        return _asks_amount(text) or bool(text.days) or text.has(("рубль",))
    if not text.asking_phrases:
        return False
    duration = set(phrases("asks_duration"))
    lemmas = [w.lemma for w in text.words]
    asks_day = any(tuple(lemmas[i : i + n]) not in duration for i, n in text.asking_phrases)
    if not asks_day and not text.days:
        return False
    # a period the table knows or the question states, or a dated event the period must
    # run from («бумагу из инспекции получили 4 августа»: which period is then asked back)
    dated_event = asks_day and any(w.event for w in text.words)
    return bool(rank_rows(text, [])) or bool(stated_periods(text)) or dated_event


def extract_calc_request(question: str, today: date) -> CalcRequest:
    """What the question asks the calculators, with every date's role, what was assumed
    and what is missing. ``today`` gives the year of a date written without one when the
    question has no other dated day."""
    text = read_question(question)
    days = question_days(text, today)
    foreign = foreign_country(question)
    if asks_penalty(text):
        return _penalty(text, days, today, foreign)
    return _deadline(text, days, foreign)


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
        decline=_decline_of(foreign) or (OTHER_LAW if other_law(text, row_found=False) else None),
    )


def _deadline(text: CalcText, days: list[QuestionDay], foreign: str | None) -> CalcRequest:
    reading = read_deadline(text, days)
    missing: list[Missing] = []
    if reading.row is None and reading.period is None and reading.decline is None:
        missing.append("procedure")
    if not days and reading.decline is None:
        missing.append("event_date")
    asks = bool(text.asking_phrases) or reading.row is not None
    found = reading.row is not None or reading.period is not None
    scope = OTHER_LAW if other_law(text, row_found=found) else None
    return CalcRequest(
        kind="deadline" if asks else None,
        row_id=reading.row.id if reading.row else None,
        variants=[r.id for r in reading.variants],
        chain_from=reading.chain_from,
        period=reading.period,
        dates=reading.dates,
        assumptions=reading.assumptions,
        confidence=reading.confidence,
        missing=missing,
        decline=_decline_of(foreign) or scope or reading.decline,
    )
