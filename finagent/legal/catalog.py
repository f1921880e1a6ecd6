"""The ingested codes as a catalog of citable units, read from the index itself.

Law chunks carry their unit's id, article, point, citation, text and edition in the
payload, so the index is the one source of truth: the catalog scrolls it once, joins the
chunks of each unit, and is reloaded after ``max_age_s`` or when an ingestion in this
process invalidates it.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
import time
from dataclasses import dataclass
from typing import Any

from finagent.legal.references import LegalReference
from finagent.retrieval.index import SearchFilter, VectorIndex
from finagent.retrieval.legal_units import code_name

LAW_SOURCE = "law"
_SUBPOINT_LINE = re.compile(r"^(\d+(?:\.\d+)?(?:-\d+)?)\)\s")


@dataclass(frozen=True)
class CatalogUnit:
    """One citable unit (article preamble or point) of an ingested code."""

    unit_id: str
    article_id: str
    code: str
    chapter: str
    article: str
    point: str | None
    article_title: str
    citation: str
    text: str
    edition: str | None

    def subpoint_text(self, subpoint: str) -> str | None:
        """The lines of sub-point ``subpoint)`` inside this point, or None."""
        lines = self.text.splitlines()
        out: list[str] = []
        for line in lines:
            m = _SUBPOINT_LINE.match(line.strip())
            if m:
                if out:
                    break
                if m.group(1) == subpoint:
                    out.append(line.strip())
            elif out:
                out.append(line.strip())
        return "\n".join(out) or None


@dataclass(frozen=True)
class Resolution:
    """What a reference resolves to: units (article level: all of them), or why not."""

    reference: LegalReference
    units: tuple[CatalogUnit, ...] = ()
    problem: str | None = None  # "code", "article", "point", "subpoint"
    nearest: tuple[str, ...] = ()  # citations of units that do exist
    excerpt: str | None = None  # the sub-point's text when one was named

    @property
    def ok(self) -> bool:
        return bool(self.units) and self.problem is None

    @property
    def article_ids(self) -> set[str]:
        return {u.article_id for u in self.units}


def _article_key(number: str) -> tuple[float, ...]:
    return tuple(float(p) for p in re.split(r"[.-]", number) if p.isdigit())


def _distance(a: str, b: str) -> tuple[float, ...]:
    ka, kb = _article_key(a), _article_key(b)
    head = abs((ka[:1] or (0,))[0] - (kb[:1] or (0,))[0])
    return (head, *(abs(x - y) for x, y in zip(ka[1:], kb[1:], strict=False)))


# the payload keys _build reads: the scroll fetches only these (the titles and flags it
# does not read made it about twice as slow)
_FIELDS = (
    "unit_id",
    "chunk_index",
    "article_id",
    "code",
    "chapter",
    "article",
    "point",
    "article_title",
    "unit_citation",
    "citation",
    "edition",
    "text",
    "lead",
)


class LawCatalog:
    """Units of the codes ingested into ``collection``, by code and article."""

    def __init__(self, index: VectorIndex, collection: str, recheck_s: float = 2.0) -> None:
        self._index = index
        self._collection = collection
        self._recheck_s = recheck_s
        self._checked_at: float | None = None
        self._count = -1
        self._by_article: dict[tuple[str, str], list[CatalogUnit]] = {}
        self._by_unit: dict[str, CatalogUnit] = {}
        self._lock = asyncio.Lock()
        self._warming: asyncio.Task[None] | None = None

    def _fresh(self) -> bool:
        checked = self._checked_at
        return checked is not None and time.monotonic() - checked < self._recheck_s

    async def _ensure(self) -> None:
        """Reload when the number of law points changed (an ingestion anywhere), checked at
        most every ``recheck_s`` seconds: a count is cheap, a reload scrolls every unit."""
        if self._fresh():
            return
        async with self._lock:
            if self._fresh():
                return
            law = SearchFilter(source=LAW_SOURCE)
            count = await self._index.count(self._collection, law)
            if count != self._count:
                payloads = (
                    await self._index.scroll(self._collection, law, fields=_FIELDS) if count else []
                )
                self._build(payloads)
                self._count = count
            self._checked_at = time.monotonic()

    async def warm(self) -> None:
        """Load the units ahead of the first lookup; a failure is left to that lookup,
        which loads again and raises."""
        try:
            await self._ensure()
        except Exception:
            return

    def prefetch(self) -> None:
        """Start loading the units beside other work (a knowledge question's search: its
        answer looks the Code's units up next), unless they are fresh or loading."""
        if self._fresh() or (self._warming is not None and not self._warming.done()):
            return
        self._warming = asyncio.get_running_loop().create_task(self.warm())

    async def stop(self) -> None:
        """Cancel a load still running (before the index closes)."""
        task, self._warming = self._warming, None
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def _build(self, payloads: list[dict[str, Any]]) -> None:
        pieces: dict[str, list[tuple[int, dict[str, Any]]]] = {}
        for p in payloads:
            if p.get("unit_id"):
                pieces.setdefault(str(p["unit_id"]), []).append((int(p.get("chunk_index", 0)), p))
        by_unit: dict[str, CatalogUnit] = {}
        by_article: dict[tuple[str, str], list[CatalogUnit]] = {}
        for unit_id, parts in pieces.items():
            parts.sort(key=lambda x: x[0])
            first = parts[0][1]
            unit = CatalogUnit(
                unit_id=unit_id,
                article_id=str(first.get("article_id") or unit_id.split(".p")[0]),
                code=str(first.get("code") or "nk"),
                chapter=str(first.get("chapter") or ""),
                article=str(first.get("article")),
                point=first.get("point"),
                article_title=str(first.get("article_title") or ""),
                citation=str(first.get("unit_citation") or first.get("citation") or unit_id),
                text=_join([_own_text(p) for _, p in parts]),
                edition=first.get("edition"),
            )
            by_unit[unit_id] = unit
            by_article.setdefault((unit.code, unit.article), []).append(unit)
        for units in by_article.values():
            units.sort(key=lambda u: (u.point is not None, _article_key(u.point or "0")))
        self._by_unit, self._by_article = by_unit, by_article

    async def codes(self) -> set[str]:
        await self._ensure()
        return {code for code, _ in self._by_article}

    async def chapters(self, code: str = "nk") -> dict[str, set[str]]:
        """Ingested chapters of ``code`` with the titles of their articles."""
        await self._ensure()
        out: dict[str, set[str]] = {}
        for unit in self._by_unit.values():
            if unit.code == code:
                out.setdefault(unit.chapter, set()).add(unit.article_title)
        return out

    async def unit(self, unit_id: str) -> CatalogUnit | None:
        await self._ensure()
        return self._by_unit.get(unit_id)

    async def editions(self) -> dict[str, str]:
        """The edition date of each ingested code (the latest one seen)."""
        await self._ensure()
        out: dict[str, str] = {}
        for unit in self._by_unit.values():
            if unit.edition and unit.edition > out.get(unit.code, ""):
                out[unit.code] = unit.edition
        return out

    async def resolve(self, ref: LegalReference, default_code: str = "nk") -> Resolution:
        """The units ``ref`` names, or the problem and the nearest units that exist."""
        await self._ensure()
        code = ref.code or default_code
        if code == "other" or not any(c == code for c, _ in self._by_article):
            return Resolution(ref, problem="code")
        units = self._by_article.get((code, ref.article))
        if not units:
            articles = sorted(
                {a for c, a in self._by_article if c == code},
                key=lambda a: _distance(a, ref.article),
            )[:5]
            nearest = tuple(f"ст. {a} {code_name(code)}" for a in articles)
            return Resolution(ref, problem="article", nearest=nearest)
        if ref.point is None:
            return Resolution(ref, units=tuple(units))
        point = [u for u in units if u.point == ref.point]
        if not point and ref.subpoint is None:
            whole = _article_items(units, ref.point)
            if whole is not None:
                return Resolution(ref, units=(whole[0],), excerpt=whole[1])
        if not point:
            nearest = tuple(u.citation for u in units if u.point is not None)[:12]
            return Resolution(ref, problem="point", nearest=nearest)
        if ref.subpoint is None:
            return Resolution(ref, units=tuple(point))
        excerpt = point[0].subpoint_text(ref.subpoint)
        if excerpt is None:
            return Resolution(ref, problem="subpoint", nearest=(point[0].citation,))
        return Resolution(ref, units=tuple(point), excerpt=excerpt)


def _own_text(payload: dict[str, Any]) -> str:
    """A chunk's text without the introduction an enumerated item's chunk opens with."""
    text = str(payload.get("text") or "")
    lead = str(payload.get("lead") or "")
    return text[len(lead) :].lstrip("\n") if lead and text.startswith(lead) else text


def _article_items(units: list[CatalogUnit], number: str) -> tuple[CatalogUnit, str] | None:
    """An article without numbered points whose text enumerates items («28) …»): its
    items are its points (п. 28 ст. 217). The article's unit and the item's text, or None."""
    if any(u.point is not None for u in units):
        return None
    article = units[0]
    text = article.subpoint_text(number)
    return (article, text) if text is not None else None


_MAX_OVERLAP = 400
_MIN_OVERLAP = 21


def _overlap(text: str, piece: str) -> int:
    """The longest n in [21, 400] with ``text`` ending in ``piece[:n]``, or 0.

    An overlap of n starts at ``len(text) - n``, where ``piece``'s first 21 characters
    must occur; only those places are checked, leftmost (longest) first."""
    tail = text[-min(len(text), len(piece), _MAX_OVERLAP) :]
    head = piece[:_MIN_OVERLAP]
    at = tail.find(head)
    while at != -1 and len(tail) - at >= _MIN_OVERLAP:
        if piece.startswith(tail[at:]):
            return len(tail) - at
        at = tail.find(head, at + 1)
    return 0


def _join(pieces: list[str]) -> str:
    """Chunks of one unit overlap; join them without repeating the overlap."""
    text = ""
    for piece in pieces:
        if not text:
            text = piece
            continue
        overlap = _overlap(text, piece)
        text = text + ("" if overlap else "\n") + piece[overlap:]
    return text
