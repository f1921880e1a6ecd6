"""Ingest a code's text (e.g. the Tax Code) into the knowledge-base collection.

Every point becomes one or more chunks with payload ``source="law"``, ``unit_id``,
``article``, ``article_title``, ``chapter``, ``citation``, ``code``, ``part``, ``text``
and ``title``. Chunk ids are derived from unit ids, so re-ingesting the same text
upserts the same points (no duplicates); when the chunk count of a code/part changed
(a new edition), it is rewritten. The dense vector is computed from the heading plus
the beginning of the chunk (``law_dense_max_chars``), the BM25 vector from the whole
chunk plus the chapter label (title and everyday alias such as «НДС»).
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass
from pathlib import Path

from finagent.config import Settings
from finagent.observability import get_logger
from finagent.retrieval.embeddings import Embedder
from finagent.retrieval.index import IndexPoint, SearchFilter, VectorIndex
from finagent.retrieval.legal import latest_amendment, parse_code
from finagent.retrieval.legal_chunks import LegalChunk, chunk_units
from finagent.retrieval.progress import chunk_progress
from finagent.retrieval.retriever import KB
from finagent.retrieval.sparse import RussianBm25

log = get_logger("finagent.law_ingest")

LAW_SOURCE = "law"


@dataclass
class LawIngestReport:
    code: str
    part: int | None
    articles: int
    units: int
    chunks: int
    seconds: float
    collection: str
    edition: str | None = None

    @property
    def chunks_per_second(self) -> float:
        return self.chunks / self.seconds if self.seconds > 0 else 0.0


def build_law_chunks(
    text: str,
    code: str,
    part: int | None,
    chunk_size: int = 1500,
    title_prefix: bool = True,
    chapters: set[str] | None = None,
) -> list[LegalChunk]:
    """Parse and chunk a code's text (repealed units are left out; optionally some chapters)."""
    units = parse_code(text, code=code, part=part)
    if chapters is not None:
        units = [u for u in units if u.chapter in chapters]
    return chunk_units(units, max_chars=chunk_size, title_prefix=title_prefix)


def _doc_id(chunk: LegalChunk) -> str:
    return f"law-{chunk.unit.code_id}"


def dense_text(chunk: LegalChunk, max_chars: int) -> str:
    """What the dense model sees: the heading and the start of the chunk."""
    return chunk.index_text[:max_chars]


class LawIngestor:
    """Writes law chunks into a collection through the shared index and embedder."""

    def __init__(
        self,
        index: VectorIndex,
        embedder: Embedder,
        bm25: RussianBm25,
        settings: Settings,
        collection: str | None = None,
    ) -> None:
        self.index = index
        self.embedder = embedder
        self.bm25 = bm25
        self.settings = settings
        self.collection = collection or f"{settings.collection_prefix}_{KB}"

    async def ingest_text(
        self,
        text: str,
        code: str = "nk",
        part: int | None = None,
        progress: bool | None = None,
        chapters: set[str] | None = None,
        edition: str | None = None,
    ) -> LawIngestReport:
        """Index a code's text; ``edition`` (ISO date) defaults to its latest amendment."""
        started = time.perf_counter()
        edition = edition or latest_amendment(text)
        chunks = build_law_chunks(text, code, part, self.settings.law_chunk_size, chapters=chapters)
        await self.index.ensure_collection(self.collection, self.embedder.dim)
        await self._drop_stale(chunks)
        batch = max(1, self.settings.embeddings_batch_size)
        with chunk_progress(f"{code}{part or ''}", show=progress) as bar:
            bar.expect(len(chunks))
            for start in range(0, len(chunks), batch):
                part_chunks = chunks[start : start + batch]
                dense = await self.embedder.embed_passages(
                    [dense_text(c, self.settings.law_dense_max_chars) for c in part_chunks]
                )
                points = [
                    IndexPoint(
                        chunk_id=c.chunk_id,
                        dense=dense[i].tolist(),
                        sparse=self.bm25.embed_document(c.sparse_text),
                        payload={
                            **c.payload(edition),
                            "source": LAW_SOURCE,
                            "document_id": _doc_id(c),
                        },
                    )
                    for i, c in enumerate(part_chunks)
                ]
                await self.index.upsert(self.collection, points)
                bar.advance(len(part_chunks))
        seconds = time.perf_counter() - started
        report = LawIngestReport(
            code=code,
            part=part,
            articles=len({c.unit.article_id for c in chunks}),
            units=len({c.unit.unit_id for c in chunks}),
            chunks=len(chunks),
            seconds=seconds,
            collection=self.collection,
            edition=edition,
        )
        log.info(
            "law_ingested",
            code=code,
            part=part,
            chunks=report.chunks,
            seconds=round(seconds, 2),
            chunks_per_s=round(report.chunks_per_second, 2),
        )
        return report

    async def ingest_file(
        self,
        path: Path,
        code: str = "nk",
        part: int | None = None,
        progress: bool | None = None,
        chapters: set[str] | None = None,
        edition: str | None = None,
    ) -> LawIngestReport:
        text = await asyncio.to_thread(path.read_text, encoding="utf-8")
        return await self.ingest_text(text, code, part, progress, chapters, edition)

    async def _drop_stale(self, chunks: list[LegalChunk]) -> None:
        """Delete the stored code/part first when its chunk count differs from the new text.

        Unchanged text keeps the same chunk ids and count, so it is simply upserted
        in place; a new edition with a different structure is rewritten from scratch.
        """
        if not chunks:
            return
        flt = SearchFilter(source=LAW_SOURCE, document_ids=[_doc_id(chunks[0])])
        stored = await self.index.count(self.collection, flt)
        if stored and stored != len(chunks):
            log.info("law_rewrite", document_id=_doc_id(chunks[0]), stored=stored, new=len(chunks))
            await self.index.delete(self.collection, flt)
