"""Several S2 intents in one message: «привет! какой курс евро?», «какая ставка НДС
на продукты? и что с курсом доллара».

The classifier gives one label per message and the keyword rules combine only rates, news
and kb around «и». Here the message is split into clauses (sentences; a leading greeting or
thanks; «и»/«а также» before a new question) and each clause gets the intent its keywords
show: a greeting -> smalltalk, the rates and news keywords of the rule layer, or a
knowledge question (a domain word and at least two content words). When two or more
different intents are found and they include the router's own intent, the decision lists
them in the order they appear.
"""

from __future__ import annotations

import re

from finagent.routing.expansion import expand_query
from finagent.routing.rules import (
    DOMAIN_HINT,
    GREETINGS,
    PRONOUN_ONLY,
    _intents,
)
from finagent.state import Decision, Intent, Scenario
from finagent.text_normalize import normalize

_WORD = re.compile(r"[a-zа-я0-9]+")
_GREETING_LEAD = re.compile(
    r"^(привет(ствую)?|здравствуй(те)?|добр(ый|ое|ого) (день|вечер|утро|дня|вечера)|доброе утро|"
    r"спасибо( большое)?|благодарю|хай|салют)\b[\s,!.:;)-]*"
)
_NEW_QUESTION = (
    r"(?:как(?:ой|ая|ое|ие|ов[ао]?)|сколько|что|чем|как|где|когда|почему|зачем|есть ли|"
    r"расскажи|подскажи|покажи|дай|скажи|объясни|какие|какую|заодно|ещё|еще)"
)
_SPLIT = re.compile(
    rf"[!?;]+\s*|\.+(?:\s+(?!\d)|$)|,?\s+(?:и|а также|а заодно|плюс)\s+(?={_NEW_QUESTION}\b)"
)


def clauses(text: str) -> list[str]:
    """The normalised message cut into clauses; a leading greeting is a clause of its own."""
    text = normalize(text)
    parts: list[str] = []
    lead = _GREETING_LEAD.match(text)
    if lead and lead.end() < len(text):
        parts.append(lead.group(0).strip(" ,!.:;)-"))
        text = text[lead.end() :]
    parts += [p.strip(" ,") for p in _SPLIT.split(text)]
    return [p for p in parts if _WORD.search(p)]


def clause_intent(clause: str) -> Intent | None:
    """The intent one clause shows on its own, or None when it shows none clearly."""
    words = _WORD.findall(clause)
    greeting = _GREETING_LEAD.match(clause) or any(re.search(g, clause) for g in GREETINGS[:2])
    if len(words) <= 4 and greeting:
        return "smalltalk"
    found = _intents(clause)
    if found != ["kb"]:
        return found[0] if len(found) == 1 and found[0] != "smalltalk" else None
    meaningful = [w for w in words if w not in PRONOUN_ONLY and len(w) > 1]
    if len(meaningful) >= 2 and re.search(DOMAIN_HINT, clause):
        return "kb"
    return None


def intents_in(text: str) -> list[Intent]:
    """Distinct clause intents in order of appearance (one or none for most messages)."""
    found: list[Intent] = []
    for clause in clauses(text):
        intent = clause_intent(clause)
        if intent and intent not in found:
            found.append(intent)
    return found


def with_all_intents(text: str, decision: Decision) -> Decision:
    """``decision`` listing every intent of a multi-intent S2 message; others unchanged."""
    if decision.scenario != Scenario.ROUTED or len(decision.intents) != 1:
        return decision
    found = intents_in(text)
    if len(found) < 2 or decision.intents[0] not in found:
        return decision
    if "kb" in found and "kb" not in decision.intents:
        decision.sub_queries = expand_query(text)
    decision.intents = found
    decision.reason = f"{decision.reason}; several intents: {', '.join(found)}"
    return decision
