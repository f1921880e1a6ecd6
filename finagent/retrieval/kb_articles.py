"""Knowledge-base articles: CSV rows and Markdown files (front matter, review dates), their
ids and folder slugs, and the front matter written back into the KB tree."""

from __future__ import annotations

import csv
import json
import re
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from finagent.retrieval.loaders import DocumentLoadError, title_of

KB_CSV_COLUMNS = ("id", "annotation", "tags", "text")


@dataclass
class KbArticle:
    article_id: str
    title: str
    tags: list[str]
    text: str
    reviewed_at: str | None  # when a person last checked the article; never the ingestion date
    folder: str | None = None
    """Topic folder relative to the KB root (POSIX); None: taken from the first tag."""
    applies_from: str | None = None
    """ISO date the article's figures and rules are stated for (they apply from it)."""


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
    if article.applies_from:
        lines.append(f"applies_from: {article.applies_from}")
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


# "Проверено: 2025-10-01" / "reviewed: 2025-10-01" on its own line near the top of a .md file
_REVIEWED_LINE = re.compile(r"^(?:reviewed|проверено)\s*:\s*(\d{4}-\d{2}-\d{2})\s*$", re.I | re.M)
# "Действует с: 2025-01-01" / "applies_from: 2025-01-01", the same way
_APPLIES_LINE = re.compile(
    r"^(?:applies_from|действует\s+с)\s*:\s*(\d{4}-\d{2}-\d{2})\s*$", re.I | re.M
)


def _review_date(value: str | None) -> str | None:
    """An ISO date (review, applicability), or None when absent or not a date (never a
    guess)."""
    value = (value or "").strip()
    try:
        return date.fromisoformat(value).isoformat() if value else None
    except ValueError:
        return None


def read_kb_csv(path: Path) -> list[KbArticle]:
    """Articles of a KB CSV (columns id, annotation, tags, text; optional ``reviewed`` and
    ``applies_from`` dates)."""
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
        articles.append(
            KbArticle(
                article_id,
                title,
                tags,
                text,
                _review_date(row.get("reviewed")),
                applies_from=_review_date(row.get("applies_from")),
            )
        )
    if not articles:
        raise DocumentLoadError(f"{path.name}: no articles with id and text")
    return articles


def article_from_markdown(text: str, path: Path, base: Path | None) -> KbArticle:
    """A KB article from a Markdown file's text: front matter fields (id, title, tags,
    reviewed, applies_from), «Проверено:» and «Действует с:» lines, and the topic folder
    from the path under ``base``."""
    fields, text = split_front_matter(text)
    reviewed = _REVIEWED_LINE.search(text[:2000])
    if reviewed:
        text = (text[: reviewed.start()] + text[reviewed.end() :]).strip()
    applies = _APPLIES_LINE.search(text[:2000])
    if applies:
        text = (text[: applies.start()] + text[applies.end() :]).strip()
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
    applies_from = applies.group(1) if applies else None
    stated_applies = fields.get("applies_from")
    if applies_from is None and isinstance(stated_applies, str):
        applies_from = stated_applies
    stated_title = fields.get("title")
    title = stated_title.strip() if isinstance(stated_title, str) else ""
    return KbArticle(
        article_id,
        title or title_of(text, path.stem),
        tags,
        text.strip(),
        _review_date(review),
        folder,
        _review_date(applies_from),
    )
