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
The units are :mod:`~finagent.retrieval.legal_units`, chunking is
:mod:`~finagent.retrieval.legal_chunks`.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import partial

from finagent.retrieval.legal_chunks import chunk_units
from finagent.retrieval.legal_units import LegalUnit

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

    def add_note(self) -> None:
        """Count an amendment note: of the last point read, else of the article."""
        if self.points:
            last = len(self.points) - 1
            self.point_notes[last] = self.point_notes.get(last, 0) + 1
        else:
            self.notes += 1


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
            current.add_note()
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
            current.add_note()
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
