"""``finagent ingest law PATH --code nk --part N``: index a code's text into the KB."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from finagent.commands.running import run_command

if TYPE_CHECKING:
    from finagent.retrieval.law_ingest import LawIngestReport


async def ingest_law(
    path: Path, code: str, part: int | None, edition: str | None = None
) -> LawIngestReport:
    from finagent.config import get_settings
    from finagent.retrieval.embedding_cache import build_cached_embedder
    from finagent.retrieval.factory import build_index
    from finagent.retrieval.law_ingest import LawIngestor
    from finagent.retrieval.sparse import RussianBm25

    settings = get_settings()
    index = build_index(settings)
    try:
        ingestor = LawIngestor(index, build_cached_embedder(settings), RussianBm25(), settings)
        return await ingestor.ingest_file(path, code=code, part=part, edition=edition)
    finally:
        await index.close()


def law(
    path: Annotated[
        Path, typer.Argument(exists=True, dir_okay=False, help="UTF-8 text of the code")
    ],
    code: Annotated[str, typer.Option(help="Code id: nk, gk, tk, bk, koap")] = "nk",
    part: Annotated[int | None, typer.Option(help="Part of the code (1, 2, ...)")] = None,
    edition: Annotated[
        datetime | None,
        typer.Option(
            formats=["%Y-%m-%d"],
            help="Date of the edition (default: the latest amending law named in the text)",
        ),
    ] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the report as JSON")] = False,
) -> None:
    """Parse a code (chapters, articles, points) and index it into the knowledge base."""
    edition_iso = edition.date().isoformat() if edition else None
    report = run_command(ingest_law(path, code.lower(), part, edition_iso))
    data = {
        "code": report.code,
        "part": report.part,
        "articles": report.articles,
        "units": report.units,
        "chunks": report.chunks,
        "seconds": round(report.seconds, 2),
        "chunks_per_second": round(report.chunks_per_second, 2),
        "collection": report.collection,
        "edition": report.edition,
    }
    if as_json:
        typer.echo(json.dumps(data, ensure_ascii=False))
        return
    typer.echo(
        f"{report.code}{report.part or ''}: {report.articles} articles, {report.units} units, "
        f"{report.chunks} chunks in {report.seconds:.1f} s "
        f"({report.chunks_per_second:.1f} chunks/s) -> {report.collection}"
    )
