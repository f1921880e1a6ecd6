"""Graphs for the LangGraph API / Studio (langgraph.json).

langgraph-api imports this module once, in a worker thread, so building the services
here keeps blocking start-up work (settings, model files) off the server's event loop.
Import it only from the LangGraph server: importing it builds the services.
The agent graph gets the answer budget (``ANSWER_BUDGET_S``) per run, as ``Agent.run`` has.
"""

from __future__ import annotations

from finagent.graph.agent import build_agent_graph
from finagent.graph.api_graph import for_langgraph_api
from finagent.graph.research import make_research_graph
from finagent.services import get_services

_services = get_services()
agent = for_langgraph_api(build_agent_graph(_services), _services.settings.answer_budget_s)
research = make_research_graph()
