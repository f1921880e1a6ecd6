"""Offline answers: the best passages arranged in the answer format, with citations."""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache

from finagent.answering.context import AnswerContext, render_sources
from finagent.answering.evidence import Candidate
from finagent.answering.messages import CODE_NORM, NOTHING_FOUND
from finagent.text_normalize import normalize

_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[А-ЯA-Z0-9«\"(])")
_WORD = re.compile(r"[a-zа-я0-9]+")
_STOP = {
    "и",
    "в",
    "во",
    "на",
    "по",
    "о",
    "об",
    "с",
    "со",
    "к",
    "ко",
    "у",
    "за",
    "из",
    "для",
    "от",
    "до",
    "не",
    "ли",
    "же",
    "а",
    "но",
    "или",
    "что",
    "как",
    "какой",
    "какая",
    "какие",
    "это",
    "мне",
    "я",
    "мой",
    "моем",
    "моих",
    "есть",
    "сколько",
    "когда",
    "где",
    "найди",
}


def _stems(text: str) -> set[str]:
    return {w[:5] for w in _WORD.findall(normalize(text)) if w not in _STOP and len(w) > 2}


_LIST_MARK = re.compile(r"^(?:[-*•–—]\s+|\d{1,2}\)\s+)")
_INLINE_MARKUP = re.compile(r"\*\*|__|`")
_HEADING = re.compile(r"^#{1,6}\s*")
_LETTER = re.compile(r"[A-Za-zА-Яа-яЁё]")
MIN_SENTENCE_CHARS = 12


@lru_cache(maxsize=16_384)  # by sentence text, quoted again for every question: bounded
def clean_sentence(sentence: str) -> str:
    """A quotable sentence: no list markers, heading marks, bold/code markup or table
    pipes (a table row becomes «cell; cell»); empty when nothing readable is left."""
    text = _INLINE_MARKUP.sub("", sentence).strip()
    text = _HEADING.sub("", text)
    text = _LIST_MARK.sub("", text).strip()
    if "|" in text:
        cells = [c.strip() for c in text.strip("|").split("|")]
        text = "; ".join(c for c in cells if c and not set(c) <= set("-: "))
    text = " ".join(text.split())
    if len(text) < MIN_SENTENCE_CHARS or not _LETTER.search(text):
        return ""
    return text


def render_details(items: list[tuple[str, str, int]]) -> list[str]:
    """Bullets of ``(label, sentence, number)``: each label once (in bold), each sentence
    on its own line with its citation, so nothing from different places is glued."""
    grouped: dict[str, list[tuple[str, int]]] = {}
    for label, sentence, number in items:
        quotes = grouped.setdefault(label, [])
        if sentence not in (q for q, _ in quotes):
            quotes.append((sentence, number))
    lines = []
    for label, quotes in grouped.items():
        if len(quotes) == 1:
            sentence, number = quotes[0]
            lines.append(f"- **{label}**: {sentence} [{number}]")
            continue
        lines.append(f"- **{label}**:")
        lines.extend(f"  - {sentence} [{number}]" for sentence, number in quotes)
    return lines


def _best_sentences(text: str, query_stems: set[str], limit: int) -> list[str]:
    """The ``limit`` sentences sharing most words with the query, best first."""
    lines = [ln.strip() for ln in text.splitlines()[1:] if ln.strip()] or [text]
    sentences = [
        cleaned
        for line in lines
        if not line.startswith("#") and not set(line) <= set("|-: ")
        for s in _SENTENCE.split(line)
        if (cleaned := clean_sentence(s))
    ]
    ranked = sorted(
        enumerate(sentences),
        key=lambda pair: (-len(_stems(pair[1]) & query_stems), pair[0]),
    )
    return [s if len(s) <= 400 else s[:400].rsplit(" ", 1)[0] + "…" for _, s in ranked[:limit]]


def _add_live_data(ctx: AnswerContext, summary: list[str], details: list[str]) -> None:
    """Live-data results (rates, news) first: their first line sums them up."""
    external_start = len(ctx.sources) - len(ctx.external) + 1
    for offset, item in enumerate(ctx.external):
        number = external_start + offset
        first = item.content.strip().splitlines()[0] if item.content.strip() else ""
        summary.append(f"{first} [Источник: {item.source_note}] [{number}]")
        details.append(
            f"- **{item.tool}** [Источник: {item.source_note}] [{number}]:\n"
            f"  {item.content.strip()[:1500]}"
        )


def compose_extractive(query: str, ctx: AnswerContext, note: str | None = None) -> str:
    """Краткий вывод / Подробный анализ / Источники from retrieved passages and live data."""
    if not ctx.chunks and not ctx.external:
        return f"## Краткий вывод\n{NOTHING_FOUND}\n\n## Подробный анализ\n{NOTHING_FOUND}"
    stems = _stems(query)
    numbered = {id(c): n for c, n in zip(ctx.chunks, ctx.chunk_numbers, strict=True)}
    summary: list[str] = []
    details: list[str] = []
    _add_live_data(ctx, summary, details)
    items: list[tuple[str, str, int]] = []
    for chunk in ctx.chunks[:4]:
        number = numbered[id(chunk)]
        sentences = _best_sentences(chunk.text, stems, 2)
        if not sentences:
            continue
        if len(summary) < 1:
            summary.append(f"{sentences[0]} [{number}]")
        label = chunk.metadata.get("citation") or chunk.title
        items.extend((label, sentence, number) for sentence in sentences)
    details.extend(render_details(items))
    answer = "## Краткий вывод\n" + " ".join(summary[:2])
    answer += "\n\n## Подробный анализ\n" + "\n".join(details)
    if note:
        answer += f"\n\n{note}"
    return answer + "\n\n" + render_sources(ctx.sources, answer)


MAX_SOURCES = 3
# Code sentences the details add as «Норма НК РФ» at most (each one not quoted yet)
MAX_NORMS = 2
SENTENCES_PER_SOURCE = 3
SOURCE_MARGIN = 0.02  # calibrated on the team's answer set (docs/answers.md)
# the same for the learned ranker's scores (logit units): a source whose best sentence
# scores this close to the best one is quoted in the details too
LEARNED_SOURCE_MARGIN = 3.0


def _distinct(ranked: list[Candidate], limit: int | None = None) -> list[Candidate]:
    """Candidates best first without one that repeats a better one: a list item is also
    quoted inside its introduction (:func:`finagent.answering.evidence.sentences_of`).
    The first ``limit`` of them when given (a candidate is kept or dropped by the better
    ones only: the later ones need not be read)."""
    kept: list[tuple[Candidate, str]] = []
    for c in ranked:
        if limit is not None and len(kept) >= limit:
            break
        text = clean_sentence(c.sentence).rstrip(".;,…")
        if not any(text in other or other in text for _, other in kept):
            kept.append((c, text))
    return [c for c, _ in kept]


def quoted(candidate: Candidate) -> str:
    """The candidate in quotation marks; a list item after its introduction, each quoted
    as written («К региональным налогам относятся:» … «транспортный налог.»): the item
    alone does not say what it is an item of."""
    sentence = f"«{clean_sentence(candidate.sentence)}»"
    lead = clean_sentence(candidate.context)
    if not lead or lead in candidate.sentence:
        return sentence
    return f"«{lead}» … {sentence}"


def quote_lead(candidate: Candidate) -> str:
    chunk = candidate.chunk
    if chunk.source == "law" and chunk.metadata.get("citation"):
        return f"Согласно {chunk.metadata['citation']}:"
    if chunk.source == "user_docs":
        return f"В документе «{chunk.title}»:"
    return f"В статье базы знаний «{chunk.title}»:"


def compose_key_facts(
    ctx: AnswerContext,
    ranked: list[Candidate],
    warning: str | None = None,
    note: str | None = None,
    lead: list[str] | None = None,
    more: list[Candidate] | None = None,
    norm: Callable[[list[Candidate], list[str]], Candidate | None] | None = None,
    after_lead: str | None = None,
    max_norms: int = MAX_NORMS,
) -> str:
    """Offline answer whose Краткий вывод quotes the key fact verbatim, each with its [n].

    ``ranked`` are the candidate sentences best first (:mod:`finagent.answering.evidence`);
    ``lead``, when given, is the Краткий вывод instead of the quoted best sentences (the
    direct composer's value line and quotes, :mod:`finagent.answering.direct`); ``more``
    are quoted after it (the answers to a question's further parts); ``norm``, given the
    candidates and what the answer quotes, picks a Code sentence the details add as
    «Норма НК РФ» (:mod:`finagent.answering.code_norm`), asked again up to ``max_norms``
    times; ``after_lead`` stands right after the lead (first when there is none: the notice
    of a failed live source whose question is about the past,
    :mod:`finagent.answering.live_offline`).
    """
    if not ctx.chunks and not ctx.external:
        return f"## Краткий вывод\n{NOTHING_FOUND}\n\n## Подробный анализ\n{NOTHING_FOUND}"
    summary: list[str] = [warning] if warning else []
    details: list[str] = []
    _add_live_data(ctx, summary, details)
    ranked = [c for c in ranked if clean_sentence(c.sentence)]
    if lead:
        summary.extend(lead)
    elif ranked:
        top = ranked[0]
        summary.append(f"{quote_lead(top)} «{clean_sentence(top.sentence)}» [{top.number}]")
        runner_up = next((c for c in ranked[1:] if c.number != top.number), None)
        if runner_up is not None and runner_up.score >= top.score - 0.01:
            quote = clean_sentence(runner_up.sentence)
            summary.append(f"{quote_lead(runner_up)} «{quote}» [{runner_up.number}]")
    if after_lead:
        summary.append(after_lead)
    for c in more or []:
        quote = clean_sentence(c.sentence)
        if quote and not any(quote in line for line in summary):
            summary.append(f"{quote_lead(c)} «{quote}» [{c.number}]")
    by_number: dict[int, list[Candidate]] = {}
    for c in ranked:
        by_number.setdefault(c.number, []).append(c)
    top_score = ranked[0].score if ranked else 0.0
    margin = LEARNED_SOURCE_MARGIN if ranked and ranked[0].learned else SOURCE_MARGIN
    # only sources nearly as close to the question as the best one: fewer, surer citations
    chosen = [n for n, group in by_number.items() if group[0].score >= top_score - margin]
    items: list[tuple[str, str, int]] = []
    for number in chosen[:MAX_SOURCES]:
        best = sorted(_distinct(by_number[number], SENTENCES_PER_SOURCE), key=lambda c: c.position)
        label = best[0].chunk.metadata.get("citation") or best[0].chunk.title
        items.extend((label, quoted(c), number) for c in best)
    for _ in range(max_norms if norm is not None else 0):
        extra = norm(ranked, [*summary, *(q for _, q, _ in items)]) if norm else None
        if extra is None:
            break
        citation = extra.chunk.metadata.get("citation") or extra.chunk.title
        items.append((f"{CODE_NORM}, {citation}", quoted(extra), extra.number))
    details.extend(render_details(items))
    answer = "## Краткий вывод\n" + "\n\n".join(summary)
    answer += "\n\n## Подробный анализ\n" + "\n".join(details)
    if note:
        answer += f"\n\n{note}"
    return answer
