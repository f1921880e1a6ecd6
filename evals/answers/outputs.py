"""The agent's outputs as the scores read them: a plain dict built from its result."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from evals.answers.text import CITATION, answer_body, article_of


def _chunk_fields(chunk: Any) -> tuple[dict[str, Any], str]:
    if isinstance(chunk, dict):
        return dict(chunk.get("metadata") or {}), str(chunk.get("text") or "")
    return dict(getattr(chunk, "metadata", {}) or {}), str(getattr(chunk, "text", "") or "")


def fallback_cited_units(
    answer: str, used_chunks: Sequence[Any], numbers: Sequence[Sequence[int]] | None = None
) -> list[str]:
    """Unit ids of the retrieved law chunks whose source numbers the answer body cites.

    Source numbers are assigned as the answer node does (:func:`build_context`: one number
    per document or legal unit, user documents first), then mapped to the numbers the
    answer shows (``numbers``: ``debug["source_numbers"]``, pairs ``[context, shown]``).
    """
    from finagent.answering.context import build_context
    from finagent.state import Chunk

    chunks = [c if isinstance(c, Chunk) else Chunk.model_validate(c) for c in used_chunks]
    ctx = build_context(chunks, [], max_chars=10**9)
    cited = {int(n) for n in CITATION.findall(answer_body(answer))}
    shown = {int(old): int(new) for old, new in numbers or []}
    units = [
        str(c.metadata["unit_id"])
        for c, n in zip(ctx.chunks, ctx.chunk_numbers, strict=False)
        if shown.get(n, n) in cited and c.metadata.get("unit_id")
    ]
    return list(dict.fromkeys(units))


def outputs_from_result(
    result: Any, *, latency_ms: float = 0.0, llm_calls: int = 0
) -> dict[str, Any]:
    """The evaluators' view of an ``AgentResult`` (or any object with the same fields)."""
    debug = dict(getattr(result, "debug", None) or {})
    answer = str(getattr(result, "answer", "") or "")
    used = list(getattr(result, "used_chunks", None) or [])
    if isinstance(debug.get("cited_units"), list):
        cited = [str(u) for u in debug["cited_units"]]
        origin = "debug"
    else:
        cited = fallback_cited_units(answer, used, debug.get("source_numbers"))
        origin = "citations"
    retrieved = []
    for chunk in used:
        meta, text = _chunk_fields(chunk)
        unit = str(meta.get("unit_id") or "")
        retrieved.append(
            {
                "unit_id": unit,
                "article_id": str(meta.get("article_id") or (article_of(unit) if unit else "")),
                "text": text,
            }
        )
    return {
        "answer": answer,
        "cited_units": cited,
        "cited_units_source": origin,
        "retrieved": retrieved,
        "latency_ms": round(latency_ms, 1),
        "llm_calls": llm_calls,
        "answer_mode": debug.get("answer_mode"),
        "scenario": getattr(result, "scenario", None),
        "llm_path": llm_path(debug),
    }


def llm_path(debug: dict[str, Any]) -> dict[str, Any]:
    """What the LLM did in one run (the real-model lane's columns): whose decision routed,
    why the LLM's was not taken, which output check replaced its answer, text tool calls,
    and what the copy checks measured on the reply."""
    decision = debug.get("decision") or {}
    fallback = debug.get("orchestrator_fallback")
    if isinstance(fallback, dict):
        fallback = fallback.get("error_kind")
    cross = debug.get("routing_cross_check") or {}
    llm_route = (cross.get("llm") or {}).get("scenario")
    return {
        "decision_source": decision.get("source"),
        "llm_route": f"S{llm_route}" if llm_route is not None else None,
        "orchestrator_fallback": fallback,
        "decided_by": cross.get("decided_by"),
        "output_check": debug.get("output_check"),
        "text_tool_calls": debug.get("text_tool_calls"),
        "reply_shares": debug.get("reply_shares"),
        "rejected_reply": debug.get("rejected_reply"),
    }
