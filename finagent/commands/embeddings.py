"""``finagent embeddings rebuild``: regenerate the embeddings shipped for the bundled data."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

app = typer.Typer(
    help="Embeddings shipped with the package.", no_args_is_help=True, rich_markup_mode=None
)


@app.command("rebuild")
def rebuild(
    data_root: Annotated[
        Path,
        typer.Option(help="Folder with knowledge_base/ and sample_docs/ (the repository)"),
    ] = Path("."),
    out: Annotated[Path | None, typer.Option(help="Output file (default: the shipped one)")] = None,
    seed: Annotated[
        bool,
        typer.Option(
            "--seed/--cold", help="Reuse vectors in the data dir's embedding cache (same model)"
        ),
    ] = True,
) -> None:
    """Run the demo offline on fresh data dirs (without and with the Tax Code, when it is
    found) and write every vector embedded on the way to finagent/data/embeddings.npz, and
    the candidate sentences of every Tax Code and knowledge-base passage to
    sentence_embeddings.npz beside it."""
    from finagent.config import get_settings
    from finagent.retrieval import shipped
    from finagent.retrieval.embedding_cache import cache_path
    from finagent.shipped_build import rebuild as run_rebuild

    settings = get_settings()
    seed_cache = cache_path(settings.data_dir) if seed else None
    report = run_rebuild(settings, data_root, out or shipped.SHIPPED_PATH, seed_cache)
    tax_code = "included" if report.with_tax_code else "absent"
    typer.echo(
        f"{report.path}: {report.vectors} vectors ({report.queries} questions), "
        f"{report.bytes / 1e6:.2f} MB, Tax Code {tax_code}; "
        f"int8 recall@10 {report.recall_at_10:.4f}, max cosine error {report.max_cosine_error:.5f}"
    )
    typer.echo(
        f"{shipped.SENTENCES_PATH.name}: {report.sentences} passage sentences "
        f"(Tax Code and knowledge base), {report.sentence_bytes / 1e6:.2f} MB"
    )
