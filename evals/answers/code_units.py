"""The Tax Code's units by article, for resolving the legal references of an answer."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from finagent.legal.references import LegalReference
from finagent.retrieval.legal import parse_code
from finagent.retrieval.legal_units import LegalUnit


@dataclass
class CodeUnits:
    """Article and unit ids of the ingested Tax Code, for resolving references."""

    articles: dict[str, set[str]] = field(default_factory=dict)  # number -> article ids
    units: set[str] = field(default_factory=set)
    articles_with_points: set[str] = field(default_factory=set)

    @classmethod
    def from_units(cls, units: Iterable[LegalUnit]) -> CodeUnits:
        out = cls()
        for u in units:
            out.articles.setdefault(u.article, set()).add(u.article_id)
            out.units.add(u.unit_id)
            if u.point is not None:
                out.articles_with_points.add(u.article_id)
        return out

    @classmethod
    def from_taxcode(
        cls, files: Iterable[tuple[Path, int]], chapters: set[str] | None = None
    ) -> CodeUnits:
        """Parse the Tax Code files ``(path, part)``, optionally only some chapters."""
        units: list[LegalUnit] = []
        for path, part in files:
            parsed = parse_code(path.read_text(encoding="utf-8"), "nk", part)
            units += [u for u in parsed if chapters is None or u.chapter in chapters]
        return cls.from_units(units)

    def resolve(self, ref: LegalReference) -> list[str]:
        """Article ids of the Tax Code a reference points to (empty: it does not resolve)."""
        if ref.code not in (None, "nk"):
            return []
        found = sorted(self.articles.get(ref.article, set()))
        if ref.point is None:
            return found
        return [
            a
            for a in found
            if a not in self.articles_with_points or f"{a}.p{ref.point}" in self.units
        ]
