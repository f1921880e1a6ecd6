"""The LLM's route checked against facts and the offline router (pure decisions)."""

from __future__ import annotations

from finagent.routing.cross_check import Facts, cross_check, facts_for, failed_checks
from finagent.routing.inventory import inventory_from
from finagent.state import Decision, Scenario

MIN = 0.8


def llm(scenario: int, *intents: str, confidence: float = 0.9) -> Decision:
    return Decision(
        scenario=Scenario(scenario),
        intents=list(intents),  # type: ignore[arg-type]
        confidence=confidence,
        source="llm",
    )


def classifier(scenario: int, *intents: str, p: float = 0.95) -> Decision:
    return Decision(
        scenario=Scenario(scenario),
        intents=list(intents),  # type: ignore[arg-type]
        confidence=p,
        source="classifier",
        classifier={"label": intents[0] if intents else f"S{scenario}", "probability": p},
    )


def rule(scenario: int, *intents: str, name: str = "keywords") -> Decision:
    return Decision(
        scenario=Scenario(scenario),
        intents=list(intents),  # type: ignore[arg-type]
        confidence=0.85,
        rule=name,
    )


def facts(documents: int = 2, rates: bool = False, names: bool = False) -> Facts:
    return Facts(
        user_documents=documents, selected=False, mentions_rates=rates, names_documents=names
    )


def test_facts_come_from_the_question_and_the_documents() -> None:
    inventory = inventory_from(
        [{"title": "Счёт-фактура № 58 от 12.03.2025", "counterparty": "ромашка"}]
    )
    assert facts_for("курс доллара на завтра", inventory, False).mentions_rates
    assert facts_for("ключевая ставка ЦБ", inventory, False).mentions_rates
    assert facts_for("какой курс сегодня", inventory, False).mentions_rates
    assert not facts_for("ставка НДС при экспорте", inventory, False).mentions_rates
    assert facts_for("что в счёт-фактуре от Ромашки?", inventory, False).names_documents
    assert facts_for("что в моих документах?", inventory, False).names_documents
    assert not facts_for("что такое налоговый вычет?", inventory, False).names_documents
    assert facts_for("вопрос", inventory_from([]), True).user_documents == 0


def test_hard_checks() -> None:
    assert failed_checks(llm(1), facts(documents=0)) == ["documents"]
    assert failed_checks(llm(1), facts(documents=1)) == []
    assert failed_checks(llm(3), facts()) == ["selected_documents"]
    assert failed_checks(llm(2, "rates"), facts(rates=False)) == ["rates"]
    assert failed_checks(llm(2, "rates", "news"), facts(rates=True)) == []
    assert failed_checks(llm(2, "kb"), facts(documents=0)) == []


def test_agreement_keeps_the_llm_decision() -> None:
    mine = llm(2, "rates", "news")
    checked = cross_check(mine, rule(2, "rates"), facts(rates=True), "курс", MIN)
    assert checked.decision is mine and checked.decided_by == "agree"
    assert checked.report["llm"]["intents"] == ["rates", "news"]
    assert checked.report["offline"]["rule"] == "keywords"


def test_s1_without_documents_loses_to_the_offline_route() -> None:
    offline = classifier(2, "kb")
    checked = cross_check(llm(1), offline, facts(documents=0), "ставка НДС", MIN)
    assert checked.decision is offline
    assert checked.decided_by == "check:documents" and checked.outcome == "offline"
    assert checked.report["failed"] == {"llm": ["documents"], "offline": []}


def test_rates_without_a_currency_loses_even_to_an_unsure_classifier() -> None:
    unsure = classifier(5, p=0.4)
    checked = cross_check(llm(2, "rates"), unsure, facts(rates=False), "срок декларации", MIN)
    assert checked.decision is unsure and checked.decided_by == "check:rates"
    assert checked.report["offline"]["confident"] is False


def test_both_failing_asks() -> None:
    checked = cross_check(llm(2, "rates"), rule(1, name="own_documents"), facts(0), "x", MIN)
    assert checked.decision.scenario == Scenario.CLARIFY and checked.decided_by == "ask"
    assert checked.decision.clarifying_questions


def test_an_unsure_classifier_does_not_contest_the_llm() -> None:
    mine = llm(2, "kb")
    checked = cross_check(mine, classifier(2, "news", p=0.6), facts(), "налоги", MIN)
    assert checked.decision is mine and checked.decided_by == "llm"
    assert cross_check(mine, rule(5, name="vague"), facts(), "x", MIN).decided_by == "llm"


def test_a_confident_offline_route_that_fails_a_fact_does_not_override() -> None:
    mine = llm(2, "kb")
    checked = cross_check(mine, classifier(2, "rates", p=0.99), facts(rates=False), "x", MIN)
    assert checked.decision is mine and checked.decided_by == "check:offline_rates"


def test_s1_against_a_confident_classifier_needs_the_users_documents_named() -> None:
    offline = classifier(2, "kb", p=0.97)
    checked = cross_check(llm(1), offline, facts(names=False), "что такое вычет?", MIN)
    assert checked.decision is offline and checked.decided_by == "check:names_no_documents"
    # the other way round: the LLM says kb, the classifier S1 for a question naming nothing
    mine = llm(2, "kb")
    checked = cross_check(mine, classifier(1, p=0.9), facts(names=False), "x", MIN)
    assert checked.decision is mine and checked.outcome == "llm"
    # the question names the user's invoice and the classifier says kb: ask
    asked = cross_check(llm(1), offline, facts(names=True), "как учесть счёт-фактуру?", MIN)
    assert asked.decision.scenario == Scenario.CLARIFY and asked.decided_by == "ask"
    assert asked.decision.classifier == offline.classifier


def test_two_plausible_routes_make_the_agent_ask() -> None:
    checked = cross_check(llm(2, "news"), rule(2, "kb", name="about_rules"), facts(), "q", MIN)
    assert checked.decision.scenario == Scenario.CLARIFY
    assert checked.decision.rule == "cross_check" and checked.outcome == "clarify"
    assert "news" in checked.decision.reason and "kb" in checked.decision.reason


def test_the_llm_asking_is_kept_unless_the_offline_route_is_confident() -> None:
    mine = llm(5)
    mine.clarifying_questions = ["За какой год?"]
    unsure = classifier(2, "kb", p=0.9)
    assert cross_check(mine, unsure, facts(), "q", MIN, 0.95).decision is mine
    for offline in (classifier(2, "kb", p=0.97), rule(2, "kb", name="about_rules")):
        checked = cross_check(mine, offline, facts(), "q", MIN, 0.95)
        assert checked.decision is offline and checked.decided_by == "check:offline_confident"
    # a confident route that fails a fact does not overrule the clarification
    no_documents = cross_check(mine, classifier(1, p=0.99), facts(documents=0), "q", MIN, 0.95)
    assert no_documents.decision is mine


def test_a_calc_intent_agrees_with_the_offline_kb_route() -> None:
    from finagent.routing.cross_check import agree

    assert agree(llm(2, "calc"), classifier(2, "kb"))
    assert not agree(llm(2, "calc"), classifier(2, "news"))
