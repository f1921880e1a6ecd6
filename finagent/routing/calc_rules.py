"""The ``calc`` intent: questions with a deadline or an amount of пени to compute.

Kept apart from the keyword rules (``rules.py``): the router calls :func:`calc_decision`
first, and a question it claims goes to the calc node (``nodes/calc.py``), which reads it
once into a typed request. The router only checks, cheaply, that the question asks for a
day or for пени with a calculation's cue (a period the table knows or one it states, an
amount or a date); it does not read the dates' roles or compute anything. Anything else
(«до какого числа подать уведомление о переходе на УСН») stays with the knowledge base.

A period named only as a reporting period («6-НДФЛ за 9 месяцев», «за 3 месяца») is not a
length to count: with no date, no event and no period the table knows, such a question
asks a fixed statutory day and stays with the Code and the knowledge base.
"""

from __future__ import annotations

from finagent.legal.calc_cues import asks_penalty, looks_like_calc, told_receipt
from finagent.legal.calc_text import CalcText, read_question
from finagent.legal.period_cues import rank_rows
from finagent.legal.question_periods import PeriodMention, stated_periods
from finagent.state import Decision, Scenario

# «за 9 месяцев» names a reporting period; «за 10 дней до собрания» is a length before an
# event, «за 9 месяцев после …» one after it
_AFTER_LENGTH = frozenset({"до", "после", "с", "со", "от"})


def _names_reporting_period(text: CalcText, period: PeriodMention) -> bool:
    words = text.words
    if period.first == 0 or words[period.first - 1].lemma != "за":
        return False
    after = period.last + 1
    return not (after < len(words) and words[after].lemma in _AFTER_LENGTH)


def _asks_statutory_day(question: str) -> bool:
    """The question's only calculation cue is a reporting period it names: no date, no
    event, no receipt, no пени, no period the table knows."""
    text = read_question(question)
    periods = stated_periods(text)
    if not periods or text.days or asks_penalty(text) or rank_rows(text, []):
        return False
    if any(w.event for w in text.words) or told_receipt(text, dated=False):
        return False
    return all(_names_reporting_period(text, p) for p in periods)


def is_calc_question(query: str) -> bool:
    return looks_like_calc(query) and not _asks_statutory_day(query)


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
