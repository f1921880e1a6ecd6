"""Serving finagent: LangGraph API authentication and a self-hosted FastAPI app."""
