"""Which text an answer rests on, and the first-line warning when every source predates the
year the question is about (Russian tax rules mostly change on 1 January)."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date

from finagent.answering import messages
from finagent.retrieval.legal_units import code_name
from finagent.state import Chunk


def _ru_date(iso: str) -> str:
    try:
        return date.fromisoformat(iso).strftime("%d.%m.%Y")
    except ValueError:
        return iso


def source_dates(chunks: list[Chunk]) -> list[tuple[str, str | None]]:
    """(label, ISO date or None) of each cited code edition and knowledge-base article."""
    seen: dict[str, str | None] = {}
    for chunk in chunks:
        if chunk.source == "law":
            label = code_name(str(chunk.metadata.get("code") or "nk"))
            edition = chunk.metadata.get("edition")
            if edition and (seen.get(label) or "") < edition:
                seen[label] = str(edition)
            seen.setdefault(label, None)
        elif chunk.source == "kb":
            seen.setdefault(f"kb:{chunk.title}", chunk.metadata.get("reviewed_at"))
    return list(seen.items())


def edition_notes(chunks: list[Chunk]) -> list[str]:
    """«Ответ основан на тексте НК РФ в редакции от 27.10.2025.», KB review dates and, for
    an unreviewed article, the date its figures apply from."""
    applies = {
        f"kb:{c.title}": c.metadata.get("applies_from")
        for c in chunks
        if c.source == "kb" and c.metadata.get("applies_from")
    }
    notes = []
    for label, when in source_dates(chunks):
        if label.startswith("kb:"):
            title = label[3:]
            if when:
                notes.append(messages.KB_REVIEWED_NOTE.format(title=title, date=_ru_date(when)))
            elif applies.get(label):
                day = _ru_date(str(applies[label]))
                notes.append(messages.KB_APPLIES_NOTE.format(title=title, date=day))
            else:
                notes.append(messages.KB_UNREVIEWED_NOTE.format(title=title))
        elif when:
            notes.append(messages.EDITION_NOTE.format(code=label, date=_ru_date(when)))
    return notes


@dataclass(frozen=True)
class SourceDate:
    """The date a cited law or knowledge-base source speaks for, and how to name it."""

    when: date
    what: str  # «редакция НК РФ», «статья базы знаний «…»»


def _iso(value: object) -> date | None:
    try:
        return date.fromisoformat(str(value)) if value else None
    except ValueError:
        return None


def source_date(chunk: Chunk) -> SourceDate | None:
    """A code's edition; an article's review or applicability date (the later one); None
    for other sources and for undated ones."""
    if chunk.source == "law":
        when = _iso(chunk.metadata.get("edition"))
        what = f"редакция {code_name(str(chunk.metadata.get('code') or 'nk'))}"
    elif chunk.source == "kb":
        dates = [_iso(chunk.metadata.get(k)) for k in ("reviewed_at", "applies_from")]
        when = max((d for d in dates if d), default=None)
        what = f"статья базы знаний «{chunk.title}»"
    else:
        return None
    return SourceDate(when, what) if when else None


def dating_warning(question_as_of: date, sources: Sequence[Chunk]) -> str | None:
    """The Russian first-line warning when every dated law or knowledge-base source is
    older than 1 January of the year the question is about (implicit «now» included);
    None when one of them is as new, or none is dated (the edition notes say so)."""
    dated = [d for d in map(source_date, sources) if d is not None]
    if not dated:
        return None
    latest = max(dated, key=lambda d: d.when)
    if latest.when >= date(question_as_of.year, 1, 1):
        return None
    return messages.DATING_WARNING.format(
        date=latest.when.strftime("%d.%m.%Y"), what=latest.what, year=question_as_of.year
    )


_SUMMARY_HEADING = re.compile(r"^##\s*Краткий вывод\s*$", re.M)


def with_dating_warning(body: str, warning: str | None) -> str:
    """``body`` with ``warning`` as the first line of its Краткий вывод (of the body when
    it has no such heading); unchanged without a warning or when it is already there."""
    if not warning or warning in body:
        return body
    heading = _SUMMARY_HEADING.search(body)
    if heading is None:
        return f"{warning}\n\n{body.lstrip()}"
    return f"{body[: heading.end()]}\n{warning}\n\n{body[heading.end() :].lstrip()}"


_WARNING_LINE = re.compile(
    rf"^{re.escape(messages.DATING_WARNING.split('{', 1)[0])}.*(?:\n[ \t]*)*(?:\n|$)", re.M
)


def without_dating_warning(text: str) -> str:
    """``text`` without its dating-warning line (scores read the answer, not its date)."""
    return _WARNING_LINE.sub("", text)
