"""Rule-based router: decides scenario and intents without an LLM.

It is the fallback for the LLM orchestrator and the whole router offline, so it is
written to stand on its own (>= 90 % on evals/datasets/routing.jsonl).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from finagent.routing.clarification import clarifying_questions as build_clarifying_questions
from finagent.routing.expansion import expand_query
from finagent.routing.inventory import Inventory
from finagent.routing.rule_patterns import rule_patterns
from finagent.state import Decision, Intent, Scenario, Turn
from finagent.text_normalize import normalize

_WORD = re.compile(r"[a-zа-я0-9]+")

_DATA = rule_patterns()
OWN_DOCUMENTS = _DATA.patterns["OWN_DOCUMENTS"]
GREETINGS = _DATA.patterns["GREETINGS"]
NEWS = _DATA.patterns["NEWS"]
MARKET_TALK = _DATA.patterns["MARKET_TALK"]
RATES_RULES = _DATA.patterns["RATES_RULES"]
CURRENCY = _DATA.patterns["CURRENCY"]
RATES_ACTION = _DATA.patterns["RATES_ACTION"]
KEY_RATE = _DATA.fragments["KEY_RATE"]
KEY_RATE_VALUE = _DATA.patterns["KEY_RATE_VALUE"]
EXPLAIN = _DATA.patterns["EXPLAIN"]
VALUE_ASKED = _DATA.fragments["VALUE_ASKED"]
ELLIPTIC_START = _DATA.fragments["ELLIPTIC_START"]
PRONOUN_ONLY = _DATA.words["PRONOUN_ONLY"]
GENERIC_ONLY = _DATA.words["GENERIC_ONLY"]
DOMAIN_HINT = _DATA.fragments["DOMAIN_HINT"]
VAGUE_HELP = _DATA.fragments["VAGUE_HELP"]
FIND_DOCUMENT = _DATA.patterns["FIND_DOCUMENT"]
DEFINITION = _DATA.fragments["DEFINITION"]
NAMED_PARTY = _DATA.fragments["NAMED_PARTY"]
# the rules' own questions, and the forms a deal's terms are asked in too
ABOUT_RULES = _DATA.patterns["ABOUT_RULES"] + _DATA.patterns["DEAL_TERMS"]
LAW_ONLY = _DATA.patterns["ABOUT_RULES"]
FIND_INFORMATION = _DATA.fragments["FIND_INFORMATION"]
FOLLOW_UP = _DATA.patterns["FOLLOW_UP"]


def _any(patterns: Sequence[str], text: str) -> bool:
    return any(re.search(p, text) for p in patterns)


def _is_vague(text: str, words: list[str]) -> bool:
    if re.match(VAGUE_HELP, text):
        return True
    meaningful = [w for w in words if w not in PRONOUN_ONLY and len(w) > 1]
    if len(words) <= 3 and all(w in GENERIC_ONLY or w in PRONOUN_ONLY for w in words):
        return True  # «налоги», «помоги», «сколько платить», «это законно?»
    if re.search(DOMAIN_HINT, text):
        return False
    if not meaningful:
        return True
    return bool(re.match(ELLIPTIC_START, text)) and len(meaningful) <= 2


def _intents(text: str) -> list[Intent]:
    intents: list[Intent] = []
    explain = _any(EXPLAIN, text)
    key_rate = re.search(KEY_RATE, text) is not None
    currency = _any(CURRENCY, text) and not re.search(r"валютн\w* контрол", text)
    if _any(RATES_RULES, text):
        key_rate = currency = False  # how rates are used in accounting: the classifier decides
    rates = False
    # "какая ставка сейчас и как она влияет на вклады": a value and an explanation
    if key_rate and explain and re.search(VALUE_ASKED, text) and re.search(r"\bи\b", text):
        return ["rates", "kb"]
    if key_rate and _any(KEY_RATE_VALUE, text) and not explain:
        rates = True
    if (
        currency
        and not explain
        and (re.search(r"\bкурс", text) or _any(RATES_ACTION, text) or _any(KEY_RATE_VALUE, text))
    ):
        rates = True
    if _any(RATES_ACTION, text) and currency:
        rates = True
    market_talk = _any(MARKET_TALK, text)
    news = _any(NEWS, text) or market_talk
    if rates and not (_any(NEWS[:-1], text) or market_talk):
        news = False  # «курс юаня на прошлой неделе» is a value over a period
    if news and rates:
        # "новости о ключевой ставке" is news; "ставка сейчас и новости" is both
        both = re.search(r"\bи\b", text) is not None
        value_asked = (
            re.search(r"\b(какая|какой|сколько|каков|сейчас|текущ)", text)
            or (re.search(r"\bкурс", text) and both)
            or (not market_talk and re.search(r"\bкурс\w* \w+ (на|за|с)\b", text))
        )
        if market_talk and not both:
            value_asked = None
        intents = ["rates", "news"] if value_asked else ["news"]
    elif rates:
        intents = ["rates"]
    elif news and explain and re.search(r"\bи\b", text):
        intents = ["kb", "news"]  # "что такое ИИС и есть ли новости о нём"
    elif news:
        intents = ["news"]
    if not intents and _any(GREETINGS, text):
        words = _WORD.findall(text)
        if len(words) <= 6 or not re.search(DOMAIN_HINT, text):
            intents = ["smalltalk"]
    return intents or ["kb"]


def about_rules(query: str) -> bool:
    """A question about rules or an explanation («как заполнить …», «что такое …»)."""
    text = normalize(query)
    return _any(ABOUT_RULES, text) or _any(EXPLAIN, text) or bool(re.search(DEFINITION, text))


def asks_the_law(query: str) -> bool:
    """About rules in a way no deal's document answers: an explanation, a definition, the
    law, a form or a procedure (``about_rules`` without «в какой срок», «что грозит»)."""
    text = normalize(query)
    return _any(LAW_ONLY, text) or _any(EXPLAIN, text) or bool(re.search(DEFINITION, text))


def routing_text(query: str, history: Sequence[Turn] = ()) -> tuple[str, bool]:
    """The text to route: the question, or the previous question + this one for a follow-up."""
    text = normalize(query)
    last_user = next((t.content for t in reversed(history) if t.role == "user"), None)
    words = _WORD.findall(text)
    if last_user is None or (_any(GREETINGS, text) and len(words) <= 4):
        return query, False
    if _is_follow_up(text) or _is_vague(text, words):
        return f"{last_user} {query}", True
    return query, False


def documents_decision(query: str, rule: str, reason: str, ids: Sequence[str] = ()) -> Decision:
    """An S3 decision over all the user's documents (``ids``: the ones the question names)."""
    return Decision(
        scenario=Scenario.ALL_DOCUMENTS,
        confidence=0.9,
        reason=reason,
        rule=rule,
        sub_queries=expand_query(query),
        document_ids=list(ids),
    )


def rule_decision(query: str, inventory: Inventory | None = None) -> Decision | None:
    """The first high-precision rule that fires for ``query``, or None (the classifier decides).

    Rules, in order: greeting (short small talk), vague (nothing to act on), own_documents
    (a possessive before a document word), find_document (a find/open verb whose object
    is a document, «в каком договоре», «что написано в договоре с ...», a document with a
    number, date or legal-form counterparty), inventory (names a document type,
    counterparty or title of the user's documents, and is not a question about rules),
    keywords (rates, news, small talk and their combinations).
    """
    text = normalize(query)
    words = _WORD.findall(text)
    if _any(GREETINGS, text) and len(words) <= 4 and not re.search(DOMAIN_HINT, text):
        return Decision(
            scenario=Scenario.ROUTED,
            intents=["smalltalk"],
            confidence=0.9,
            reason="greeting or small talk",
            rule="greeting",
            sub_queries=[query.strip()],
        )
    if _is_vague(text, words):
        return Decision(
            scenario=Scenario.CLARIFY,
            confidence=0.8,
            reason="the question is too vague",
            rule="vague",
            clarifying_questions=clarifying_questions(text),
        )
    if _any(OWN_DOCUMENTS, text) and not _any(GREETINGS[:2], text):
        return documents_decision(
            query, "own_documents", "the question refers to the user's own documents"
        )
    if _any(FIND_DOCUMENT, text):
        return documents_decision(query, "find_document", "the question asks for a document")
    if re.search(FIND_INFORMATION, text) and not re.search(NAMED_PARTY, " ".join(query.split())):
        return Decision(
            scenario=Scenario.ROUTED,
            intents=["kb"],
            confidence=0.85,
            reason="asks to find information, not a document",
            rule="find_information",
            sub_queries=expand_query(query),
        )
    about_rules = _any(ABOUT_RULES, text) or _any(EXPLAIN, text)
    if inventory is not None:
        found = inventory.match(text)
        # a counterparty of the user's is specific; a type or title only outside rule talk
        if found.counterparties or ((found.doc_types or found.titles) and not about_rules):
            named = [*found.doc_types, *found.counterparties, *found.titles][:3]
            return documents_decision(
                query, "inventory", f"names the user's documents: {', '.join(named)}"
            )
    intents = _intents(text)
    if intents != ["kb"]:
        return Decision(
            scenario=Scenario.ROUTED,
            intents=intents,
            confidence=0.85,
            reason=f"keyword rules: {', '.join(intents)}",
            rule="keywords",
            sub_queries=expand_query(query) if "kb" in intents else [query.strip()],
        )
    named_party = re.search(NAMED_PARTY, " ".join(query.split())) is not None
    if (re.search(DEFINITION, text) or _any(ABOUT_RULES, text)) and not named_party:
        return Decision(
            scenario=Scenario.ROUTED,
            intents=["kb"],
            confidence=0.85,
            reason="a definition or a question about rules",
            rule="about_rules",
            sub_queries=expand_query(query),
        )
    return None


def classify(
    query: str,
    history: Sequence[Turn] = (),
    has_selected_documents: bool = False,
    inventory: Inventory | None = None,
) -> Decision:
    """Scenario and intents by rules alone (S3/S4 are resolved later by size).

    The fallback when the semantic classifier cannot run: a question no rule recognises
    goes to the knowledge base.
    """
    if has_selected_documents:
        return Decision(
            scenario=Scenario.FULL_DOCUMENTS,
            confidence=0.9,
            reason="documents are selected",
            rule="selected_documents",
            sub_queries=expand_query(query),
        )
    text, follow_up = routing_text(query, history)
    decision = rule_decision(text, inventory) or Decision(
        scenario=Scenario.ROUTED,
        intents=["kb"],
        confidence=0.6,
        reason="no rule fired: knowledge base",
        sub_queries=expand_query(text),
    )
    if follow_up:
        decision.reason = "follow-up resolved with the previous question"
    return decision


def _is_follow_up(text: str) -> bool:
    """An elliptic or anaphoric question that only makes sense after the previous turn."""
    return len(_WORD.findall(text)) <= 10 and _any(FOLLOW_UP, text)


def clarifying_questions(text: str) -> list[str]:
    """Russian clarifying questions for a vague query."""
    return build_clarifying_questions(text)
