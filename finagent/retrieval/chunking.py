"""Markdown/heading-aware chunking with overlap."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_HEADERS = [("#", "h1"), ("##", "h2"), ("###", "h3")]
_SEPARATORS = ["\n\n", "\n", ". ", "; ", ", ", " ", ""]
_HEADING_LINE = re.compile(r"^[ \t]*#.*$", re.MULTILINE)
_WHITESPACE = re.compile(r"\s+")


def chunks_at_least(text: str, chunk_size: int) -> int:
    """A lower bound of ``MarkdownChunker.split``'s chunk count, in linear C-speed passes.

    Every chunk carries at most ``chunk_size`` characters of the text outside heading
    lines, and together they carry all of its non-blank characters; so a document too
    large for the chunk budget is refused without chunking it (and without holding the
    GIL against the event loop for the whole split)."""
    body = _HEADING_LINE.sub("", text)
    return len(_WHITESPACE.sub("", body)) // chunk_size


@dataclass
class TextChunk:
    text: str
    index: int
    headings: list[str] = field(default_factory=list)

    @property
    def section(self) -> str:
        return " / ".join(self.headings)


class MarkdownChunker:
    """Splits by Markdown headings first, then by paragraphs/sentences to a size limit.

    Each chunk keeps the heading path it came from and is prefixed with it, so a chunk
    retrieved alone still says what it is about.
    """

    def __init__(self, chunk_size: int = 1200, chunk_overlap: int = 150) -> None:
        # imported here: langchain_text_splitters pulls in langchain_core (slow CLI start)
        from langchain_text_splitters import (
            MarkdownHeaderTextSplitter,
            RecursiveCharacterTextSplitter,
        )

        self._headers = MarkdownHeaderTextSplitter(_HEADERS, strip_headers=True)
        self._splitter = RecursiveCharacterTextSplitter(
            chunk_size=chunk_size,
            chunk_overlap=chunk_overlap,
            separators=_SEPARATORS,
            keep_separator="end",
        )

    def split(self, text: str, title: str = "") -> list[TextChunk]:
        chunks: list[TextChunk] = []
        for section in self._headers.split_text(text):
            headings = [section.metadata[k] for _, k in _HEADERS if k in section.metadata]
            for piece in self._splitter.split_text(section.page_content):
                if not piece.strip():
                    continue
                path = [h for h in headings if h and h != title]
                prefix = " / ".join([title, *path] if title else path)
                body = f"{prefix}\n{piece.strip()}" if prefix else piece.strip()
                chunks.append(TextChunk(text=body, index=len(chunks), headings=headings))
        return chunks
