"""Ingestion: the knowledge base (CSV or Markdown folder) and user documents.

Articles are read by :mod:`~finagent.retrieval.kb_articles`.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

from finagent.cards.build import build_card
from finagent.cards.sentence_vectors import SentenceVectors, embed_sentences, vectored_sentences
from finagent.observability import get_logger
from finagent.retrieval.chunking import MarkdownChunker, TextChunk, chunks_at_least
from finagent.retrieval.fairness import background_embedding
from finagent.retrieval.index import SearchFilter
from finagent.retrieval.kb_articles import (
    KbArticle,
    _slug,
    article_from_markdown,
    front_matter,
    read_article_id,
    read_kb_csv,
    slugify,
)
from finagent.retrieval.loaders import DocumentLoadError, load_text, title_of
from finagent.retrieval.parse_pool import parse_document
from finagent.retrieval.progress import chunk_progress, set_stage
from finagent.retrieval.retriever import DOCS, KB, ChunkRecord, Retriever
from finagent.storage.documents import DocumentStore, document_id_for
from finagent.storage.sentence_profiles import Profiler, ProfileRecord

log = get_logger("finagent.ingest")

TOO_MANY_CHUNKS = (
    "{name}: документ слишком большой: {chunks} фрагментов, допустимо не больше {limit}; "
    "разделите файл на части"
)
AT_LEAST = "не меньше {chunks}"
TOO_SLOW = (
    "{name}: документ обрабатывался слишком долго (дольше {limit:g} с) и не добавлен; "
    "разделите файл на части"
)


@dataclass
class FileResult:
    path: str
    document_id: str | None = None
    title: str | None = None
    chunks: int = 0
    status: str = "ingested"  # ingested | unchanged | error
    error: str | None = None
    kb_path: str | None = None  # KB articles: the Markdown file written, relative to the root


@dataclass
class IngestReport:
    results: list[FileResult] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    """KB files removed because their article moved (title changed) or left the flat layout."""

    @property
    def errors(self) -> list[FileResult]:
        return [r for r in self.results if r.status == "error"]

    @property
    def ok(self) -> list[FileResult]:
        return [r for r in self.results if r.status != "error"]


class Ingestor:
    """Turns files into stored documents, Markdown KB files and indexed chunks."""

    def __init__(
        self,
        retriever: Retriever,
        documents: DocumentStore | None,
        kb_root: Path,
        sentences: Callable[[str], list[str]] | None = None,
        profiler: Profiler | None = None,
    ):
        """``sentences``: the splitter whose sentences of a user document are embedded
        beside its card (the answer's, given by the app); None embeds none. ``profiler``
        makes the profiles of those sentences, stored beside them; None stores none."""
        settings = retriever.settings
        self._sentences = sentences
        self._profiler = profiler
        self._retriever = retriever
        self._documents = documents
        self._kb_root = kb_root
        self._max_bytes = settings.max_file_bytes
        self._max_chars = settings.max_document_chars
        self._max_chunks = settings.max_document_chunks
        self._timeout_s = settings.ingest_timeout_s
        self._chunk_size = settings.chunk_size
        self._chunker = MarkdownChunker(settings.chunk_size, settings.chunk_overlap)

    # --- knowledge base -----------------------------------------------------------------
    async def ingest_kb(self, paths: list[Path]) -> IngestReport:
        """Index KB articles and write each as ``<topic folder>/<title slug>.md``.

        The topic folder is the first CSV tag, or the sub-folder of a Markdown file inside
        the folder given on the command line. Each file starts with a front-matter block
        holding the article id; a file of the same id elsewhere (older title, flat layout)
        is removed, so re-ingesting never leaves duplicates.
        """
        report = IngestReport()
        files = self._expand_kb(paths)
        known = await asyncio.to_thread(self._known_ids)
        with chunk_progress("knowledge base"):
            for path, base in files:
                try:
                    if path.suffix.lower() == ".csv":
                        articles = await asyncio.to_thread(read_kb_csv, path)
                    else:
                        articles = [await asyncio.to_thread(self._markdown_article, path, base)]
                    # one add per file: full embedding batches (a CSV holds every article)
                    records: list[ChunkRecord] = []
                    for article in articles:
                        result, article_records = await self._prepare_article(
                            article, path, known, report
                        )
                        report.results.append(result)
                        records.extend(article_records)
                    await self._retriever.add(KB, records)
                except DocumentLoadError as exc:
                    report.results.append(FileResult(str(path), status="error", error=str(exc)))
        return report

    def _markdown_article(self, path: Path, base: Path | None) -> KbArticle:
        text = load_text(path, self._max_bytes)  # called in a worker thread
        return article_from_markdown(text, path, base)

    def _known_ids(self) -> dict[str, list[Path]]:
        """Article id -> KB files that hold it (front matter), over the whole KB tree."""
        known: dict[str, list[Path]] = {}
        if not self._kb_root.is_dir():
            return known
        for folder, dirs, names in os.walk(self._kb_root):  # does not follow symlinks
            dirs[:] = [d for d in dirs if not d.startswith(".")]
            for name in names:
                path = Path(folder) / name
                if name.endswith(".md") and not name.startswith(".") and not path.is_symlink():
                    article_id = read_article_id(path)
                    if article_id is not None:
                        known.setdefault(article_id, []).append(path)
        return known

    def _target(self, article: KbArticle) -> Path:
        """Where the article's file goes: stable for the same id and title."""
        folder = article.folder
        if folder is None:
            folder = slugify(article.tags[0], 60) if article.tags else ""
        directory = self._kb_root.joinpath(*folder.split("/")) if folder else self._kb_root
        name = slugify(article.title)
        target = directory / f"{name}.md"
        if target.exists() and read_article_id(target) != article.article_id:
            # another article (or a file not written by ingestion) owns this name
            target = directory / f"{name}-{slugify(article.article_id, 40)}.md"
        return target

    def _write_article(
        self, article: KbArticle, body: str, known: dict[str, list[Path]], report: IngestReport
    ) -> Path:
        """Write the article's file and remove its older copies; runs in a worker thread."""
        target = self._target(article)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(front_matter(article) + body + "\n", encoding="utf-8")
        stale = [p for p in known.get(article.article_id, []) if p != target]
        legacy = self._kb_root / f"{_slug(article.article_id, 20)}-{_slug(article.title)}.md"
        if legacy != target and legacy.is_file() and not legacy.is_symlink():
            if read_article_id(legacy) is None:  # a file of the flat layout (no front matter)
                stale.append(legacy)
        for old in stale:
            try:
                old.unlink()
            except FileNotFoundError:
                continue
            report.removed.append(old.relative_to(self._kb_root).as_posix())
            self._prune_empty(old.parent)
        known[article.article_id] = [target]
        return target

    def _prune_empty(self, folder: Path) -> None:
        while folder != self._kb_root and folder.is_relative_to(self._kb_root):
            try:
                folder.rmdir()  # only succeeds when empty
            except OSError:
                return
            folder = folder.parent

    async def _prepare_article(
        self,
        article: KbArticle,
        origin: Path,
        known: dict[str, list[Path]],
        report: IngestReport,
    ) -> tuple[FileResult, list[ChunkRecord]]:
        """Write the article's Markdown file, drop its old chunks, return its new ones."""
        doc_id = f"kb-{article.article_id}"
        body = article.text
        if not body.lstrip().startswith("#"):
            body = f"# {article.title}\n\n{body}"
        md_path = await asyncio.to_thread(self._write_article, article, body, known, report)
        relative = md_path.relative_to(self._kb_root).as_posix()
        records = await asyncio.to_thread(
            self._records,
            doc_id,
            body,
            article.title,
            {
                "source": "kb",
                "document_id": doc_id,
                "title": article.title,
                "topic": article.tags,
                "tags": article.tags,
                "reviewed_at": article.reviewed_at,
                "applies_from": article.applies_from,
                "ingested_at": datetime.now(UTC).date().isoformat(),
                "path": relative,
            },
        )
        await self._retriever.remove(KB, SearchFilter(document_ids=[doc_id], source="kb"))
        result = FileResult(str(origin), doc_id, article.title, len(records), kb_path=relative)
        return result, records

    # --- user documents --------------------------------------------------------------------
    async def ingest_documents(self, user_id: str, paths: list[Path]) -> IngestReport:
        if self._documents is None:
            raise RuntimeError("document store is not configured")
        report = IngestReport()
        with chunk_progress("documents"):
            for path in paths:
                try:
                    report.results.append(await self._ingest_document(user_id, path))
                except DocumentLoadError as exc:
                    # reported once; the parser's own words (detail) go to the log only
                    log.info(
                        "ingest_file_failed", path=path.name, error=str(exc), detail=exc.detail
                    )
                    report.results.append(FileResult(str(path), status="error", error=str(exc)))
        return report

    async def _ingest_document(self, user_id: str, path: Path) -> FileResult:
        """Index one file within the time budget; on any failure or cancellation nothing
        of it stays (a document is either fully indexed or not there)."""
        try:
            async with asyncio.timeout(self._timeout_s) as budget:
                return await self._index_document(user_id, path)
        except TimeoutError:
            if not budget.expired():
                raise
            log.info("ingest_timed_out", path=path.name, limit_s=self._timeout_s)
            raise DocumentLoadError(
                TOO_SLOW.format(name=path.name, limit=self._timeout_s)
            ) from None

    async def _index_document(self, user_id: str, path: Path) -> FileResult:
        assert self._documents is not None
        # PDF/DOCX parsing runs in the bounded worker pool (time, memory and text limits)
        set_stage("parsing")
        text = await parse_document(path, self._retriever.settings)
        doc_id = document_id_for(user_id, text)
        title = title_of(text, path.stem)
        self._refuse_clearly_too_large(path.name, text)  # before the card and any split
        set_stage("card")
        card = None
        # the card is rebuilt on every ingestion, so a newer card builder refreshes it
        try:
            card = await asyncio.to_thread(build_card, doc_id, title, text)
        except Exception as exc:  # a card is an aid: its failure never fails the upload
            log.warning("card_failed", document_id=doc_id, error=type(exc).__name__)
        else:
            title = card.title  # the document's own heading or type, never a letterhead
        set_stage("chunking")
        chunks = await asyncio.to_thread(self._split_within_budget, path.name, text, title)
        existing = await self._documents.get(user_id, doc_id)
        flt = SearchFilter(user_id=user_id, document_ids=[doc_id])
        if existing is not None:
            if existing.title != title:  # stored under an older title: the chunks carry it too
                await self._documents.retitle(user_id, doc_id, title)
                await self._retriever.remove(DOCS, flt)
            already = await self._retriever.index.count(self._retriever.collection(DOCS), flt)
            if already >= len(chunks):
                if card is not None:
                    await self._documents.cards.put(user_id, card)
                stored = await self._documents.sentence_vectors.get(user_id, doc_id)
                if stored is None or not await self._vectors_current(stored, text):
                    vectors = await self._sentence_vectors(doc_id, text)
                    if vectors is not None:
                        await self._documents.sentence_vectors.put(user_id, vectors)
                if self._profiler is not None:  # made by older code: made again
                    kept = await self._documents.sentence_profiles.get(user_id, doc_id)
                    current = kept is not None and await asyncio.to_thread(
                        self._profiler.current, kept
                    )
                    if not current:
                        profiles = await self._sentence_profiles(doc_id, text)
                        if profiles is not None:
                            await self._documents.sentence_profiles.put(user_id, profiles)
                return FileResult(str(path), doc_id, title, already, status="unchanged")
        payload: dict[str, object] = {
            "source": "user_docs",
            "user_id": user_id,
            "document_id": doc_id,
            "title": title,
            "filename": path.name,
        }
        records = [
            ChunkRecord(f"{doc_id}:{c.index}", c.text, {**payload, "section": c.section})
            for c in chunks
        ]
        try:
            await self._retriever.add(DOCS, records)
            vectors = await self._sentence_vectors(doc_id, text)
            profiles = await self._sentence_profiles(doc_id, text)
            # stored once its chunks are indexed: the list never shows a half document
            await self._documents.put(user_id, title, path.name, text)
            if card is not None:
                await self._documents.cards.put(user_id, card)
            if vectors is not None:
                await self._documents.sentence_vectors.put(user_id, vectors)
            if profiles is not None:
                await self._documents.sentence_profiles.put(user_id, profiles)
        except BaseException:
            await asyncio.shield(self._discard(user_id, doc_id))
            raise
        return FileResult(str(path), doc_id, title, len(records))

    async def _vectors_current(self, stored: SentenceVectors, text: str) -> bool:
        """Made by this model, over the sentences today's splitter reads (a newer splitter
        reads other sentences: their vectors are made again)."""
        if not stored.usable(self._retriever.embedder.model_id):
            return False
        if self._sentences is None:
            return True
        now = await asyncio.to_thread(vectored_sentences, text, self._sentences)
        return stored.sentences == now

    async def _sentence_vectors(self, doc_id: str, text: str) -> SentenceVectors | None:
        """The document's sentences embedded in the ingestion lane (after any waiting
        question, like its chunks); the progress bar shows the stage ``sentences``."""
        if self._sentences is None:
            return None
        embedder = self._retriever.embedder
        set_stage("sentences")
        token = background_embedding.set(True)
        try:
            return await embed_sentences(
                doc_id,
                text,
                embedder.model_id,
                embedder.embed_passages,
                self._sentences,
                self._retriever.settings.ingest_batch_size,
            )
        finally:
            background_embedding.reset(token)

    async def _sentence_profiles(self, doc_id: str, text: str) -> ProfileRecord | None:
        """The profiles of the document's sentences (lemmas and values), made off the
        event loop; the progress bar shows the stage ``profiles``."""
        if self._profiler is None:
            return None
        set_stage("profiles")
        return await asyncio.to_thread(self._profiler.record, doc_id, text)

    def _split_within_budget(self, name: str, text: str, title: str) -> list[TextChunk]:
        """The document's chunks, or DocumentLoadError over the chunk budget (before any
        embedding; a clearly too large text is refused without being split)."""
        self._refuse_clearly_too_large(name, text)
        chunks = self._chunker.split(text, title)
        if len(chunks) > self._max_chunks:
            raise DocumentLoadError(
                TOO_MANY_CHUNKS.format(name=name, chunks=len(chunks), limit=self._max_chunks)
            )
        return chunks

    def _refuse_clearly_too_large(self, name: str, text: str) -> None:
        """DocumentLoadError when even a lower bound of the text's chunks is over the budget
        (cheap: the text is not split)."""
        at_least = chunks_at_least(text, self._chunk_size)
        if at_least > self._max_chunks:
            count = AT_LEAST.format(chunks=at_least)
            raise DocumentLoadError(
                TOO_MANY_CHUNKS.format(name=name, chunks=count, limit=self._max_chunks)
            )

    async def _discard(self, user_id: str, doc_id: str) -> None:
        """Remove what an interrupted ingestion stored: its chunks and the document (if it
        was there before, it was only partly indexed)."""
        assert self._documents is not None
        await self._retriever.remove(
            DOCS, SearchFilter(user_id=user_id, document_ids=[doc_id], source="user_docs")
        )
        await self._documents.delete(user_id, doc_id)
        log.info("ingest_discarded", document_id=doc_id)

    def _records(
        self, doc_id: str, text: str, title: str, payload: dict[str, object]
    ) -> list[ChunkRecord]:
        """Chunks of one document, ids ``{doc_id}:{n}``, each with its section path."""
        return [
            ChunkRecord(
                chunk_id=f"{doc_id}:{chunk.index}",
                text=chunk.text,
                payload={**payload, "section": chunk.section},
            )
            for chunk in self._chunker.split(text, title)
        ]

    @staticmethod
    def _expand_kb(paths: list[Path]) -> list[tuple[Path, Path | None]]:
        """KB source files, each with the folder it was found in (None: given directly)."""
        files: list[tuple[Path, Path | None]] = []
        for path in paths:
            if path.is_dir():
                found = sorted(
                    p
                    for p in path.rglob("*")
                    if p.suffix.lower() in (".csv", ".md")
                    and not any(part.startswith(".") for part in p.relative_to(path).parts)
                )
                files.extend((p, path) for p in found)
            else:
                files.append((path, None))
        return files
