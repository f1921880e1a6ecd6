"""``finagent search "..."``: hybrid search in the knowledge base or a user's documents."""

from __future__ import annotations

from typing import Annotated, Any

import typer

from finagent.commands.common import JsonOpt, UserOpt, load_settings, print_json, run
from finagent.commands.running import fail


def search(
    query: str,
    collection: Annotated[str, typer.Option(help="kb or docs")] = "kb",
    user: UserOpt = "default",
    top_k: Annotated[int, typer.Option("--top-k", min=1, max=100)] = 5,
    json_out: JsonOpt = False,
) -> None:
    """Hybrid search in the knowledge base or a user's documents."""
    from finagent.bootstrap import open_root
    from finagent.retrieval.index import SearchFilter

    if collection not in ("kb", "docs"):
        fail("--collection: kb (база знаний) или docs (документы пользователя)")
    if not query.strip():
        fail("пустой запрос")

    async def go() -> Any:
        async with open_root(load_settings()) as services:
            flt = SearchFilter(user_id=user, source="user_docs") if collection == "docs" else None
            return await services.retriever.search(collection, query, flt=flt, top_k=top_k)

    hits = run(go)
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
        print_json({"query": query, "collection": collection, "hits": rows})
    else:
        for i, row in enumerate(rows, 1):
            typer.echo(f"{i}. [{row['score']:.4f}] {row['title']}: {row['text'][:160]!r}")
