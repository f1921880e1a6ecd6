"""Graphs for the LangGraph API / Studio (langgraph.json).

langgraph-api imports this module once, in a worker thread, so building the services
here keeps blocking start-up work (settings, model files) off the server's event loop.
Import it only from the LangGraph server: importing it builds the services.
"""

from __future__ import annotations

from finagent.graph.agent import build_agent_graph
from finagent.graph.research import make_research_graph
from finagent.services import get_services

agent = build_agent_graph(get_services())
research = make_research_graph()
