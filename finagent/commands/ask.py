"""``finagent ask "..."``: answer a question, streamed to the terminal or as one JSON."""

from __future__ import annotations

import sys
from typing import Annotated, Any

import typer

from finagent.commands.common import JsonOpt, UserOpt, load_settings, print_json, run
from finagent.commands.running import fail


def ask(
    query: str,
    user: UserOpt = "default",
    doc: Annotated[list[str] | None, typer.Option("--doc", help="Selected document id")] = None,
    chat: Annotated[str | None, typer.Option("--chat", help="Chat id for history")] = None,
    json_out: JsonOpt = False,
) -> None:
    """Answer a question (streamed: progress on stderr, the answer on stdout)."""
    from finagent.graph.agent import Agent, InvalidRequestError

    if not json_out:
        from finagent.commands.stream_render import TerminalRenderer, stream_answer

        renderer = TerminalRenderer(sys.stdout, sys.stderr)
        try:
            run(
                lambda: stream_answer(
                    load_settings(),
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
        agent = await Agent.create(load_settings())
        try:
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
