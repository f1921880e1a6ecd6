"""``finagent route "..."``: how a question would be routed, without answering it."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from finagent.commands.common import JsonOpt, UserOpt, load_settings, print_json, run
from finagent.commands.running import fail


def route(
    query: str,
    user: UserOpt = "default",
    doc: Annotated[list[str] | None, typer.Option("--doc")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Show how a question would be routed (scenario, intents, confidence, source)."""
    from finagent.bootstrap import open_root
    from finagent.routing.service import route_query

    async def go() -> Any:
        async with open_root(load_settings(), tools=False) as services:
            return await route_query(services, user, query, doc or [])

    try:
        result = run(go)
    except ValueError as exc:
        fail(str(exc))
        return
    if json_out:
        print_json(result)
    else:
        intents = ", ".join(result["intents"]) or "-"
        typer.echo(
            f"S{result['scenario']} {intents} "
            f"({result['source']}, {result['confidence']:.2f}): {result['reason']}"
        )
        if result.get("rule"):
            typer.echo(f"  rule: {result['rule']}")
        if result.get("classifier"):
            clf = result["classifier"]
            top = sorted(clf["scores"].items(), key=lambda kv: kv[1], reverse=True)[:3]
            typer.echo("  classifier: " + ", ".join(f"{k} {v:.2f}" for k, v in top))
            for n in clf["nearest"]:
                typer.echo(f"    {n['label']:9} {n['similarity']:.2f}  {n['text']}")
