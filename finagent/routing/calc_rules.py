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

from finagent.legal.calc_query import parse_deadline, parse_penalty
from finagent.legal.calc_wording import canonical
from finagent.moscow_time import moscow_today
from finagent.state import Decision, Scenario

DEADLINE_ASKS = (
    r"(до|не позднее|не позже) как(ого|ой) (числа|дня|даты|срока)",
    r"как(ая|ой) (последн|крайн)\w* (дат|день|срок)",
    r"по как(ое|ой) (число|день|дату)",
    r"как(ого|ой) (числа|датой|даты|день)",
    r"когда (истека|истечет|заканчива|закончит|оканчива|завершит|завершает|наступа|наступит"
    r"|долж(?:е|н)|нужно|необходимо|надо|последний|крайний|можно)",
    r"когда\W+(\w+\W+){0,3}(истека|истечет|заканчива|закончит|оканчива|завершит|долж(?:е|н)|обязан|вступ"
    r"|считается|наступ)",
    r"крайн\w* (срок|день|дата)",
    r"\bк как(ому|ой) (сроку|числу|дате|дню)",
    r"\bна как(ой|ом) (\w+ )?срок",
    # past tense: «когда истек срок составления акта?»
    r"когда\W+(\w+\W+){0,2}(истек\b|истекл|истекут|закончил|окончил|завершил|пройд|минует)",
    # a terse «возражения до?», «подать до?»
    r"\bдо\s*\?",
    r"как(им|ой) (днем|числом|датой)",
    r"когда\W+(\w+\W+){0,2}(окончани|истечени|конец|заверш)",
    r"когда\s+(\w+\s+)?срок\w*\s*\?",
    # «когда нас поставят на учет?», «когда подать уведомление?»: the action's own verb
    r"когда\W+(\w+\W+){0,2}(поставят|снимут|вручат|направят|вынесут|рассмотрят|пришлют"
    r"|подать|представить|сообщить|уплатить|заплатить|сдать)\b",
    # a terse question sentence: «Срок исполнения?», «Срок подачи возражений?»
    r"(?:^|[.!?]\s*)срок\w*(?:\s+[\w-]+){0,3}\s*\?",
    # «Срок ответа на требование, полученное 03.02.2025?»
    r"(?:^|[.!?]\s*)срок\w*\s+(ответ|представлен|подач|исполнен|уплат|вручен|сообщен)\w*[^!?]{0,120}\?",
    r"когда\W+(\w+\W+){0,2}срок\w* (уплат|представлен|подач|исполнен|ответ|сообщ|вручен)",
    r"последн\w* (день|дата|срок)",
    r"в как\w* срок",
    r"какой (срок|последний)",
    r"(рассчита|посчита|определ|вычисл)\w*\W+(\w+\W+){0,3}срок",
    r"срок\w*\W+(\w+\W+){0,3}(истека|истечет|заканчива|оканчива)",
)
PENALTY_ASKS = (
    r"сколько\W+(\w+\W+){0,2}пен",
    r"(рассчита|посчита|расчет|расчит|сумм|размер|начисл)\w*\W+(\w+\W+){0,3}пен",
    r"\bпен(и|ей|ям|ю)\b\W+(\w+\W+){0,6}(сколько|какая|какой|каков)",
    r"как(ие|ая|ой|ова|ую)\W+(\w+\W+){0,2}пен",
    r"\bпен(и|ей|я|ю)\b.*\b(сколько|посчита|рассчита)",
    r"\bпени\s*\?",
    r"^\W*пен(и|ей)\b",  # a message that starts with «Пени организации: ...»
    r"\b(нужн\w*|надо|требуется|прошу|посчита\w*|рассчита\w*)\W+(\w+\W+){0,2}пен(и|ей|ю)\b",
    # a question sentence about пени («Пени на 100 тыс. руб. за период ... ?»); the parser
    # still needs an amount and dates
    r"\bпен(и|ей|ям)\b[^!?]{0,150}\?",
    r"\bпен(и|ей)\b\W+(\w+\W+){0,3}(набежа|начисл|насчита|положен|придется|составят|будут)",
)
_DATE = re.compile(
    r"\b\d{1,2}(?:-?го)?\s+(январ|феврал|март|апрел|ма[яйе]|июн|июл|август|сентябр|октябр|ноябр|декабр)"
    r"|\b\d{1,2}\.\d{1,2}\.\d{2,4}\b|\b\d{4}-\d{2}-\d{2}\b"
)


def is_calc_question(query: str) -> bool:
    text = canonical(query)
    if any(re.search(p, text) for p in PENALTY_ASKS):
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
