"""``finagent ingest law PATH --code nk --part N``: index a code's text into the KB."""

from __future__ import annotations

import json
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from finagent.commands.running import fail, run_command

if TYPE_CHECKING:
    from finagent.retrieval.law_ingest import LawIngestReport


async def ingest_law(
    path: Path, code: str, part: int | None, edition: str | None = None
) -> LawIngestReport:
    return (await ingest_laws([(path, code, part)], edition))[0]


async def ingest_laws(
    sources: list[tuple[Path, str, int | None]], edition: str | None = None
) -> list[LawIngestReport]:
    """Ingest each ``(path, code, part)`` through one index and embedder."""
    from finagent.config import get_settings
    from finagent.retrieval.embedding_cache import build_cached_embedder
    from finagent.retrieval.factory import build_index
    from finagent.retrieval.law_ingest import LawIngestor
    from finagent.retrieval.sparse import RussianBm25

    settings = get_settings()
    index = build_index(settings)
    try:
        ingestor = LawIngestor(index, build_cached_embedder(settings), RussianBm25(), settings)
        return [
            await ingestor.ingest_file(path, code=code, part=part, edition=edition)
            for path, code, part in sources
        ]
    finally:
        await index.close()


def resolve_sources(source: str, code: str, part: int | None) -> list[tuple[Path, str, int | None]]:
    """A file path, or the name ``nk``: both parts of the Tax Code, found by
    :func:`finagent.retrieval.taxcode_source.find_tax_code`."""
    from finagent.retrieval.taxcode_source import CODE, TaxCodeNotFoundError, find_tax_code

    path = Path(source)
    if path.is_file():
        return [(path, code, part)]
    if source.lower() == CODE:
        from finagent.config import get_settings

        try:
            texts = find_tax_code(get_settings().taxcode_dir)
        except TaxCodeNotFoundError as exc:
            fail(str(exc))
        return [(t.path, t.code, t.part) for t in texts if part in (None, t.part)]
    if path.exists():
        fail(f"{source} — не файл (нужен UTF-8 текст кодекса)")
    fail(f"{source}: нет такого файла; по имени загружается только nk (Налоговый кодекс)")


def law(
    source: Annotated[
        str,
        typer.Argument(
            help="'nk' for both parts of the Tax Code (found via FINAGENT_TAXCODE_DIR, "
            "../shared/data/tax-code or ./tax-code), or the path of a code's UTF-8 text",
            metavar="nk|PATH",
        ),
    ],
    code: Annotated[str, typer.Option(help="Code id of a PATH: nk, gk, tk, bk, koap")] = "nk",
    part: Annotated[
        int | None, typer.Option(help="Part of the code (1, 2, ...); with nk: only this part")
    ] = None,
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
    sources = resolve_sources(source, code.lower(), part)
    reports = run_command(ingest_laws(sources, edition_iso))
    for report in reports:
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
            continue
        typer.echo(
            f"{report.code}{report.part or ''}: {report.articles} articles, "
            f"{report.units} units, {report.chunks} chunks in {report.seconds:.1f} s "
            f"({report.chunks_per_second:.1f} chunks/s) -> {report.collection}"
        )
