"""MCP in both directions: tools of configured MCP servers (client) and finagent's own
tools served over MCP (server)."""
