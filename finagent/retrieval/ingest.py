"""Ingestion: the knowledge base (CSV or Markdown folder) and user documents."""

from __future__ import annotations

import asyncio
import csv
import re
import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from tqdm import tqdm

from finagent.observability import get_logger
from finagent.retrieval.chunking import MarkdownChunker
from finagent.retrieval.index import SearchFilter
from finagent.retrieval.loaders import DocumentLoadError, load_text, title_of
from finagent.retrieval.retriever import DOCS, KB, ChunkRecord, Retriever
from finagent.storage.documents import DocumentStore

log = get_logger("finagent.ingest")

KB_CSV_COLUMNS = ("id", "annotation", "tags", "text")


@dataclass
class FileResult:
    path: str
    document_id: str | None = None
    title: str | None = None
    chunks: int = 0
    status: str = "ingested"  # ingested | unchanged | error
    error: str | None = None


@dataclass
class IngestReport:
    results: list[FileResult] = field(default_factory=list)

    @property
    def errors(self) -> list[FileResult]:
        return [r for r in self.results if r.status == "error"]

    @property
    def ok(self) -> list[FileResult]:
        return [r for r in self.results if r.status != "error"]


@dataclass
class KbArticle:
    article_id: str
    title: str
    tags: list[str]
    text: str
    reviewed_at: str | None  # when a person last checked the article; never the ingestion date


def _slug(text: str, limit: int = 60) -> str:
    slug = re.sub(r"[^\w]+", "-", text.lower(), flags=re.UNICODE).strip("-")
    return slug[:limit] or "article"


def _progress(items: Iterable[Path], desc: str, total: int) -> Iterable[Path]:
    return tqdm(items, desc=desc, total=total, unit="file", disable=not sys.stderr.isatty())


# "Проверено: 2025-10-01" / "reviewed: 2025-10-01" on its own line near the top of a .md file
_REVIEWED_LINE = re.compile(r"^(?:reviewed|проверено)\s*:\s*(\d{4}-\d{2}-\d{2})\s*$", re.I | re.M)


def _review_date(value: str | None) -> str | None:
    """An ISO review date, or None when absent or not a date (never a guess)."""
    value = (value or "").strip()
    try:
        return date.fromisoformat(value).isoformat() if value else None
    except ValueError:
        return None


def read_kb_csv(path: Path) -> list[KbArticle]:
    """Articles of a KB CSV (columns id, annotation, tags, text; optional ``reviewed`` date)."""
    try:
        with path.open(encoding="utf-8-sig", newline="") as handle:
            reader = csv.DictReader(handle)
            missing = [c for c in KB_CSV_COLUMNS if c not in (reader.fieldnames or [])]
            if missing:
                raise DocumentLoadError(f"{path.name}: missing CSV columns {', '.join(missing)}")
            rows = list(reader)
    except UnicodeDecodeError as exc:
        raise DocumentLoadError(f"{path.name}: the CSV is not UTF-8") from exc
    except csv.Error as exc:
        raise DocumentLoadError(f"{path.name}: malformed CSV ({exc})") from exc
    except OSError as exc:
        raise DocumentLoadError(f"{path}: cannot read ({exc.strerror})") from exc
    articles = []
    for row in rows:
        text = (row.get("text") or "").strip()
        article_id = (row.get("id") or "").strip()
        if not text or not article_id:
            continue
        tags = [t.strip() for t in (row.get("tags") or "").split(",") if t.strip()]
        title = (row.get("annotation") or "").strip() or title_of(text, article_id)
        articles.append(KbArticle(article_id, title, tags, text, _review_date(row.get("reviewed"))))
    if not articles:
        raise DocumentLoadError(f"{path.name}: no articles with id and text")
    return articles


class Ingestor:
    """Turns files into stored documents, Markdown KB files and indexed chunks."""

    def __init__(self, retriever: Retriever, documents: DocumentStore | None, kb_root: Path):
        settings = retriever.settings
        self._retriever = retriever
        self._documents = documents
        self._kb_root = kb_root
        self._max_bytes = settings.max_file_bytes
        self._max_chars = settings.max_document_chars
        self._chunker = MarkdownChunker(settings.chunk_size, settings.chunk_overlap)

    # --- knowledge base -----------------------------------------------------------------
    async def ingest_kb(self, paths: list[Path]) -> IngestReport:
        report = IngestReport()
        files = self._expand(paths, (".csv", ".md"))
        for path in _progress(files, "knowledge base", len(files)):
            try:
                if path.suffix.lower() == ".csv":
                    articles = await asyncio.to_thread(read_kb_csv, path)
                else:
                    articles = [await asyncio.to_thread(self._markdown_article, path)]
                for article in articles:
                    report.results.append(await self._index_article(article, path))
            except DocumentLoadError as exc:
                report.results.append(FileResult(str(path), status="error", error=str(exc)))
        return report

    def _markdown_article(self, path: Path) -> KbArticle:
        text = load_text(path, self._max_bytes)  # called in a worker thread
        reviewed = _REVIEWED_LINE.search(text[:2000])
        if reviewed:
            text = (text[: reviewed.start()] + text[reviewed.end() :]).strip()
        return KbArticle(
            _slug(path.stem),
            title_of(text, path.stem),
            [],
            text,
            _review_date(reviewed.group(1) if reviewed else None),
        )

    async def _index_article(self, article: KbArticle, origin: Path) -> FileResult:
        doc_id = f"kb-{article.article_id}"
        md_path = self._kb_root / f"{_slug(article.article_id, 20)}-{_slug(article.title)}.md"
        md_path.parent.mkdir(parents=True, exist_ok=True)
        body = article.text
        if not body.lstrip().startswith("#"):
            body = f"# {article.title}\n\n{body}"
        md_path.write_text(body + "\n", encoding="utf-8")
        relative = md_path.relative_to(self._kb_root).as_posix()
        records = self._records(
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
                "ingested_at": datetime.now(UTC).date().isoformat(),
                "path": relative,
            },
        )
        await self._retriever.remove(KB, SearchFilter(document_ids=[doc_id], source="kb"))
        await self._retriever.add(KB, records)
        return FileResult(str(origin), doc_id, article.title, len(records))

    # --- user documents --------------------------------------------------------------------
    async def ingest_documents(self, user_id: str, paths: list[Path]) -> IngestReport:
        if self._documents is None:
            raise RuntimeError("document store is not configured")
        report = IngestReport()
        for path in _progress(paths, "documents", len(paths)):
            try:
                report.results.append(await self._ingest_document(user_id, path))
            except DocumentLoadError as exc:
                log.warning("ingest_file_failed", path=path.name, error=str(exc))
                report.results.append(FileResult(str(path), status="error", error=str(exc)))
        return report

    async def _ingest_document(self, user_id: str, path: Path) -> FileResult:
        assert self._documents is not None
        # parsing a PDF or DOCX is CPU-bound: keep it off the event loop
        text = await asyncio.to_thread(load_text, path, self._max_bytes)
        if len(text) > self._max_chars:
            raise DocumentLoadError(
                f"{path.name}: текст слишком длинный ({len(text)} символов, "
                f"допустимо не больше {self._max_chars})"
            )
        title = title_of(text, path.stem)
        doc = await self._documents.put(user_id, title, path.name, text)
        flt = SearchFilter(user_id=user_id, document_ids=[doc.id])
        already = await self._retriever.index.count(self._retriever.collection(DOCS), flt)
        if already:
            return FileResult(str(path), doc.id, title, already, status="unchanged")
        records = self._records(
            doc.id,
            text,
            title,
            {
                "source": "user_docs",
                "user_id": user_id,
                "document_id": doc.id,
                "title": title,
                "filename": path.name,
            },
        )
        await self._retriever.add(DOCS, records)
        return FileResult(str(path), doc.id, title, len(records))

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
    def _expand(paths: list[Path], suffixes: tuple[str, ...]) -> list[Path]:
        files: list[Path] = []
        for path in paths:
            if path.is_dir():
                files.extend(sorted(p for p in path.rglob("*") if p.suffix.lower() in suffixes))
            else:
                files.append(path)
        return files
