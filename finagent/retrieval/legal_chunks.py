"""Legal units split into chunks for the index (heading-prefixed text for embedding and
BM25, clean text for display).

A unit that fits is one chunk. A longer one that enumerates items («1) …», «28) …») is
split at its items (:mod:`~finagent.retrieval.legal_items`): its opening, then each item
with its own citation («п. 28 ст. 217 НК РФ» for an article without points, «подп. 2 п. 3
ст. 425 НК РФ» for a point's sub-point), its text opening with the introduction it
continues («… следующие виды доходов:»): an item alone does not say what it is an item of
(«28) доходы, не превышающие 4000 рублей…» is exempt only by the introduction). An item
still too long is cut in pieces, each after the introduction. Other long units
are cut in pieces of ``max_chars``.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from finagent.retrieval.legal_items import enumeration
from finagent.retrieval.legal_units import LegalUnit, code_name


@dataclass
class LegalChunk:
    """A piece of a unit sized for embedding; several chunks may share a unit."""

    chunk_id: str
    unit: LegalUnit
    index: int
    text: str
    index_text: str
    subpoint: str | None = None  # the enumerated item the chunk holds
    lead: str = ""  # the sentence introducing the item («… следующие виды доходов:»)
    continues: bool = True  # a later piece of the same text as the chunk before it

    @property
    def citation(self) -> str:
        """The unit's citation, narrowed to the item: an article's items are its points,
        a point's items its sub-points."""
        u = self.unit
        if self.subpoint is None:
            return u.citation
        where = f"п. {self.subpoint}" if u.point is None else f"подп. {self.subpoint} п. {u.point}"
        return f"{where} ст. {u.article} {code_name(u.code)}"

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
            "citation": self.citation,
            "unit_citation": u.citation,
            "subpoint": self.subpoint,
            "lead": self.lead,
            "continues": self.continues,
            "code": u.code,
            "part": u.part,
            "title": f"{self.citation}: {u.article_title}",
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
        head = unit.heading if title_prefix else ""
        i = 0
        for text, subpoint, lead in _sections(unit.text, max_chars):
            pieces = [text] if len(text) <= max_chars else splitter.split_text(text)
            for k, piece in enumerate(p.strip() for p in pieces if p.strip()):
                shown = f"{lead}\n{piece}" if lead else piece
                chunks.append(
                    LegalChunk(
                        chunk_id=f"{unit.unit_id}#{i}",
                        unit=unit,
                        index=i,
                        text=shown,
                        index_text=f"{head}\n{shown}" if head else shown,
                        subpoint=subpoint,
                        lead=lead,
                        continues=k > 0,
                    )
                )
                i += 1
    return chunks


def _sections(text: str, max_chars: int) -> list[tuple[str, str | None, str]]:
    """``(text, item number, lead-in)`` of a unit: the whole text when it fits or
    enumerates nothing, else its opening and each item."""
    found = enumeration(text) if len(text) > max_chars else None
    if found is None:
        return [(text, None, "")]
    opening = [(found.opening, None, "")] if found.opening else []
    return opening + [(item.text, item.number, found.lead) for item in found.items]
