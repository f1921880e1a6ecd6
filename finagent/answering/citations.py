"""The numbered sources an answer may cite, with their passages (the service's
``citations`` and the metadata of the agent's AI message)."""

from __future__ import annotations

from typing import Any

from finagent.answering.context import build_context
from finagent.state import Chunk, ExternalData


def citations(
    chunks: list[Chunk],
    external: list[ExternalData],
    max_chars: int,
    numbers: list[list[int]] | None = None,
) -> list[dict[str, Any]]:
    """The numbered sources the answer may cite ``[n]``, each with its passages.

    Numbers come from the same ``build_context`` the answer node used, renumbered as the
    answer was (``numbers``: its ``debug["source_numbers"]`` pairs ``[context, shown]``),
    so ``[n]`` in the answer is ``number`` here.
    """
    ctx = build_context(chunks, external, max_chars)
    passages: dict[int, list[dict[str, Any]]] = {}
    for chunk, number in zip(ctx.chunks, ctx.chunk_numbers, strict=True):
        passages.setdefault(number, []).append(
            {"text": chunk.text, "chunk_id": chunk.id, "document_id": chunk.document_id}
        )
    external_sources = [s for s in ctx.sources if s.number not in passages]
    for source, item in zip(external_sources, ctx.external, strict=False):
        passages[source.number] = [{"text": item.content, "chunk_id": None, "document_id": None}]
    shown = {old: new for old, new in numbers or []}
    after = max(shown.values(), default=0)
    for s in ctx.sources:  # sources the answer could not cite (another scenario's) follow
        if s.number not in shown:
            after += 1
            shown[s.number] = after
    return sorted(
        (
            {
                "number": shown[s.number],
                "title": s.title,
                "kind": s.kind,
                "reference": s.reference,
                "passages": passages.get(s.number, []),
            }
            for s in ctx.sources
        ),
        key=lambda c: c["number"],
    )
