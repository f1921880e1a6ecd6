"""The orchestrator's LLM decision cross-checked in the graph: a scripted chat model
decides, the real rules, e5 classifier and document inventory check it.

Alice has two documents (a lease and an invoice from «Ромашка-Трейд»), Bob has none.
"""

from __future__ import annotations

from typing import Any

import pytest

from finagent.graph.agent import Agent
from finagent.routing.service import route_query
from tests.fakes.llm import ScriptedChatModel, tool_call_message


def said(scenario: int, *intents: str, confidence: float = 0.9, **extra: Any) -> Any:
    return tool_call_message(
        "OrchestratorOutput",
        {
            "scenario": scenario,
            "intents": list(intents),
            "confidence": confidence,
            "reason": "scripted",
            "clarifying_questions": extra.get("clarifying_questions", []),
            "sub_queries": [],
        },
    )


async def route(make_loaded: Any, user: str, query: str, decision: Any) -> dict[str, Any]:
    llm = ScriptedChatModel([decision])
    services = (await make_loaded(llm))["services"]
    out = await route_query(services, user, query, [])
    assert llm.calls == 1
    return out


async def test_agreement_keeps_the_llm_route(make_loaded: Any) -> None:
    out = await route(make_loaded, "alice", "Какая ставка НДС при экспорте?", said(2, "kb"))
    check = out["debug"]["routing_cross_check"]
    assert out["source"] == "llm" and out["intents"] == ["kb"]
    assert check["decided_by"] == "agree"
    assert check["llm"]["intents"] == ["kb"] and check["offline"]["intents"] == ["kb"]


async def test_s1_for_a_user_without_documents_is_overruled(make_loaded: Any) -> None:
    """The reported failure: a knowledge question routed to S1 with confidence 0.9."""
    out = await route(make_loaded, "bob", "Какая ставка НДС при экспорте?", said(1))
    check = out["debug"]["routing_cross_check"]
    assert out["scenario"] == 2 and out["intents"] == ["kb"]
    assert out["source"] == "classifier"
    assert check["decided_by"] == "check:documents" and check["outcome"] == "offline"
    assert check["llm"]["scenario"] == 1 and check["llm"]["confidence"] == 0.9
    assert check["facts"]["user_documents"] == 0


async def test_rates_without_a_currency_or_the_key_rate_is_overruled(make_loaded: Any) -> None:
    out = await route(
        make_loaded, "alice", "Какой срок подачи декларации по НДС?", said(2, "rates")
    )
    check = out["debug"]["routing_cross_check"]
    assert out["intents"] == ["kb"]
    assert check["decided_by"] == "check:rates" and check["failed"]["llm"] == ["rates"]
    assert check["facts"]["mentions_rates"] is False


async def test_s1_naming_no_document_loses_to_a_confident_rule(make_loaded: Any) -> None:
    out = await route(make_loaded, "alice", "Что такое налоговый вычет?", said(1))
    check = out["debug"]["routing_cross_check"]
    assert out["scenario"] == 2 and out["rule"] == "about_rules"
    assert check["offline"]["confident"] is True
    assert check["decided_by"] == "check:names_no_documents"


async def test_s1_naming_the_users_invoice_against_a_rules_answer_asks(make_loaded: Any) -> None:
    out = await route(make_loaded, "alice", "Как учитывать НДС по счёт-фактуре?", said(1))
    check = out["debug"]["routing_cross_check"]
    assert out["scenario"] == 5 and out["rule"] == "cross_check"
    assert check["decided_by"] == "ask" and check["facts"]["names_documents"] is True
    assert out["clarifying_questions"]


async def test_two_plausible_routes_ask_in_the_answer(make_loaded: Any) -> None:
    llm = ScriptedChatModel([said(2, "news")])
    services = (await make_loaded(llm))["services"]
    result = await Agent(services).run(user_id="alice", query="Какая ставка НДС при экспорте?")
    check = result.debug["routing_cross_check"]
    assert result.scenario == 5 and check["decided_by"] == "ask"
    assert check["llm"]["intents"] == ["news"] and check["offline"]["intents"] == ["kb"]
    assert check["offline"]["source"] == "classifier" and check["offline"]["confident"]
    assert result.debug["decision"]["clarifying_questions"][0] in result.answer


@pytest.mark.parametrize(
    ("query", "decision", "decided_by"),
    [
        # the classifier is unsure (news 0.56): the LLM's knowledge route stands
        ("Как изменится налоговая нагрузка в следующем году?", said(2, "kb"), "llm"),
        # the LLM asks and the classifier is unsure (news 0.56): the clarification stands
        (
            "Как изменится налоговая нагрузка в следующем году?",
            said(5, clarifying_questions=["О каком налоге речь?"]),
            "llm_asks",
        ),
    ],
)
async def test_the_llm_stands_when_nothing_contests_it(
    make_loaded: Any, query: str, decision: Any, decided_by: str
) -> None:
    out = await route(make_loaded, "alice", query, decision)
    check = out["debug"]["routing_cross_check"]
    assert out["source"] == "llm" and check["decided_by"] == decided_by


async def test_selected_documents_are_not_cross_checked(make_loaded: Any) -> None:
    llm = ScriptedChatModel([said(3)])
    loaded = await make_loaded(llm)
    out = await route_query(
        loaded["services"], "alice", "Какая сумма НДС?", [loaded["doc_ids"]["invoice"]]
    )
    assert out["scenario"] == 3 and "routing_cross_check" not in out["debug"]


async def test_a_confident_offline_route_overrules_an_llm_clarification(
    make_loaded: Any,
) -> None:
    asked = said(5, clarifying_questions=["Уточните, о каком периоде идёт речь?"])
    out = await route(make_loaded, "alice", "Какая ставка НДС при экспорте?", asked)
    check = out["debug"]["routing_cross_check"]
    assert out["scenario"] == 2 and out["intents"] == ["kb"] and out["source"] == "classifier"
    assert check["decided_by"] == "check:offline_confident" and check["outcome"] == "offline"
    assert check["offline"]["confidence"] >= 0.95


async def test_a_clarification_copied_from_the_prompt_is_rejected(make_loaded: Any) -> None:
    """The model asks with the orchestrator prompt's own example instead of a question
    about what the user asked."""
    from finagent.prompts import load_prompt

    prompt = load_prompt("orchestrator")
    example = prompt[prompt.index("«до какого") + 1 : prompt.index("»", prompt.index("«до какого"))]
    from finagent.observability import LLM_OUTPUT_CHECKS

    counted = LLM_OUTPUT_CHECKS.labels(role="orchestrator", check="copied_clarification")
    before = counted._value.get()
    asked = said(5, confidence=0.95, clarifying_questions=[example])
    out = await route(make_loaded, "alice", "Как изменится налоговая нагрузка?", asked)
    assert out["source"] != "llm"
    assert out["debug"]["orchestrator_fallback"]["error_kind"] == "InvalidDecisionError"
    assert counted._value.get() == before + 1
