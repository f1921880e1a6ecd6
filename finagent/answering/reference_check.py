"""Every legal reference in an answer must name an ingested unit that was retrieved.

A reference is *verified* when it resolves to units of an ingested code and one of them
(or its article) is among the retrieved law sources; *quoted* when it sits inside a
sentence copied verbatim from a retrieved source (a cross-reference in the law's own
text, or a knowledge-base article's reference, attributed with its ``[n]``); anything
else is *unsupported* and is replaced by a visible marker without its numbers.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from finagent.answering.messages import REFERENCE_REMOVED
from finagent.answering.quotation import CITATION_MARK, plain, plain_sources, quoted_span
from finagent.legal.catalog import LawCatalog
from finagent.legal.references import LegalReference, find_references
from finagent.state import Chunk

_QUOTE_CHARS = '«»"“”„>'


def normalise(text: str) -> str:
    """Lower case, ё as е, citation marks, quotes and emphasis dropped, whitespace collapsed."""
    text = CITATION_MARK.sub("", text).replace("…", " ")
    text = text.translate({ord(c): " " for c in _QUOTE_CHARS})
    return plain(text)


@dataclass
class ReferenceReport:
    verified: list[str] = field(default_factory=list)
    quoted: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def as_debug(self) -> dict[str, object]:
        return {
            "verified": self.verified,
            "quoted": self.quoted,
            "removed": self.removed,
            "unsupported": len(self.removed),
        }


def retrieved_law_ids(chunks: list[Chunk]) -> set[str]:
    """Unit and article ids of the retrieved law passages."""
    ids: set[str] = set()
    for chunk in chunks:
        for key in ("unit_id", "article_id"):
            value = chunk.metadata.get(key)
            if value:
                ids.add(str(value))
    return ids


async def check_references(
    text: str,
    chunks: list[Chunk],
    catalog: LawCatalog | None,
    retrieved: set[str] | None = None,
) -> tuple[str, ReferenceReport]:
    """``text`` with unsupported references replaced, and what was found.

    Every reference of the whole text is judged, in every section. ``retrieved`` (unit and
    article ids) defaults to the law passages among ``chunks``. A marker put inside a
    quotation makes it no longer the source's text, so the check runs again on the text it
    produced until it removes nothing: what it leaves, the same check on the final text
    leaves too (:mod:`finagent.answering.quotation` is the evaluations' definition).
    """
    retrieved = retrieved_law_ids(chunks) if retrieved is None else retrieved
    sources = plain_sources(c.text for c in chunks)
    default_code = _default_code(chunks)
    removed: list[str] = []
    supported: dict[str, bool] = {}  # by label: the catalog's answer does not change
    while True:
        report = ReferenceReport()
        verdicts: dict[tuple[int, int], bool] = {}
        for ref in find_references(text):
            span = (ref.start, ref.end)
            if ref.label not in supported:
                supported[ref.label] = await _supported(ref, retrieved, catalog, default_code)
            ok = supported[ref.label]
            if ok:
                report.verified.append(ref.label)
            elif quoted_span(text, ref.start, ref.end, sources):
                report.quoted.append(ref.label)
                ok = True
            else:
                report.removed.append(ref.label)
            # a list reference ("ст. 218, 219") stands or falls as a whole
            verdicts[span] = verdicts.get(span, True) and ok
        removed += report.removed
        if all(verdicts.values()):
            report.removed = removed
            return text, report
        for (start, end), ok in sorted(verdicts.items(), reverse=True):
            if not ok:
                text = text[:start] + REFERENCE_REMOVED + text[end:]


async def _supported(
    ref: LegalReference, retrieved: set[str], catalog: LawCatalog | None, default_code: str
) -> bool:
    if catalog is None:
        return False
    resolution = await catalog.resolve(ref, default_code)
    if not resolution.ok:
        return False
    unit_ids = {u.unit_id for u in resolution.units}
    return bool((unit_ids | resolution.article_ids) & retrieved)


def _default_code(chunks: list[Chunk]) -> str:
    codes = [str(c.metadata.get("code")) for c in chunks if c.metadata.get("code")]
    return max(set(codes), key=codes.count) if codes else "nk"


def _strings(value: Any) -> Iterator[str]:
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for item in value.values():
            yield from _strings(item)
    elif isinstance(value, list):
        for item in value:
            yield from _strings(item)


async def sources_from_tool_outputs(
    outputs: list[str], catalog: LawCatalog | None
) -> tuple[list[Chunk], set[str]]:
    """Passages and law ids that tool calls returned (for the research graph's answers).

    A JSON output contributes its strings (passage texts, citations); the units whose
    citations appear in them count as retrieved.
    """
    chunks: list[Chunk] = []
    for i, output in enumerate(outputs):
        try:
            texts = list(_strings(json.loads(output)))
        except ValueError:
            texts = [output]
        chunks.extend(Chunk(id=f"tool-{i}-{j}", text=t) for j, t in enumerate(texts) if t)
    retrieved: set[str] = set()
    if catalog is not None:
        for chunk in chunks:
            for ref in find_references(chunk.text):
                resolution = await catalog.resolve(ref)
                retrieved |= {u.unit_id for u in resolution.units} | resolution.article_ids
    return chunks, retrieved
