"""Builds the answer context in sections and the numbered source list, in code."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date

from finagent.moscow_time import moscow_today
from finagent.state import Chunk, ChunkSource, ExternalData, Source

SECTION_TITLES = {
    "facts": "General Facts",
    "docs": "User Documents",
    "kb": "Knowledge Base",
    "external": "External Data",
}
_CITATION = re.compile(r"\[(\d{1,3})\]")


@dataclass
class AnswerContext:
    text: str
    sources: list[Source] = field(default_factory=list)
    chunks: list[Chunk] = field(default_factory=list)  # in citation order
    external: list[ExternalData] = field(default_factory=list)
    notices: list[str] = field(default_factory=list)
    unavailable: list[str] = field(default_factory=list)  # notices of failed live sources
    chunk_numbers: list[int] = field(default_factory=list)  # source number of each chunk


def _source_key(chunk: Chunk) -> str:
    unit = chunk.metadata.get("unit_id")
    return f"{chunk.source}:{unit or chunk.document_id or chunk.title or chunk.id}"


def _source_for(number: int, chunk: Chunk) -> Source:
    reference = chunk.metadata.get("citation") or chunk.metadata.get("path") or ""
    if chunk.source == "user_docs":  # the file the user uploaded, not an internal id
        filename = chunk.metadata.get("filename")
        reference = f"файл {filename}" if filename else f"документ {chunk.document_id or ''}"
    return Source(
        number=number, title=chunk.title or chunk.id, kind=chunk.source, reference=str(reference)
    )


def build_context(
    chunks: list[Chunk],
    external: list[ExternalData],
    max_chars: int,
    today: date | None = None,
) -> AnswerContext:
    """Sections General Facts / User Documents / Knowledge Base / External Data within max_chars."""
    today = today or moscow_today()
    budget = max_chars
    ctx = AnswerContext(text="")
    facts = f"### {SECTION_TITLES['facts']}\nСегодня: {today.isoformat()}."
    parts = [facts]
    budget -= len(facts)
    docs = [c for c in chunks if c.source == "user_docs"]
    kb = [c for c in chunks if c.source != "user_docs"]
    numbers: dict[str, int] = {}  # one source number per document (or legal unit)
    for key, group in (("docs", docs), ("kb", kb)):
        lines: list[str] = []
        for chunk in group:
            source_key = _source_key(chunk)
            number = numbers.get(source_key, len(ctx.sources) + 1)
            label = chunk.metadata.get("citation") or chunk.title
            entry = f"[{number}] {label}\n{chunk.text}"
            if len(entry) > budget:
                entry = entry[: max(0, budget)]
                if len(entry) < 200:
                    break
            budget -= len(entry)
            lines.append(entry)
            if source_key not in numbers:
                numbers[source_key] = number
                ctx.sources.append(_source_for(number, chunk))
            ctx.chunks.append(chunk)
            ctx.chunk_numbers.append(number)
        if lines:
            parts.append(f"### {SECTION_TITLES[key]}\n" + "\n\n".join(lines))
    ext_lines = []
    for item in external:
        if not item.ok:
            ctx.notices.append(item.content)
            ctx.unavailable.append(item.content)
            continue
        number = len(ctx.sources) + 1
        entry = f"[{number}] [Источник: {item.source_note}] ({item.tool})\n{item.content}"
        entry = entry[: max(0, budget)]
        if not entry:
            break
        budget -= len(entry)
        ext_lines.append(entry)
        ctx.sources.append(
            Source(number=number, title=item.source_note, kind=_kind(item), reference=item.tool)
        )
        ctx.external.append(item)
    if ext_lines:
        parts.append(f"### {SECTION_TITLES['external']}\n" + "\n\n".join(ext_lines))
    ctx.text = "\n\n".join(parts)
    return ctx


_KINDS: dict[str, ChunkSource] = {
    "cbr.ru": "cbr",
    "tavily.com": "news",
    "внутренний поиск": "internal",
    "документы пользователя": "user_docs",
    "база знаний": "kb",
}


def _kind(item: ExternalData) -> ChunkSource:
    return _KINDS.get(item.source_note, "web")


def cited_numbers(text: str) -> list[int]:
    return sorted({int(n) for n in _CITATION.findall(text)})


def renumber(body: str, sources: list[Source]) -> tuple[str, list[Source], list[list[int]]]:
    """Consecutive citation numbers: the sources the body cites become [1], [2], ... in
    the order of their first citation, the others follow in their order.

    The context numbers every retrieved source, and an answer cites only some of them;
    without this the reader sees [1] and [3] with no [2]. Returns the body, the sources
    with their new numbers (in number order) and the ``[old, new]`` pairs."""
    known = {s.number for s in sources}
    cited = [n for n in dict.fromkeys(int(m) for m in _CITATION.findall(body)) if n in known]
    rest = [s.number for s in sources if s.number not in set(cited)]
    new_number = {old: new for new, old in enumerate([*cited, *rest], start=1)}

    def swap(match: re.Match[str]) -> str:
        number = int(match.group(1))
        return f"[{new_number[number]}]" if number in new_number else match.group(0)

    renumbered = sorted(
        (s.model_copy(update={"number": new_number[s.number]}) for s in sources),
        key=lambda s: s.number,
    )
    return _CITATION.sub(swap, body), renumbered, [[old, new] for old, new in new_number.items()]


def render_sources(sources: list[Source], answer: str) -> str:
    """The Источники section: sources cited in ``answer`` (all of them if none were cited)."""
    cited = set(cited_numbers(answer))
    chosen = [s for s in sources if s.number in cited] or sources
    if not chosen:
        return "## Источники\nИсточники не использовались."
    lines = []
    for source in chosen:
        shown = source.reference and source.reference not in source.title
        ref = f" — {source.reference}" if shown else ""
        lines.append(f"[{source.number}] {source.title}{ref}")
    return "## Источники\n" + "\n".join(lines)


def strip_sources_section(answer: str) -> str:
    """Drop any source list the LLM wrote itself: ours is built from what was retrieved."""
    return re.split(r"\n#+\s*Источники\s*\n?", "\n" + answer, maxsplit=1)[0].strip()


def drop_unknown_citations(answer: str, sources: list[Source]) -> str:
    """Remove citation numbers that point to nothing we retrieved."""
    known = {s.number for s in sources}
    return _CITATION.sub(lambda m: m.group(0) if int(m.group(1)) in known else "", answer)
