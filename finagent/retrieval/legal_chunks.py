"""Legal units split into chunks for the index (heading-prefixed text for embedding and
BM25, clean text for display)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from finagent.retrieval.legal_units import LegalUnit


@dataclass
class LegalChunk:
    """A piece of a unit sized for embedding; several chunks may share a unit."""

    chunk_id: str
    unit: LegalUnit
    index: int
    text: str
    index_text: str

    @property
    def sparse_text(self) -> str:
        """Keyword (BM25) text: the chapter label, the heading and the chunk."""
        return f"{self.unit.chapter_label}\n{self.index_text}"

    def payload(self, edition: str | None = None) -> dict[str, object]:
        u = self.unit
        return {
            "edition": edition,
            "unit_id": u.unit_id,
            "article_id": u.article_id,
            "article": u.article,
            "article_title": u.article_title,
            "chapter": u.chapter,
            "chapter_title": u.chapter_title,
            "point": u.point,
            "citation": u.citation,
            "code": u.code,
            "part": u.part,
            "title": f"{u.citation}: {u.article_title}",
            "text": self.text,
            "chunk_index": self.index,
            "amendments": u.amendments,
        }


def chunk_units(
    units: Iterable[LegalUnit],
    max_chars: int = 1200,
    overlap: int = 150,
    title_prefix: bool = True,
    include_repealed: bool = False,
) -> list[LegalChunk]:
    """Split units into chunks of at most ``max_chars`` text (plus the heading prefix).

    ``index_text`` (what is embedded and BM25-indexed) starts with the article
    heading (``Статья 88. Камеральная налоговая проверка, п. 2``) when
    ``title_prefix`` is set; ``text`` is the clean unit text for display.
    """
    from langchain_text_splitters import RecursiveCharacterTextSplitter  # pulls langchain_core

    splitter = RecursiveCharacterTextSplitter(
        chunk_size=max_chars,
        chunk_overlap=min(overlap, max_chars // 2),
        separators=["\n", "; ", ". ", ", ", " ", ""],
        keep_separator="end",
    )
    chunks: list[LegalChunk] = []
    for unit in units:
        if unit.repealed and not include_repealed:
            continue
        if not unit.text.strip():
            continue
        pieces = [unit.text] if len(unit.text) <= max_chars else splitter.split_text(unit.text)
        for i, piece in enumerate(p.strip() for p in pieces if p.strip()):
            index_text = f"{unit.heading}\n{piece}" if title_prefix else piece
            chunks.append(
                LegalChunk(
                    chunk_id=f"{unit.unit_id}#{i}",
                    unit=unit,
                    index=i,
                    text=piece,
                    index_text=index_text,
                )
            )
    return chunks
