"""The piece before a retrieved piece of a split legal unit.

A long point of the Code is indexed in pieces (``unit#0``, ``unit#1``, …) only to fit the
embedder; its text is one. A later piece often states what qualifies the rule of the piece
before it («Срок … может быть продлен до трех месяцев», «В случае, если …»), and a search
for the rule finds the qualification: the preceding piece, which states the rule, joins the
results right after the piece retrieved, with its score. The first piece of an
enumerated item («28) …») continues no text: the piece before it is another item.
"""

from __future__ import annotations

from finagent.retrieval.index import SearchFilter
from finagent.retrieval.retriever import Retriever, chunk_of_hit
from finagent.state import Chunk

# only the best law pieces are completed: a few short scrolls per question
MAX_COMPLETED = 3


def _previous_id(chunk: Chunk) -> tuple[str, str] | None:
    """The unit id and the id of the piece before ``chunk``, or None (a first piece, an
    item's first piece, not law)."""
    unit = chunk.metadata.get("unit_id")
    index = chunk.metadata.get("chunk_index")
    if chunk.source != "law" or not unit or not isinstance(index, int) or index < 1:
        return None
    if chunk.metadata.get("continues") is False:
        return None
    return str(unit), f"{unit}#{index - 1}"


async def with_preceding_pieces(
    retriever: Retriever, collection: str, chunks: list[Chunk], limit: int = MAX_COMPLETED
) -> list[Chunk]:
    """``chunks`` with the piece before each of the first ``limit`` later pieces of a unit
    (when it is not there yet), placed right after it with its score."""
    have = {c.id for c in chunks}
    wanted: dict[str, tuple[str, Chunk]] = {}
    for chunk in chunks:
        found = _previous_id(chunk)
        if found is None or found[1] in have or found[1] in wanted:
            continue
        wanted[found[1]] = (found[0], chunk)
        if len(wanted) >= limit:
            break
    if not wanted:
        return chunks
    added: dict[str, Chunk] = {}
    name = retriever.collection(collection)
    for piece_id, (unit, after) in wanted.items():
        rows = await retriever.index.scroll(name, SearchFilter(extra={"unit_id": unit}))
        row = next((r for r in rows if r.get("chunk_id") == piece_id), None)
        if row is not None:
            added[after.id] = chunk_of_hit(piece_id, after.score, row)
    out: list[Chunk] = []
    for chunk in chunks:
        out.append(chunk)
        if chunk.id in added:
            out.append(added[chunk.id])
    return out
