"""Which text an answer rests on, and a warning when the question is about a later period."""

from __future__ import annotations

import re
from datetime import date

from finagent.answering import messages
from finagent.moscow_time import moscow_today
from finagent.retrieval.legal_units import code_name
from finagent.state import Chunk

_YEAR = re.compile(r"(?<!\d)(20\d\d)(?!\d)")
_THIS_YEAR = re.compile(
    r"в\s+(?:этом|текущем|нынешнем)\s+году|на\s+сегодня|в\s+настоящее\s+время", re.I
)
_NEXT_YEAR = re.compile(r"в\s+(?:следующем|будущем|наступающем)\s+году|на\s+следующий\s+год", re.I)


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
    """«Ответ основан на тексте НК РФ в редакции от 27.10.2025.» and KB review dates."""
    notes = []
    for label, when in source_dates(chunks):
        if label.startswith("kb:"):
            title = label[3:]
            notes.append(
                messages.KB_REVIEWED_NOTE.format(title=title, date=_ru_date(when))
                if when
                else messages.KB_UNREVIEWED_NOTE.format(title=title)
            )
        elif when:
            notes.append(messages.EDITION_NOTE.format(code=label, date=_ru_date(when)))
    return notes


def asked_year(query: str, today: date) -> int | None:
    """The latest year the question is about (explicit, «в этом году», «в следующем году»)."""
    years = [int(y) for y in _YEAR.findall(query)]
    if _THIS_YEAR.search(query):
        years.append(today.year)
    if _NEXT_YEAR.search(query):
        years.append(today.year + 1)
    return max(years) if years else None


def period_warning(query: str, chunks: list[Chunk], today: date | None = None) -> str | None:
    """A warning when the question is about a year after every source's date."""
    year = asked_year(query, today or moscow_today())
    if year is None:
        return None
    dated = [(label, when) for label, when in source_dates(chunks) if when]
    if not dated:
        if not any(c.source in ("law", "kb") for c in chunks):
            return None
        edition = "дата редакции источника не указана"
        return messages.PERIOD_WARNING.format(period=f"{year} году", edition=edition)
    latest_label, latest = max(dated, key=lambda item: item[1] or "")
    if year <= int(str(latest)[:4]):
        return None
    label = latest_label[3:] if latest_label.startswith("kb:") else latest_label
    edition = f"{label}, редакция от {_ru_date(str(latest))}"
    return messages.PERIOD_WARNING.format(period=f"{year} году", edition=edition)
