"""``finagent ask "..."``: answer a question, streamed to the terminal or as one JSON."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from finagent.commands.common import VERBOSE, JsonOpt, UserOpt, load_settings, print_json, run
from finagent.commands.hints import empty_index_hint
from finagent.commands.running import fail


def ask(
    query: str,
    user: UserOpt = "default",
    doc: Annotated[list[str] | None, typer.Option("--doc", help="Selected document id")] = None,
    chat: Annotated[str | None, typer.Option("--chat", help="Chat id for history")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Answer a question (streamed: the answer on stdout; progress on stderr on a terminal
    or with -v)."""
    from finagent.input_checks import InvalidRequestError, checked_query

    settings = load_settings()
    try:  # before anything heavy loads: a bad question is refused at once
        checked_query(query, settings.max_query_chars)
    except InvalidRequestError as exc:
        fail(str(exc))
    from finagent.graph.agent import Agent

    if not json_out:
        from finagent.commands.stream_render import TerminalRenderer, stream_answer

        progress = VERBOSE["on"] or sys.stderr.isatty()
        renderer = TerminalRenderer(sys.stdout, sys.stderr, progress=progress)
        try:
            run(
                lambda: stream_answer(
                    settings,
                    renderer,
                    user=user,
                    query=query,
                    chat_id=chat,
                    document_ids=doc,
                )
            )
        except InvalidRequestError as exc:
            fail(str(exc))
        return

    async def go() -> Any:
        agent = await Agent.create(settings, defer_tools=True)  # most questions call none
        try:
            hint = await empty_index_hint(agent.deps, user)
            if hint:
                typer.echo(hint, err=True)
            return await agent.run(
                user_id=user, query=query, chat_id=chat, selected_document_ids=doc or None
            )
        finally:
            await agent.aclose()

    try:
        result = run(go)
    except InvalidRequestError as exc:
        fail(str(exc))
        return
    print_json(
        {
            "answer": result.answer,
            "scenario": result.scenario,
            "used_chunks": [c.model_dump(mode="json") for c in result.used_chunks],
            "debug": result.debug,
        }
    )
