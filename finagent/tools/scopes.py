"""Which tools the answer node offers the LLM, per scenario and intent.

Every bound tool's schema is sent with every answer request (about 2.9k prompt tokens for
all of them), so the answer node binds only the tools a scenario can use:

| scenario / intent          | tools                                                      |
|----------------------------|------------------------------------------------------------|
| S1 all user documents      | search_user_documents, load_documents_full                 |
| S2 kb                      | search_general_kb, Req_Find_Passages_For_Queries,          |
|                            | resolve_legal_reference, kb_* file tools,                  |
|                            | internal_knowledge_search                                  |
| S2 rates                   | fetch_cbr_data, Req_Compare_Rates_For_Dates,               |
|                            | Req_Calculate_Conversion_For_Amounts                       |
| S2 news                    | fetch_finance_news                                         |
| S2 calc (and with kb)      | Req_Calculate_Deadline_For_Events,                         |
|                            | Req_Calculate_Penalty_For_Payments, resolve_legal_reference|
| S2 smalltalk               | none                                                       |
| S3 selected, read whole    | none: the documents are in the context in full             |
| S4 selected, searched      | search_user_documents (within the selected documents)      |
| S5 clarify                 | none (no answer call)                                      |

Several S2 intents bind the union of their rows. Tools outside this table (added through
``services.extra_tools``) are offered wherever S1 or an S2 intent other than small talk
binds tools. ``FINAGENT_ANSWER_TOOLS=all`` binds every registered tool, as before.
"""

from __future__ import annotations

from collections.abc import Iterable

from finagent.state import Decision, Intent, Scenario
from finagent.tools.registry import ToolRegistry

USER_DOCUMENT_TOOLS = ("search_user_documents", "load_documents_full")
KB_TOOLS = (
    "search_general_kb",
    "Req_Find_Passages_For_Queries",
    "resolve_legal_reference",
    "kb_search_content",
    "kb_search_files",
    "kb_read_file",
    "kb_list_directory",
    "internal_knowledge_search",
)
RATES_TOOLS = (
    "fetch_cbr_data",
    "Req_Compare_Rates_For_Dates",
    "Req_Calculate_Conversion_For_Amounts",
)
NEWS_TOOLS = ("fetch_finance_news",)
CALC_TOOLS = (
    "Req_Calculate_Deadline_For_Events",
    "Req_Calculate_Penalty_For_Payments",
    "resolve_legal_reference",
)

SCENARIO_TOOLS: dict[Scenario, tuple[str, ...]] = {
    Scenario.ALL_DOCUMENTS: USER_DOCUMENT_TOOLS,
    Scenario.FULL_DOCUMENTS: (),
    Scenario.SELECTED_SEARCH: ("search_user_documents",),
    Scenario.CLARIFY: (),
}
INTENT_TOOLS: dict[Intent, tuple[str, ...]] = {
    "kb": (*KB_TOOLS, *CALC_TOOLS[:2]),
    "calc": CALC_TOOLS,
    "rates": RATES_TOOLS,
    "news": NEWS_TOOLS,
    "smalltalk": (),
}
#: every tool the table knows; any other registered tool is an extra
KNOWN_TOOLS = frozenset([*USER_DOCUMENT_TOOLS, *KB_TOOLS, *RATES_TOOLS, *NEWS_TOOLS, *CALC_TOOLS])


def _open_to_extras(decision: Decision) -> bool:
    if decision.scenario == Scenario.ALL_DOCUMENTS:
        return True
    return decision.scenario == Scenario.ROUTED and any(i != "smalltalk" for i in decision.intents)


def scoped_tool_names(decision: Decision, available: Iterable[str]) -> list[str]:
    """Names of the ``available`` tools the answer for ``decision`` may call, in table order
    (extras last, in registry order)."""
    available = list(available)
    if decision.scenario == Scenario.ROUTED:
        wanted = [name for intent in decision.intents for name in INTENT_TOOLS.get(intent, ())]
    else:
        wanted = list(SCENARIO_TOOLS.get(decision.scenario, ()))
    present = set(available)
    names = [name for name in dict.fromkeys(wanted) if name in present]
    if _open_to_extras(decision):
        names += [name for name in available if name not in KNOWN_TOOLS]
    return names


def answer_tools(
    registry: ToolRegistry, decision: Decision, scope: str = "scenario"
) -> ToolRegistry:
    """The registry of tools bound to the answer call (``scope`` "all" keeps every tool)."""
    if scope == "all":
        return registry
    return registry.subset(scoped_tool_names(decision, registry.names()))
