"""MCP in both directions: tools of configured MCP servers (client) and finagent's own
tools served over MCP (server)."""

USER_ENV = "FINAGENT_MCP_USER"
"""Environment variable naming the user the MCP server acts for."""
