"""The ``calc`` intent: questions with a deadline or an amount of пени to compute.

Kept apart from the keyword rules (``rules.py``): the router calls :func:`calc_decision`
first, and a question it claims goes to the calculators (``nodes/calc.py``).
A question is ``calc`` when it asks for a date or an amount («до какого числа», «когда
истекает», «сколько пеней») and the rule path can compute it: a deadline question names
an event date and a period (or an action whose period the table of procedural periods
knows), a пени question an amount and dates (or days of delay). Anything else («до какого
числа подать уведомление о переходе на УСН») stays with the knowledge base.
"""

from __future__ import annotations

import re

from finagent.legal.calc_asks import DEADLINE_ASKS, PENALTY_ASKS, asks_for_penalty
from finagent.legal.calc_query import parse_deadline, parse_penalty
from finagent.legal.calc_wording import canonical
from finagent.moscow_time import moscow_today
from finagent.state import Decision, Scenario

_DATE = re.compile(
    r"\b\d{1,2}(?:-?го)?\s+(январ|феврал|март|апрел|ма[яйе]|июн|июл|август|сентябр|октябр|ноябр|декабр)"
    r"|\b\d{1,2}\.\d{1,2}\.\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b"
)


def is_calc_question(query: str) -> bool:
    text = canonical(query)
    if any(re.search(p, text) for p in PENALTY_ASKS) and asks_for_penalty(query):
        return parse_penalty(query, moscow_today()) is not None
    if any(re.search(p, text) for p in DEADLINE_ASKS) and _DATE.search(text):
        return parse_deadline(query, moscow_today()) is not None
    return False


def calc_decision(query: str) -> Decision | None:
    """An S2 ``calc`` decision for a deadline or пени question, else None."""
    if not is_calc_question(query):
        return None
    return Decision(
        scenario=Scenario.ROUTED,
        intents=["calc"],
        confidence=0.9,
        reason="a deadline or пени to compute",
        rule="calc",
        sub_queries=[query.strip()],
    )
