"""Ingestion: the knowledge base (CSV or Markdown folder) and user documents."""

from __future__ import annotations

import asyncio
import csv
import json
import os
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from pathlib import Path

from finagent.observability import get_logger
from finagent.retrieval.chunking import MarkdownChunker
from finagent.retrieval.index import SearchFilter
from finagent.retrieval.loaders import DocumentLoadError, load_text, title_of
from finagent.retrieval.parse_pool import parse_document
from finagent.retrieval.progress import chunk_progress
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


@dataclass
class KbArticle:
    article_id: str
    title: str
    tags: list[str]
    text: str
    reviewed_at: str | None  # when a person last checked the article; never the ingestion date
    folder: str | None = None
    """Topic folder relative to the KB root (POSIX); None: taken from the first tag."""


def _slug(text: str, limit: int = 60) -> str:
    """The slug of the flat layout (``<id>-<title>.md``); kept to find files of that layout."""
    slug = re.sub(r"[^\w]+", "-", text.lower(), flags=re.UNICODE).strip("-")
    return slug[:limit] or "article"


def slugify(text: str, limit: int = 80) -> str:
    """A readable, stable file or folder name: lower case, ё→е, words joined by ``-``.

    ``%`` becomes ``процентов`` so «0 %» stays meaningful; a long slug is cut at a word
    boundary. Only letters, digits and ``-`` remain, so a slug never contains a path
    separator, a dot or ``..``.
    """
    text = text.lower().replace("ё", "е").replace("%", " процентов ")
    slug = re.sub(r"[\W_]+", "-", text, flags=re.UNICODE).strip("-")
    if len(slug) > limit:
        cut = slug[:limit]
        slug = cut.rsplit("-", 1)[0] if "-" in cut else cut
    return slug or "статья"


_FRONT_MATTER = re.compile(r"\A\ufeff?---[ \t]*\r?\n(.*?)\r?\n---[ \t]*(?:\r?\n|\Z)", re.S)
_PLAIN_VALUE = re.compile(r"^[\w.-]+$", re.UNICODE)


def split_front_matter(text: str) -> tuple[dict[str, str | list[str]], str]:
    """``(fields, body)`` of a text that may start with a ``---`` front-matter block.

    Values are JSON (strings, lists of strings) or plain text; unknown lines are ignored.
    """
    match = _FRONT_MATTER.match(text)
    if not match:
        return {}, text
    fields: dict[str, str | list[str]] = {}
    for line in match.group(1).splitlines():
        key, sep, raw = line.partition(":")
        if not sep or not key.strip():
            continue
        raw = raw.strip()
        value: str | list[str] = raw
        if raw.startswith(("[", '"')):
            try:
                parsed = json.loads(raw)
            except ValueError:
                parsed = raw
            if isinstance(parsed, list):
                value = [str(x) for x in parsed]
            elif isinstance(parsed, str):
                value = parsed
        fields[key.strip().lower()] = value
    return fields, text[match.end() :]


def _yaml_value(value: str) -> str:
    return value if _PLAIN_VALUE.match(value) else json.dumps(value, ensure_ascii=False)


def front_matter(article: KbArticle) -> str:
    """The ``---`` block written at the top of every KB file (id first)."""
    lines = [
        "---",
        f"id: {_yaml_value(article.article_id)}",
        f"title: {json.dumps(article.title, ensure_ascii=False)}",
        f"tags: {json.dumps(article.tags, ensure_ascii=False)}",
    ]
    if article.reviewed_at:
        lines.append(f"reviewed: {article.reviewed_at}")
    lines.append("---")
    return "\n".join(lines) + "\n\n"


def read_article_id(path: Path) -> str | None:
    """The front-matter ``id`` of a KB file, or None (no front matter, unreadable)."""
    try:
        with path.open("rb") as handle:
            head = handle.read(4096).decode("utf-8", errors="replace")
    except OSError:
        return None
    fields, _ = split_front_matter(head)
    value = fields.get("id")
    return value if isinstance(value, str) and value else None


_Tree = dict[str, "_Tree"]


def render_tree(paths: Iterable[str]) -> list[str]:
    """Lines of a tree drawing of relative POSIX ``paths`` (folders first, sorted)."""
    tree: _Tree = {}
    for path in paths:
        node = tree
        for part in path.split("/"):
            node = node.setdefault(part, {})

    def draw(node: _Tree, prefix: str) -> list[str]:
        names = sorted(node, key=lambda n: (not node[n], n))
        lines: list[str] = []
        for i, name in enumerate(names):
            last = i == len(names) - 1
            child = node[name]
            lines.append(f"{prefix}{'└── ' if last else '├── '}{name}{'/' if child else ''}")
            lines.extend(draw(child, prefix + ("    " if last else "│   ")))
        return lines

    return draw(tree, "")


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
        fields, text = split_front_matter(text)
        reviewed = _REVIEWED_LINE.search(text[:2000])
        if reviewed:
            text = (text[: reviewed.start()] + text[reviewed.end() :]).strip()
        parents = path.parent.relative_to(base).parts if base is not None else ()
        folder = "/".join(slugify(part, 60) for part in parents) if parents else None
        stated_id = fields.get("id")
        if isinstance(stated_id, str) and stated_id.strip():
            article_id = stated_id.strip()
        else:  # top-level files keep the id they had before topic folders
            article_id = _slug("-".join((*parents, path.stem)))
        tags = fields.get("tags", [])
        if isinstance(tags, str):
            tags = [t.strip() for t in tags.split(",") if t.strip()]
        stated_review = fields.get("reviewed")
        review = reviewed.group(1) if reviewed else None
        if review is None and isinstance(stated_review, str):
            review = stated_review
        stated_title = fields.get("title")
        title = stated_title.strip() if isinstance(stated_title, str) else ""
        return KbArticle(
            article_id,
            title or title_of(text, path.stem),
            tags,
            text.strip(),
            _review_date(review),
            folder,
        )

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
                    log.info("ingest_file_failed", path=path.name, error=str(exc))  # reported once
                    report.results.append(FileResult(str(path), status="error", error=str(exc)))
        return report

    async def _ingest_document(self, user_id: str, path: Path) -> FileResult:
        assert self._documents is not None
        # PDF/DOCX parsing runs in the bounded worker pool (time, memory and text limits)
        text = await parse_document(path, self._retriever.settings)
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
