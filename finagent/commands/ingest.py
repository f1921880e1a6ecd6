"""``finagent ingest kb|docs|law``: the knowledge base, a user's documents, a legal code."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer

from finagent.commands.common import JsonOpt, UserOpt, load_settings, print_json, run
from finagent.commands.law import law

app = typer.Typer(
    help="Ingest the knowledge base, user documents or a legal code.",
    no_args_is_help=True,
    rich_markup_mode=None,
)


@app.command("kb")
def ingest_kb(
    paths: Annotated[list[Path], typer.Argument(help="CSV files or Markdown folders")],
    json_out: JsonOpt = False,
) -> None:
    """Ingest knowledge-base articles (CSV: id, annotation, tags, text; or Markdown files)."""
    from finagent.bootstrap import open_root
    from finagent.retrieval.kb_tree import render_tree

    settings = load_settings()

    async def go() -> Any:
        async with open_root(settings) as services:
            return await services.ingestor().ingest_kb(paths)

    report = run(go)
    rows = [vars(r) for r in report.results]
    if json_out:
        print_json({"results": rows, "errors": len(report.errors), "removed": report.removed})
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
            typer.echo(f"Ошибка: {r.error}", err=True)
    if report.errors and not report.ok:
        raise typer.Exit(1)


@app.command("docs")
def ingest_docs(
    files: Annotated[list[Path], typer.Argument(help=".txt, .md, .pdf, .docx")],
    user: UserOpt,
    json_out: JsonOpt = False,
) -> None:
    """Ingest a user's documents; prints the new document ids."""
    from finagent.bootstrap import open_root

    async def go() -> Any:
        async with open_root(load_settings()) as services:
            return await services.ingestor().ingest_documents(user, files)

    report = run(go)
    if json_out:
        print_json({"results": [vars(r) for r in report.results]})
    else:
        for r in report.results:
            if r.status == "error":
                typer.echo(f"Ошибка: {r.error}", err=True)
            else:
                typer.echo(f"{r.document_id}\t{r.status}\t{r.path}")
    if report.errors and not report.ok:
        raise typer.Exit(1)


app.command("law")(law)
