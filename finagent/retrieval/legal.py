"""Parser for Russian codes (the Tax Code format): chapters, articles, points, chunks.

The input is plain text with ``Глава N. TITLE`` lines (the title may continue on the
next upper-case lines), ``Статья N. Title`` lines (numbers such as ``105.1``,
``14.4-1``, ``346.25.1``), numbered points ``1.``, ``1.1.``, ``3.3-1.``, sub-points
``1)`` and whole-line amendment notes ``(в ред. ... N ...-ФЗ)`` / ``(п. 2 введен ...)``.

Each article yields an article-level unit (``nk1.ch14.art88``) for its preamble or
for its whole text when it has no points, and one unit per point
(``nk1.ch14.art88.p2``); sub-points stay inside their point. Amendment notes and
"... утратил силу. - Федеральный закон ..." lines are dropped from the text and only
counted. Repealed articles and points are kept as units flagged ``repealed`` so the
structure is complete, and are skipped when chunking.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial

CODE_NAMES = {
    "nk": "НК РФ",
    "gk": "ГК РФ",
    "tk": "ТК РФ",
    "bk": "БК РФ",
    "koap": "КоАП РФ",
}

# Everyday names of Tax Code chapters (what users type), added to the keyword text.
NK_CHAPTER_ALIASES = {
    "21": "НДС",
    "23": "НДФЛ подоходный налог",
    "25": "налог на прибыль",
    "26.1": "ЕСХН",
    "26.2": "УСН упрощенка",
    "26.5": "ПСН патент",
    "33.1": "туристический налог",
    "34": "страховые взносы",
}

_NUM = r"\d+(?:\.\d+)*(?:-\d+)?"
_CHAPTER_RE = re.compile(rf"^Глава\s+({_NUM})\.\s*(.*)$")
_ARTICLE_RE = re.compile(rf"^Статья\s+({_NUM})\.\s*(.*)$")
_ARTICLES_RANGE_RE = re.compile(rf"^Статьи\s+{_NUM}\s*[-–]\s*{_NUM}\.")
_POINT_RE = re.compile(rf"^({_NUM})\.\s+(.*)$")
_POINT_RANGE_RE = re.compile(r"^(\d+(?:\.\d+)?)\s+[-–]\s+(\d+(?:\.\d+)?)\.\s+(.*)$")
_NOTE_RE = re.compile(r"^\(.*(?:введен|ред\.|утратил).*\)$", re.IGNORECASE)
_REPEALED_RE = re.compile(
    r"^(?:Утратил[аио]?|Утратили|Действовал[аио]?|Действовали|Исключен[аыо]?)\b"
)
# "4) утратил силу. - Федеральный закон ...", "Абзац утратил силу. - ..."
_REPEALED_LINE_RE = re.compile(
    r"^(?:\S+\)\s*(?:-\s*\S+\)\s*)?|Абзацы?\b[^.]*?|Подпункты?\b[^.]*?)"
    r"(?:утратил[аио]?|утратили|действовал[аио]?|действовали)\s+(?:силу|до)\b.*"
    r"(?:закон|кодекс)",
    re.IGNORECASE,
)


def code_name(code: str) -> str:
    """Human abbreviation of a code id (``nk`` -> ``НК РФ``)."""
    return CODE_NAMES.get(code.lower(), code.upper())


@dataclass
class LegalUnit:
    """One citable unit: an article (preamble / point-less article) or a point."""

    code: str
    part: int | None
    chapter: str
    chapter_title: str
    article: str
    article_title: str
    point: str | None
    text: str
    amendments: int = 0
    repealed: bool = False

    @property
    def code_id(self) -> str:
        return f"{self.code}{self.part}" if self.part is not None else self.code

    @property
    def article_id(self) -> str:
        return f"{self.code_id}.ch{self.chapter}.art{self.article}"

    @property
    def unit_id(self) -> str:
        return self.article_id if self.point is None else f"{self.article_id}.p{self.point}"

    @property
    def citation(self) -> str:
        """«п. 2 ст. 88 НК РФ», as Russian legal texts write it."""
        point = f"п. {self.point} " if self.point is not None else ""
        return f"{point}ст. {self.article} {code_name(self.code)}"

    @property
    def chapter_label(self) -> str:
        """``Глава 21. Налог на добавленную стоимость (НДС)``: chapter title and alias."""
        title = self.chapter_title.capitalize()
        alias = NK_CHAPTER_ALIASES.get(self.chapter) if self.code == "nk" else None
        return f"Глава {self.chapter}. {title}" + (f" ({alias})" if alias else "")

    @property
    def heading(self) -> str:
        """``Статья 88. Камеральная налоговая проверка`` (+ ``, п. 2``)."""
        head = f"Статья {self.article}. {self.article_title}".rstrip(". ")
        return f"{head}, п. {self.point}" if self.point is not None else head


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

    @property
    def content_hash(self) -> str:
        return hashlib.sha256(self.index_text.encode("utf-8")).hexdigest()


@dataclass
class _Article:
    chapter: str
    chapter_title: str
    number: str
    title: str
    repealed: bool
    preamble: list[str] = field(default_factory=list)
    points: list[tuple[str, list[str], bool]] = field(default_factory=list)
    notes: int = 0
    point_notes: dict[int, int] = field(default_factory=dict)


def _is_note(line: str) -> bool:
    return line.startswith("(") and bool(_NOTE_RE.match(line))


def _is_title_continuation(line: str) -> bool:
    letters = [c for c in line if c.isalpha()]
    return bool(letters) and line == line.upper() and not _is_note(line)


def parse_code(text: str, code: str = "nk", part: int | None = None) -> list[LegalUnit]:
    """Parse a code's text into article- and point-level units in document order."""
    articles: list[_Article] = []
    chapter, chapter_title = "0", ""
    in_chapter_header = title_open = False
    current: _Article | None = None

    for raw in text.splitlines():
        line = raw.strip()
        m = _CHAPTER_RE.match(line)
        if m:
            chapter, chapter_title = m.group(1), m.group(2).strip()
            in_chapter_header, title_open, current = True, True, None
            continue
        if in_chapter_header:
            if (
                title_open
                and line
                and not line.startswith("Статья")
                and (_is_title_continuation(line))
            ):
                chapter_title = f"{chapter_title} {line}".strip()
                continue
            if not line or _is_note(line):  # chapter-level note or spacing
                title_open = False
                continue
            in_chapter_header = False
        if not line:
            continue
        m = _ARTICLE_RE.match(line)
        if m:
            title = m.group(2).strip()
            current = _Article(chapter, chapter_title, m.group(1), title, False)
            if _REPEALED_RE.match(title):
                current.repealed = True
                current.preamble.append(title)
            articles.append(current)
            continue
        if _ARTICLES_RANGE_RE.match(line):  # "Статьи 45.1 - 45.2. Утратили силу."
            current = None
            continue
        if current is None:
            continue
        if _is_note(line):
            if current.points:
                idx = len(current.points) - 1
                current.point_notes[idx] = current.point_notes.get(idx, 0) + 1
            else:
                current.notes += 1
            continue
        m_range = _POINT_RANGE_RE.match(line)
        m_point = None if m_range else _POINT_RE.match(line)
        if m_range:
            number = f"{m_range.group(1)}-{m_range.group(2)}"
            current.points.append((number, [m_range.group(3)], True))
            continue
        if m_point:
            body = m_point.group(2)
            if _REPEALED_LINE_RE.match(body):  # "5. Абзац утратил силу. - ..."
                current.points.append((m_point.group(1), [], False))
                current.point_notes[len(current.points) - 1] = 1
                continue
            current.points.append((m_point.group(1), [body], bool(_REPEALED_RE.match(body))))
            continue
        if _REPEALED_LINE_RE.match(line):
            if current.points:
                idx = len(current.points) - 1
                current.point_notes[idx] = current.point_notes.get(idx, 0) + 1
            else:
                current.notes += 1
            continue
        target = current.points[-1][1] if current.points else current.preamble
        target.append(line)

    units: list[LegalUnit] = []
    for art in articles:
        base = partial(
            LegalUnit,
            code=code,
            part=part,
            chapter=art.chapter,
            chapter_title=art.chapter_title,
            article=art.number,
            article_title=art.title,
        )
        if art.preamble or not art.points:
            units.append(
                base(
                    point=None,
                    text="\n".join(art.preamble),
                    amendments=art.notes,
                    repealed=art.repealed,
                )
            )
        live = {number for number, _, repealed in art.points if not repealed}
        seen: set[str] = set()
        for i, (number, lines, repealed) in enumerate(art.points):
            if repealed and number in live:  # "2. Исключен." followed by a new "2."
                continue
            point = number
            k = 2
            while point in seen:  # a restarted numbering inside an article
                point = f"{number}_{k}"
                k += 1
            seen.add(point)
            units.append(
                base(
                    point=point,
                    text="\n".join(lines),
                    amendments=art.point_notes.get(i, 0),
                    repealed=repealed or art.repealed,
                )
            )
    return units


_AMENDMENT_DATE = re.compile(r"\bот\s+(\d{2})\.(\d{2})\.(\d{4})\s+N")


def latest_amendment(text: str) -> str | None:
    """ISO date of the latest amending law cited in the text's notes (its edition), or None."""
    dates = {f"{y}-{m}-{d}" for d, m, y in _AMENDMENT_DATE.findall(text)}
    return max(dates) if dates else None


def article_ids(units: Iterable[LegalUnit]) -> list[str]:
    """Distinct article ids in document order."""
    return list(dict.fromkeys(u.article_id for u in units))


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


def parse_stats(units: list[LegalUnit]) -> dict[str, int]:
    """Counts for validation output."""
    return {
        "chapters": len({u.chapter for u in units}),
        "articles": len(article_ids(units)),
        "repealed_articles": len({u.article_id for u in units if u.repealed and u.point is None}),
        "units": len(units),
        "point_units": sum(1 for u in units if u.point is not None),
        "amendment_notes": sum(u.amendments for u in units),
        "chars": sum(len(u.text) for u in units),
    }


def main(argv: list[str] | None = None) -> None:
    """``python -m finagent.retrieval.legal FILE [--code nk] [--part N]``: print parse stats."""
    import argparse
    import json
    from pathlib import Path

    parser = argparse.ArgumentParser(description="Parse a code's text and print statistics")
    parser.add_argument("path", type=Path)
    parser.add_argument("--code", default="nk")
    parser.add_argument("--part", type=int, default=None)
    parser.add_argument("--chunk-size", type=int, default=1500)
    args = parser.parse_args(argv)
    units = parse_code(args.path.read_text(encoding="utf-8"), args.code, args.part)
    stats: dict[str, object] = dict(parse_stats(units))
    stats["chunks"] = len(chunk_units(units, max_chars=args.chunk_size))
    ids = article_ids(units)
    stats["first_article"], stats["last_article"] = ids[0], ids[-1]
    print(json.dumps(stats, ensure_ascii=False))


if __name__ == "__main__":
    main()
