"""The ``finagent`` command."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, TypeVar

import typer

from finagent.commands.running import fail, run_command

if TYPE_CHECKING:
    from finagent.config import Settings

T = TypeVar("T")

app = typer.Typer(
    help="finagent: Russian finance and tax answers with cited sources.",
    no_args_is_help=True,
    add_completion=False,
)
ingest_app = typer.Typer(
    help="Ingest the knowledge base, user documents or a legal code.", no_args_is_help=True
)
tools_app = typer.Typer(
    help="List and call tools exactly as the LLM sees them.", no_args_is_help=True
)
app.add_typer(ingest_app, name="ingest")
app.add_typer(tools_app, name="tools")

UserOpt = Annotated[str, typer.Option("--user", "-u", help="User id")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout")]
REPO_ROOT = Path(__file__).resolve().parents[1]


def _settings() -> Settings:
    from finagent.config import get_settings

    try:
        return get_settings()
    except Exception as exc:  # invalid environment
        fail(f"invalid settings: {exc}")


def _print_json(value: Any) -> None:
    typer.echo(json.dumps(value, ensure_ascii=False, indent=2, default=str))


def _run(factory: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a command's coroutine; an unavailable index or database is a one-line error."""
    return run_command(factory())


@app.callback()
def _main(verbose: Annotated[bool, typer.Option("--verbose", "-v")] = False) -> None:
    from finagent.observability import configure_logging

    configure_logging("INFO" if verbose else "WARNING")


# --- ingest ------------------------------------------------------------------------------
@ingest_app.command("kb")
def ingest_kb(
    paths: Annotated[list[Path], typer.Argument(help="CSV files or Markdown folders")],
    json_out: JsonOpt = False,
) -> None:
    """Ingest knowledge-base articles (CSV: id, annotation, tags, text; or Markdown files)."""
    from finagent.bootstrap import open_root
    from finagent.retrieval.kb_tree import render_tree

    settings = _settings()

    async def go() -> Any:
        async with open_root(settings) as services:
            return await services.ingestor().ingest_kb(paths)

    report = _run(go)
    rows = [vars(r) for r in report.results]
    if json_out:
        _print_json({"results": rows, "errors": len(report.errors), "removed": report.removed})
    else:
        typer.echo(f"ingested {len(report.ok)} articles, {len(report.errors)} errors")
        written = sorted({r.kb_path for r in report.ok if r.kb_path})
        if written:
            typer.echo(f"{settings.kb_root}/")
            for line in render_tree(written):
                typer.echo(line)
        for old in report.removed:
            typer.echo(f"removed (moved or old layout): {old}")
        for r in report.errors:
            typer.echo(f"Error: {r.error}", err=True)
    if report.errors and not report.ok:
        raise typer.Exit(1)


@ingest_app.command("docs")
def ingest_docs(
    files: Annotated[list[Path], typer.Argument(help=".txt, .md, .pdf, .docx")],
    user: UserOpt,
    json_out: JsonOpt = False,
) -> None:
    """Ingest a user's documents; prints the new document ids."""

    from finagent.bootstrap import open_root

    async def go() -> Any:
        async with open_root(_settings()) as services:
            return await services.ingestor().ingest_documents(user, files)

    report = _run(go)
    if json_out:
        _print_json({"results": [vars(r) for r in report.results]})
    else:
        for r in report.results:
            if r.status == "error":
                typer.echo(f"Error: {r.error}", err=True)
            else:
                typer.echo(f"{r.document_id}\t{r.status}\t{r.path}")
    if report.errors and not report.ok:
        raise typer.Exit(1)


# --- ask / route / search ------------------------------------------------------------------
@app.command()
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
            _run(
                lambda: stream_answer(
                    _settings(), renderer, user=user, query=query, chat_id=chat, document_ids=doc
                )
            )
        except InvalidRequestError as exc:
            fail(str(exc))
        return

    async def go() -> Any:
        agent = await Agent.create(_settings())
        try:
            return await agent.run(
                user_id=user, query=query, chat_id=chat, selected_document_ids=doc or None
            )
        finally:
            await agent.aclose()

    try:
        result = _run(go)
    except InvalidRequestError as exc:
        fail(str(exc))
        return
    _print_json(
        {
            "answer": result.answer,
            "scenario": result.scenario,
            "used_chunks": [c.model_dump(mode="json") for c in result.used_chunks],
            "debug": result.debug,
        }
    )


@app.command()
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
        async with open_root(_settings(), tools=False) as services:
            return await route_query(services, user, query, doc or [])

    try:
        result = _run(go)
    except ValueError as exc:
        fail(str(exc))
        return
    if json_out:
        _print_json(result)
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


@app.command()
def search(
    query: str,
    collection: Annotated[str, typer.Option(help="kb or docs")] = "kb",
    user: UserOpt = "default",
    top_k: Annotated[int, typer.Option("--top-k", min=1, max=100)] = 5,
    json_out: JsonOpt = False,
) -> None:
    """Hybrid search in the knowledge base or a user's documents."""
    from finagent.retrieval.index import SearchFilter

    if collection not in ("kb", "docs"):
        fail("--collection must be kb or docs")
    if not query.strip():
        fail("empty query")

    from finagent.bootstrap import open_root

    async def go() -> Any:
        async with open_root(_settings()) as services:
            flt = SearchFilter(user_id=user, source="user_docs") if collection == "docs" else None
            return await services.retriever.search(collection, query, flt=flt, top_k=top_k)

    hits = _run(go)
    rows = []
    for c in hits:
        row = {
            "id": c.id,
            "score": c.score,
            "text": c.text,
            "title": c.title,
            "document_id": c.document_id,
            "source": c.source,
            "metadata": c.metadata,
        }
        for key in ("unit_id", "citation"):
            if key in c.metadata:
                row[key] = c.metadata[key]
        rows.append(row)
    if json_out:
        _print_json({"query": query, "collection": collection, "hits": rows})
    else:
        for i, row in enumerate(rows, 1):
            typer.echo(f"{i}. [{row['score']:.4f}] {row['title']}: {row['text'][:160]!r}")


# --- tools -------------------------------------------------------------------------------
@tools_app.command("list")
def tools_list(json_out: JsonOpt = False) -> None:
    """List registered tools with their descriptions."""
    from finagent.bootstrap import open_root
    from finagent.commands.display import first_paragraph

    async def go() -> Any:
        async with open_root(_settings(), llm=None) as services:
            if json_out:
                return services.registry.openai_schemas()
            return [(tool.name, tool.description) for tool in services.registry]

    listed = _run(go)
    if json_out:
        _print_json(listed)
    else:
        for name, description in listed:
            typer.echo(f"{name}: {first_paragraph(description)}")


@tools_app.command("call")
def tools_call(
    name: str,
    args: Annotated[str, typer.Option("--args", help="JSON object of arguments")] = "{}",
    user: UserOpt = "default",
) -> None:
    """Call a tool and print its output exactly as the LLM would see it."""
    from finagent.tools.base import ToolContext, ToolResult

    try:
        arguments = json.loads(args)
    except json.JSONDecodeError as exc:
        fail(f"--args is not valid JSON: {exc.msg}")
        return
    if not isinstance(arguments, dict):
        fail("--args must be a JSON object")

    from finagent.bootstrap import open_root

    async def go() -> ToolResult:
        async with open_root(_settings(), llm=None) as services:
            return await services.registry.call(name, arguments, ToolContext(user_id=user))

    output = _run(go)
    typer.echo(output.text)
    if not output.ok:
        raise typer.Exit(1)


# --- demo --------------------------------------------------------------------------------
@app.command()
def demo(
    data_root: Annotated[
        Path, typer.Option(help="Folder with knowledge_base/ and sample_docs/")
    ] = REPO_ROOT,
    live: Annotated[bool, typer.Option("--live", help="Also query the Bank of Russia")] = False,
    json_out: JsonOpt = False,
) -> None:
    """Ingest the bundled knowledge base and sample documents, then answer sample questions."""
    from finagent.demo import run_demo

    result = _run(lambda: run_demo(_settings(), data_root, echo=not json_out, live=live))
    if json_out:
        _print_json(result)


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port", min=1, max=65535)] = 8000,
) -> None:
    """Run the self-hosted HTTP service (FastAPI; users from FINAGENT_API_TOKENS)."""
    import uvicorn

    from finagent.server.app import create_app

    settings = _settings()
    try:
        if not settings.token_users():
            fail("set FINAGENT_API_TOKENS ('token:user,...') before serving")
    except ValueError as exc:
        fail(str(exc))
    uvicorn.run(create_app(settings), host=host, port=port, log_level="warning")


def _mount_commands() -> None:
    """Commands that live in finagent/commands/ (one module per area)."""
    from finagent.commands.embeddings import app as embeddings_app
    from finagent.commands.eval import app as eval_app
    from finagent.commands.law import law
    from finagent.commands.mcp import mcp
    from finagent.commands.research import research

    ingest_app.command("law")(law)
    app.command("research")(research)
    app.command("mcp")(mcp)
    app.add_typer(eval_app, name="eval")
    app.add_typer(embeddings_app, name="embeddings")


_mount_commands()


def main() -> None:
    try:
        app()
    except KeyboardInterrupt:
        sys.exit(130)


if __name__ == "__main__":
    main()
