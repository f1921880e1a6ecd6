"""The ``calc`` intent: questions with a deadline or an amount of пени to compute.

Kept apart from the keyword rules (``rules.py``): the router calls :func:`calc_decision`
first, and a question it claims goes to the calc node (``nodes/calc.py``), which reads it
once into a typed request. The router only checks, cheaply, that the question asks for a
day or for пени with a calculation's cue (a period the table knows or one it states, an
amount or a date); it does not read the dates' roles or compute anything. Anything else
(«до какого числа подать уведомление о переходе на УСН») stays with the knowledge base.
"""

from __future__ import annotations

from finagent.legal.calc_cues import looks_like_calc
from finagent.state import Decision, Scenario


def is_calc_question(query: str) -> bool:
    return looks_like_calc(query)


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
