"""``finagent mcp``: serve finagent's tools over MCP (stdio or streamable HTTP)."""

from __future__ import annotations

from typing import Annotated

import typer

from finagent.mcp import USER_ENV

app = typer.Typer(
    help="Serve finagent's tools over MCP.", no_args_is_help=False, rich_markup_mode=None
)


@app.callback(invoke_without_command=True)
def mcp(
    transport: Annotated[
        str, typer.Option("--transport", "-t", help="stdio or http (streamable HTTP at /mcp)")
    ] = "stdio",
    host: Annotated[str, typer.Option(help="HTTP bind address")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="HTTP port")] = 8765,
    user: Annotated[
        str | None,
        typer.Option(
            envvar=USER_ENV,
            help="User every tool call acts for; ignored over HTTP with FINAGENT_API_TOKENS, "
            "where each bearer token's user is used",
        ),
    ] = None,
    tool: Annotated[
        list[str] | None, typer.Option("--tool", help="Serve only these tools (repeatable)")
    ] = None,
    insecure_no_auth: Annotated[
        bool,
        typer.Option(
            "--insecure-no-auth",
            help="Allow HTTP on a non-loopback host without FINAGENT_API_TOKENS "
            "(anyone who reaches it acts as USER)",
        ),
    ] = False,
) -> None:
    """Serve the domain tools; clients cannot choose the user.

    stdio and loopback HTTP act as USER. With FINAGENT_API_TOKENS set, HTTP requires
    'Authorization: Bearer <token>' and acts as the token's user.
    """
    from finagent.extras import require_extra

    require_extra("mcp")  # a missing one is one line (finagent/cli.py)
    from finagent.commands import gc_policy
    from finagent.mcp.server import run

    if transport not in ("stdio", "http"):
        raise typer.BadParameter("must be 'stdio' or 'http'", param_hint="--transport")
    gc_policy.settled()
    try:
        run(
            transport="http" if transport == "http" else "stdio",
            host=host,
            port=port,
            user=user,
            tools=tool,
            insecure_no_auth=insecure_no_auth,
        )
    except (KeyError, ValueError) as exc:
        typer.echo(f"error: {exc}", err=True)
        raise typer.Exit(2) from exc
