"""``finagent tools list|call``: the tools exactly as the LLM sees them."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated, Any

import typer

from finagent.commands.common import JsonOpt, UserOpt, load_settings, print_json, run
from finagent.commands.running import fail

if TYPE_CHECKING:
    from finagent.tools.base import ToolResult

app = typer.Typer(
    help="List and call tools exactly as the LLM sees them.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@app.command("list")
def tools_list(json_out: JsonOpt = False) -> None:
    """List registered tools with their descriptions."""
    from finagent.bootstrap import open_root
    from finagent.commands.display import first_paragraph

    async def go() -> Any:
        async with open_root(load_settings(), llm=None) as services:
            if json_out:
                return services.registry.openai_schemas()
            return [(tool.name, tool.description) for tool in services.registry]

    listed = run(go)
    if json_out:
        print_json(listed)
    else:
        for name, description in listed:
            typer.echo(f"{name}: {first_paragraph(description)}")


@app.command("call")
def tools_call(
    name: str,
    args: Annotated[str, typer.Option("--args", help="JSON object of arguments")] = "{}",
    user: UserOpt = "default",
) -> None:
    """Call a tool and print its output exactly as the LLM would see it."""
    from finagent.bootstrap import open_root
    from finagent.tools.base import ToolContext

    try:
        arguments = json.loads(args)
    except json.JSONDecodeError as exc:
        fail(f'--args — не JSON ({exc.msg}); пример: --args \'{{"text": "..."}}\'')
        return
    if not isinstance(arguments, dict):
        fail("--args должен быть JSON-объектом, например '{}'")

    async def go() -> ToolResult:
        async with open_root(load_settings(), llm=None) as services:
            return await services.registry.call(name, arguments, ToolContext(user_id=user))

    output = run(go)
    typer.echo(output.text)
    if not output.ok:
        raise typer.Exit(1)
