"""The answer's tool table: which registered tools each scenario and intent may call."""

from __future__ import annotations

from finagent.state import Decision, Scenario
from finagent.tools.scopes import KB_TOOLS, NEWS_TOOLS, RATES_TOOLS, scoped_tool_names

EVERY = [
    "search_user_documents",
    "load_documents_full",
    *KB_TOOLS,
    *RATES_TOOLS,
    *NEWS_TOOLS,
]


def names(scenario: Scenario, *intents: str, available: list[str] = EVERY) -> list[str]:
    decision = Decision(scenario=scenario, intents=list(intents))  # type: ignore[arg-type]
    return scoped_tool_names(decision, available)


def test_full_documents_and_clarify_bind_nothing() -> None:
    assert names(Scenario.FULL_DOCUMENTS) == []
    assert names(Scenario.CLARIFY) == []
    assert names(Scenario.ROUTED, "smalltalk") == []


def test_document_scenarios_bind_document_tools() -> None:
    assert names(Scenario.ALL_DOCUMENTS) == ["search_user_documents", "load_documents_full"]
    assert names(Scenario.SELECTED_SEARCH) == ["search_user_documents"]


def test_intents_bind_their_rows_and_unions() -> None:
    assert names(Scenario.ROUTED, "rates") == list(RATES_TOOLS)
    assert names(Scenario.ROUTED, "news") == ["fetch_finance_news"]
    assert "resolve_legal_reference" in names(Scenario.ROUTED, "kb")
    assert names(Scenario.ROUTED, "rates", "news") == [*RATES_TOOLS, "fetch_finance_news"]
    assert names(Scenario.ROUTED, "news", "smalltalk") == ["fetch_finance_news"]


def test_unregistered_tools_are_left_out() -> None:
    # no Bank of Russia configured: the rates answer gets no tools rather than an error
    without_cbr = [n for n in EVERY if n not in RATES_TOOLS]
    assert names(Scenario.ROUTED, "rates", available=without_cbr) == []


def test_extra_tools_join_where_searching_tools_are_offered() -> None:
    available = [*EVERY, "Req_Custom_Report_For_Clients"]
    assert names(Scenario.ROUTED, "kb", available=available)[-1] == "Req_Custom_Report_For_Clients"
    assert "Req_Custom_Report_For_Clients" in names(Scenario.ALL_DOCUMENTS, available=available)
    assert names(Scenario.FULL_DOCUMENTS, available=available) == []
    assert names(Scenario.SELECTED_SEARCH, available=available) == ["search_user_documents"]
    assert names(Scenario.ROUTED, "smalltalk", available=available) == []


def test_every_name_in_the_table_is_a_declared_builtin_tool() -> None:
    from finagent.tools.declared import builtin_tool_names
    from finagent.tools.scopes import KNOWN_TOOLS

    assert sorted(KNOWN_TOOLS - builtin_tool_names()) == []
