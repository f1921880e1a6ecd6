"""The answer's last stages: its context, the checks (citations, references, figures) and
the final text with its source list."""

from __future__ import annotations

from collections.abc import Mapping
from datetime import date
from typing import Any

from finagent.answering import messages
from finagent.answering.abstention import Abstention, render_abstention
from finagent.answering.context import (
    AnswerContext,
    build_context,
    cited_numbers,
    drop_unknown_citations,
    render_sources,
    renumber,
    strip_sources_section,
)
from finagent.answering.edition import dating_warning, edition_notes, with_dating_warning
from finagent.answering.evidence import candidates, rank
from finagent.answering.extractive import compose_extractive, compose_key_facts
from finagent.answering.figures import check_figures
from finagent.answering.reference_check import check_references
from finagent.bootstrap import Deps
from finagent.observability import get_logger, redact
from finagent.state import AgentState, Chunk, Decision, ExternalData, Scenario, Source

log = get_logger("finagent.answer")


def context_of(
    deps: Deps, state: AgentState, titles: Mapping[str, str] | None = None
) -> AnswerContext:
    """The answer's context; ``titles`` (document id -> its card's title) name the user's
    documents by their own heading, whatever title their passages were indexed under."""
    chunks = list(state.get("chunks") or [])
    if titles:
        chunks = [_titled(c, titles) for c in chunks]
    ctx = build_context(
        chunks,
        list(state.get("external") or []),
        deps.settings.max_context_chars,
    )
    ctx.notices = [*list(state.get("notices") or []), *ctx.notices]
    return ctx


def _titled(chunk: Chunk, titles: Mapping[str, str]) -> Chunk:
    title = titles.get(chunk.document_id or "") if chunk.source == "user_docs" else None
    return chunk.model_copy(update={"title": title}) if title and title != chunk.title else chunk


def tool_sources(ctx: AnswerContext, tool_results: list[ExternalData]) -> list[Source]:
    start = len(ctx.sources) + 1
    return [
        Source(number=start + i, title=r.source_note, kind="web", reference=r.tool)
        for i, r in enumerate(tool_results)
    ]


_DOCUMENT_SCENARIOS = {Scenario.ALL_DOCUMENTS, Scenario.FULL_DOCUMENTS, Scenario.SELECTED_SEARCH}


def finalise(body: str, sources: list[Source], notices: list[str]) -> tuple[str, dict[str, Any]]:
    """The text a user reads, and its debug: ``source_numbers`` maps each context source
    number to the one shown (:func:`renumber`)."""
    body = redact(body)  # the LLM may repeat a secret it saw in a question or a tool result
    body = drop_unknown_citations(strip_sources_section(body), sources)
    body, sources, numbers = renumber(body, sources)
    head = "\n".join(f"> {n}" for n in dict.fromkeys(notices))
    text = f"{head}\n\n{body}" if head else body
    return text.strip() + "\n\n" + render_sources(sources, body), {"source_numbers": numbers}


def allowed_sources(decision: Decision, sources: list[Source]) -> list[Source]:
    """In the document scenarios an answer may cite only the user's own documents."""
    if decision.scenario in _DOCUMENT_SCENARIOS:
        return [s for s in sources if s.kind == "user_docs"]
    return sources


def cited_units(ctx: AnswerContext, body: str) -> list[str]:
    """Unit ids of the law passages whose source numbers the answer cites."""
    cited = set(cited_numbers(body))
    units = [
        str(c.metadata["unit_id"])
        for c, n in zip(ctx.chunks, ctx.chunk_numbers, strict=True)
        if n in cited and c.metadata.get("unit_id")
    ]
    return list(dict.fromkeys(units))


def is_knowledge_question(decision: Decision) -> bool:
    return decision.scenario == Scenario.ROUTED and "kb" in decision.intents


async def fallback(
    deps: Deps,
    query: str,
    ctx: AnswerContext,
    decision: Decision,
    check: bool,
    as_of: date | None,
    note: str = messages.LLM_UNAVAILABLE_NOTE,
) -> tuple[str, dict[str, Any]]:
    """The extractive answer when the LLM fails or its reply fails a check, with the same
    checks (``as_of``: the question's date, given whenever ``check`` is); ``note`` says why
    the model's answer is not shown."""
    if not check or as_of is None:
        body = compose_extractive(query, ctx, note)
        return finalise(body, ctx.sources, ctx.notices)
    ranked, _ = await rank(query, candidates(ctx), deps.embedder)
    body = compose_key_facts(ctx, ranked, note=note)
    return await verified(deps, body, ctx, decision, ctx.sources, as_of, known=[query])


def cited_texts(
    ctx: AnswerContext, body: str, extra: list[ExternalData] | None = None
) -> list[str]:
    """Texts of the sources ``body`` cites: passages with their title and citation label,
    and live data (the context's and the tools')."""
    cited = set(cited_numbers(body))
    texts = [
        f"{c.title or ''}\n{c.metadata.get('citation') or ''}\n{c.text}"
        for c, n in zip(ctx.chunks, ctx.chunk_numbers, strict=True)
        if n in cited
    ]
    texts += [item.content for item in ctx.external]
    texts += [item.content for item in extra or []]
    return texts


async def verified(
    deps: Deps,
    body: str,
    ctx: AnswerContext,
    decision: Decision,
    sources: list[Source],
    as_of: date,
    known: list[str] | None = None,
    tool_results: list[ExternalData] | None = None,
) -> tuple[str, dict[str, Any]]:
    """The final text with only supported references, figures and allowed citations, and
    the dating warning first when its sources predate the year of ``as_of`` (the
    question's date).

    ``known`` are texts whose figures count as supported besides the cited sources: the
    question, quoted card sentences."""
    allowed = allowed_sources(decision, sources)
    body = drop_unknown_citations(strip_sources_section(redact(body)), allowed)
    body, report = await check_references(body, ctx.chunks, deps.catalog)
    if report.removed:
        log.warning("unsupported_references", count=len(report.removed))
    body, figures = check_figures(body, [*cited_texts(ctx, body, tool_results), *(known or [])])
    if figures.removed:
        log.warning("unsupported_figures", count=len(figures.removed))
    cited = set(cited_numbers(body))
    cited_chunks = [c for c, n in zip(ctx.chunks, ctx.chunk_numbers, strict=True) if n in cited]
    notes = edition_notes(cited_chunks)
    if notes:  # which edition of the code, which review date of the article
        body += "\n\n" + "\n".join(f"_{n}_" for n in notes)
    # after every check: the warning's own dates are not claims to verify. An answer that
    # cites nothing is dated by everything it was given.
    warning = dating_warning(as_of, cited_chunks if cited else ctx.chunks)
    body = with_dating_warning(body, warning)
    text, numbering = finalise(body, allowed, ctx.notices)
    checked = {
        "references": report.as_debug(),
        "figures": figures.as_debug(),
        "cited_units": cited_units(ctx, body),
    }
    return text, {**checked, **numbering}


def abstention_update(abstention: Abstention, best: float | None) -> dict[str, Any]:
    """The state update of an answer that abstains (the caller saves the turn)."""
    text = render_abstention(abstention) + "\n\n" + render_sources([], "")
    log.info("answer_abstained", kind=abstention.kind)
    return {
        "answer": text,
        "debug": {
            "answer_mode": "abstained",
            "abstained": abstention.kind,
            "best_similarity": best,
            "cited_units": [],
        },
    }
