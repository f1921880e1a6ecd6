"""The LLM orchestrator's decision checked against facts and the offline router.

A model's confidence is not evidence: a small model routed a knowledge question to S1
with confidence 0.9. Facts come from the question and the user's documents only:

- ``documents``: S1 needs documents of the user;
- ``selected_documents``: S3/S4 need selected documents;
- ``rates``: the rates intent needs a currency or the key rate named in the question;
- ``names_documents`` (evidence, not a requirement): the question names a document type,
  counterparty or title of the user's, or refers to their own documents (``decide`` adds
  what the turn's ``Question`` names of the user's cards).

How the decision is taken (``decided_by`` in debug):

1. An LLM clarification (S5) is a decision like the others: ``check:offline_confident``
   when the offline router routes with a rule or at ``clarify_confidence`` or above
   (calibrated; the rate of routes that should have asked is measured by
   ``finagent eval routing``): the offline route stands; else ``llm_asks``. (A
   clarification copied from the prompt's examples never gets here: ``llm_decide``
   rejects it.)
2. ``agree``: the LLM and the offline router (rules + classifier) agree: the LLM's
   decision (its sub-queries) stands.
3. ``check:<fact>``: the LLM's decision fails a fact: the offline decision, which passes
   it, stands (it may itself be a clarification when the classifier is unsure).
4. ``llm``: the offline router is not confident (no rule fired and the classifier's
   probability is below the threshold): the LLM's decision stands.
5. ``check:offline_<fact>``: the confident offline decision fails a fact: the LLM's stands.
6. ``check:names_no_documents``: one side is S1 and the question names none of the
   user's documents: the other side stands.
7. ``ask``: both pass every fact and still disagree (S1 against a question that does name
   the user's documents, or two other routes), or both fail one: the agent asks (S5),
   with clarifying questions between the two routes.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass, field
from typing import Any

from finagent.routing.clarification import clarifying_questions
from finagent.routing.inventory import Inventory
from finagent.routing.live_params import find_currencies
from finagent.routing.rules import KEY_RATE, rule_decision
from finagent.state import Decision, Scenario
from finagent.text_normalize import normalize

# an exchange rate asked without naming the currency («какой курс сегодня?»)
_RATE_WORDS = re.compile(r"\bкурс|\bвалют")
_DOCUMENT_SCENARIOS = (Scenario.FULL_DOCUMENTS, Scenario.SELECTED_SEARCH)


@dataclass(frozen=True)
class Facts:
    """What the question and the user's documents say, independent of any model."""

    user_documents: int
    selected: bool
    mentions_rates: bool
    names_documents: bool


def facts_for(text: str, inventory: Inventory, selected: bool) -> Facts:
    """Facts for the routing ``text`` (the question, joined with the previous one for a
    follow-up) and the user's document inventory."""
    norm = normalize(text)
    found = inventory.match(text)
    ruled = rule_decision(text, inventory)
    return Facts(
        user_documents=len(inventory),
        selected=selected,
        mentions_rates=bool(
            find_currencies(norm) or re.search(KEY_RATE, norm) or _RATE_WORDS.search(norm)
        ),
        names_documents=bool(found.doc_types or found.counterparties or found.titles)
        or (ruled is not None and ruled.scenario == Scenario.ALL_DOCUMENTS),
    )


def failed_checks(decision: Decision, facts: Facts) -> list[str]:
    """The facts ``decision`` contradicts (empty: it passes every check)."""
    failed = []
    if decision.scenario == Scenario.ALL_DOCUMENTS and facts.user_documents == 0:
        failed.append("documents")
    if decision.scenario in _DOCUMENT_SCENARIOS and not facts.selected:
        failed.append("selected_documents")
    if (
        decision.scenario == Scenario.ROUTED
        and "rates" in decision.intents
        and not facts.mentions_rates
    ):
        failed.append("rates")
    return failed


def _labels(decision: Decision) -> set[str]:
    if decision.scenario == Scenario.ROUTED:
        # a computation is a knowledge question with arithmetic: the offline classifier
        # has no calc label, so calc agrees with kb
        return {"kb" if intent == "calc" else intent for intent in decision.intents}
    if decision.scenario in _DOCUMENT_SCENARIOS:
        return {"selected"}
    return {f"S{int(decision.scenario)}"}


def _label(decision: Decision) -> str:
    return decision.intents[0] if decision.intents else f"S{int(decision.scenario)}"


def agree(a: Decision, b: Decision) -> bool:
    """Same route: the same scenario and, in S2, at least one shared intent."""
    return bool(_labels(a) & _labels(b))


def confident(offline: Decision, min_confidence: float) -> bool:
    """A rule fired (high precision) or the classifier is sure; a clarification never is."""
    if offline.scenario == Scenario.CLARIFY:
        return False
    if offline.source == "rules":
        return offline.rule is not None
    return offline.confidence >= min_confidence


def _brief(decision: Decision) -> dict[str, Any]:
    return {
        "scenario": int(decision.scenario),
        "intents": list(decision.intents),
        "confidence": round(decision.confidence, 4),
        "source": decision.source,
        "rule": decision.rule,
    }


@dataclass
class CrossCheck:
    """The decision taken, which check took it and the debug record of both decisions."""

    decision: Decision
    decided_by: str
    outcome: str  # "llm", "offline" or "clarify"
    report: dict[str, Any] = field(default_factory=dict)


def _ask(llm: Decision, offline: Decision, text: str) -> Decision:
    return Decision(
        scenario=Scenario.CLARIFY,
        confidence=min(llm.confidence, offline.confidence),
        reason=f"the LLM ({_label(llm)}) and the offline router ({_label(offline)}) disagree",
        rule="cross_check",
        clarifying_questions=clarifying_questions(text, (_label(llm), _label(offline))),
        sub_queries=[text],
    )


def _resolve(
    llm: Decision,
    offline: Decision,
    facts: Facts,
    text: str,
    min_confidence: float,
    clarify_confidence: float,
) -> tuple[Decision, str, str]:
    llm_failed = failed_checks(llm, facts)
    offline_failed = failed_checks(offline, facts)
    if llm.scenario == Scenario.CLARIFY:
        if confident(offline, clarify_confidence) and not offline_failed:
            return offline, "check:offline_confident", "offline"
        return llm, "llm_asks", "llm"
    if agree(llm, offline):
        return llm, "agree", "llm"
    if llm_failed:
        if not offline_failed:
            return offline, f"check:{llm_failed[0]}", "offline"
        return _ask(llm, offline, text), "ask", "clarify"
    if not confident(offline, min_confidence):
        return llm, "llm", "llm"
    if offline_failed:
        return llm, f"check:offline_{offline_failed[0]}", "llm"
    if Scenario.ALL_DOCUMENTS in (llm.scenario, offline.scenario) and not facts.names_documents:
        other = offline if llm.scenario == Scenario.ALL_DOCUMENTS else llm
        return other, "check:names_no_documents", "llm" if other is llm else "offline"
    return _ask(llm, offline, text), "ask", "clarify"


def cross_check(
    llm: Decision,
    offline: Decision,
    facts: Facts,
    text: str,
    min_confidence: float,
    clarify_confidence: float = 0.95,
) -> CrossCheck:
    """The decision to follow for the LLM's ``llm`` and the offline router's ``offline``
    (see the module docstring for the order of the checks); ``clarify_confidence``: the
    offline confidence that overrules an LLM clarification."""
    decision, decided_by, outcome = _resolve(
        llm, offline, facts, text, min_confidence, clarify_confidence
    )
    if decision is not llm and decision.classifier is None:
        decision.classifier = offline.classifier
    report = {
        "llm": _brief(llm),
        "offline": {**_brief(offline), "confident": confident(offline, min_confidence)},
        "facts": asdict(facts),
        "failed": {"llm": failed_checks(llm, facts), "offline": failed_checks(offline, facts)},
        "decided_by": decided_by,
        "outcome": outcome,
    }
    return CrossCheck(decision, decided_by, outcome, report)
