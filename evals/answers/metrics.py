"""Deterministic per-answer scores and their aggregation.

Every score reads the agent's *outputs* (a plain dict, see :func:`outputs_from_result`)
and the dataset item; nothing here calls a model.

* **Citations.** The cited units are ``debug["cited_units"]`` (unit ids of the law
  sources cited in the final answer); when the answer node does not report them, the
  ``unit_id`` of every retrieved chunk whose source number ``[n]`` the answer cites.
  Article level compares their articles with ``expected_articles``, point level the
  units with ``expected_units``. precision = cited and expected / cited; recall =
  expected and cited / expected. Scored on answerable items, and recall also on
  ``after_edition`` traps that list expected units. An answer citing nothing has no
  precision (left out of the mean) and recall 0.
* **Key fact.** ``key_fact`` occurs in the answer body (the text before «## Источники»),
  both sides lower-cased, ё read as е and whitespace collapsed.
* **Abstention.** Traps other than ``after_edition`` pass when the answer contains
  «нет оснований для ответа» and its Краткий вывод (the whole body when it has no such
  section) states no figure: no number other than the question's own once citation
  markers and legal references are removed. ``after_edition`` traps pass when the answer
  warns «норма могла измениться». The marker on an answerable item is a false abstention.
* **References.** Every legal reference in the body (:func:`find_references`) is
  *supported* when it resolves to a unit of the ingested Tax Code (no code or НК РФ; the
  article exists and, when a point is named and the article has points, that point too)
  and its article is among the retrieved sources. Otherwise it is *unsupported*, except
  when it sits in a passage quoted verbatim from a retrieved source: the sentence holding
  it, or the «...» quotation holding it (a trailing «…» of a cut quotation dropped), with
  citation markers like ``[3]`` removed, occurs in some retrieved chunk's text
  (whitespace collapsed, case and ё normalised, at least 25 characters). Those are
  counted as *quoted*, separately: the Code's own cross-references inside a quotation.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals.answers.dataset import AnswerItem
from finagent.legal.references import LegalReference, find_references
from finagent.retrieval.legal import parse_code
from finagent.retrieval.legal_units import LegalUnit

ABSTENTION_MARKER = "нет оснований для ответа"
EDITION_MARKER = "норма могла измениться"
MIN_QUOTE_CHARS = 25

_SOURCES = re.compile(r"\n#+\s*Источники\b")
_HEADING = re.compile(r"^#+\s*(.+?)\s*$", re.MULTILINE)
_CITATION = re.compile(r"\[(\d+)\]")
_NUMBER = re.compile(r"\d+(?:[ \u00a0\u202f]\d{3})*(?:[.,]\d+)?")
_SENTENCE_END = re.compile(r"(?<=[.!?…])\s+(?=[«\"(A-ZА-ЯЁ])|\n+")
_LEADING = re.compile(r"^(?:[>*\-•]\s*|\d+[.)]\s+|#+\s*)+")


# --- text helpers ------------------------------------------------------------------------


def normalise(text: str) -> str:
    """Lower case, ё as е, whitespace collapsed (for phrase and quote matching)."""
    return " ".join(text.lower().replace("ё", "е").split())


def answer_body(answer: str) -> str:
    """The answer without its «## Источники» section."""
    return _SOURCES.split("\n" + answer, maxsplit=1)[0].strip()


def summary_section(body: str) -> str | None:
    """The text under the «Краткий вывод» heading up to the next heading, or None."""
    headings = list(_HEADING.finditer(body))
    for i, match in enumerate(headings):
        if normalise(match.group(1)).startswith("краткий вывод"):
            end = headings[i + 1].start() if i + 1 < len(headings) else len(body)
            return body[match.end() : end].strip()
    return None


def _numbers(text: str) -> set[str]:
    return {re.sub(r"\s", "", n).replace(",", ".") for n in _NUMBER.findall(text)}


def figures(text: str, question: str) -> list[str]:
    """Numbers stated in ``text`` that the question does not contain itself.

    Citation markers (``[3]``) and legal references (``п. 2 ст. 88``) are not figures.
    """
    spans = sorted((r.start, r.end) for r in find_references(text))
    kept, last = [], 0
    for start, end in spans:
        if start >= last:
            kept.append(text[last:start])
            last = end
    kept.append(text[last:])
    plain = _CITATION.sub(" ", " ".join(kept))
    own = _numbers(question)
    return sorted(n for n in _numbers(plain) if n not in own)


def article_of(unit_id: str) -> str:
    """``nk1.ch14.art88.p2`` -> ``nk1.ch14.art88`` (an article id is its own article)."""
    return unit_id.split(".p")[0]


# --- outputs -----------------------------------------------------------------------------


def _chunk_fields(chunk: Any) -> tuple[dict[str, Any], str]:
    if isinstance(chunk, dict):
        return dict(chunk.get("metadata") or {}), str(chunk.get("text") or "")
    return dict(getattr(chunk, "metadata", {}) or {}), str(getattr(chunk, "text", "") or "")


def fallback_cited_units(answer: str, used_chunks: Sequence[Any]) -> list[str]:
    """Unit ids of the retrieved law chunks whose source numbers the answer body cites.

    Source numbers are assigned as the answer node does (:func:`build_context`: one number
    per document or legal unit, user documents first).
    """
    from finagent.answering.context import build_context
    from finagent.state import Chunk

    chunks = [c if isinstance(c, Chunk) else Chunk.model_validate(c) for c in used_chunks]
    ctx = build_context(chunks, [], max_chars=10**9)
    cited = {int(n) for n in _CITATION.findall(answer_body(answer))}
    units = [
        str(c.metadata["unit_id"])
        for c, n in zip(ctx.chunks, ctx.chunk_numbers, strict=False)
        if n in cited and c.metadata.get("unit_id")
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
        cited = fallback_cited_units(answer, used)
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
    }


# --- the Tax Code's units ----------------------------------------------------------------


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


# --- per-item scores ---------------------------------------------------------------------


def _sentences(body: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _SENTENCE_END.finditer(body):
        spans.append((start, m.start()))
        start = m.end()
    spans.append((start, len(body)))
    return spans


def _sentence_at(body: str, position: int) -> str:
    for start, end in _sentences(body):
        if start <= position < end or position == end:
            return body[start:end]
    return ""


def is_quoted(passage: str, texts: Sequence[str]) -> bool:
    """The passage, citation markers and list/quote marks removed, occurs in a text."""
    cleaned = _LEADING.sub("", _CITATION.sub(" ", passage).strip())
    needle = normalise(cleaned.strip('«»"“” ')).removesuffix("...").rstrip(" .;:,…")
    if len(needle) < MIN_QUOTE_CHARS:
        return False
    return any(needle in normalise(t) for t in texts)


def _quotation_at(body: str, start: int, end: int) -> str | None:
    """The outermost «...» quotation that holds ``body[start:end]``, or None."""
    depth, opened = 0, -1
    for i, char in enumerate(body):
        if char == "«":
            if depth == 0:
                opened = i
            depth += 1
        elif char == "»" and depth:
            depth -= 1
            if depth == 0:
                if opened <= start and i >= end:
                    return body[opened + 1 : i]
                if opened > end:
                    return None
    return None


def quoted_reference(body: str, ref: LegalReference, texts: Sequence[str]) -> bool:
    """The reference sits in a sentence or a «...» quotation copied from a retrieved text."""
    if is_quoted(_sentence_at(body, ref.start), texts):
        return True
    quotation = _quotation_at(body, ref.start, ref.end)
    return quotation is not None and is_quoted(quotation, texts)


def reference_report(
    outputs: dict[str, Any], code: CodeUnits, question: str = ""
) -> dict[str, Any]:
    """Every legal reference of the answer body, classed as supported, quoted or unsupported.

    An abstention that names a reference of the question as missing («ст. 999 НК РФ нет в
    загруженном тексте») cites nothing: such references are counted as *named missing*.
    """
    answer = str(outputs.get("answer") or "")
    body = answer_body(answer)
    retrieved = list(outputs.get("retrieved") or [])
    articles = {str(r.get("article_id")) for r in retrieved if r.get("article_id")}
    texts = [str(r.get("text") or "") for r in retrieved]
    asked = {ref.label for ref in find_references(question)} if abstained(answer) else set()
    report: dict[str, Any] = {
        "supported": [],
        "quoted": [],
        "unsupported": [],
        "named_missing": [],
    }
    for ref in find_references(body):
        resolved = code.resolve(ref)
        reason = None
        if not resolved:
            reason = "unresolved"
        elif not articles.intersection(resolved):
            reason = "not_retrieved"
        entry = {"text": ref.text, "label": ref.label}
        if reason is None:
            report["supported"].append(entry)
        elif ref.label in asked:
            report["named_missing"].append(entry)
        elif quoted_reference(body, ref, texts):
            report["quoted"].append({**entry, "reason": reason})
        else:
            report["unsupported"].append({**entry, "reason": reason})
    return report


def _ratio(hit: int, total: int) -> float | None:
    return hit / total if total else None


def citation_scores(outputs: dict[str, Any], item: AnswerItem) -> dict[str, float | None]:
    """Article/point recall and precision of the cited units (None when not applicable)."""
    scores: dict[str, float | None] = {
        "article_recall": None,
        "article_precision": None,
        "point_recall": None,
        "point_precision": None,
    }
    cited_units = set(outputs.get("cited_units") or [])
    cited_articles = {article_of(u) for u in cited_units}
    exp_units, exp_articles = set(item.expected_units), set(item.expected_articles)
    if item.counts_for_recall:
        scores["article_recall"] = _ratio(len(exp_articles & cited_articles), len(exp_articles))
        scores["point_recall"] = _ratio(len(exp_units & cited_units), len(exp_units))
    if not item.trap:
        scores["article_precision"] = _ratio(
            len(cited_articles & exp_articles), len(cited_articles)
        )
        scores["point_precision"] = _ratio(len(cited_units & exp_units), len(cited_units))
    return scores


def key_fact_score(outputs: dict[str, Any], item: AnswerItem) -> float | None:
    if item.trap or not item.key_fact:
        return None
    body = answer_body(str(outputs.get("answer") or ""))
    return float(normalise(item.key_fact) in normalise(body))


def abstained(answer: str) -> bool:
    return ABSTENTION_MARKER in normalise(answer)


def abstention_score(outputs: dict[str, Any], item: AnswerItem, question: str) -> float | None:
    """1/0 on trap items (see the module docstring), None on answerable ones."""
    if not item.trap:
        return None
    answer = str(outputs.get("answer") or "")
    if not item.abstention_expected:
        return float(EDITION_MARKER in normalise(answer))
    if not abstained(answer):
        return 0.0
    body = answer_body(answer)
    summary = summary_section(body)
    return float(not figures(body if summary is None else summary, question))


@dataclass
class ItemScores:
    """Everything measured on one answer."""

    id: str
    dataset: str
    trap: bool
    trap_kind: str | None
    article_recall: float | None = None
    article_precision: float | None = None
    point_recall: float | None = None
    point_precision: float | None = None
    key_fact: float | None = None
    trap_abstention: float | None = None
    false_abstention: float | None = None
    unsupported_refs: int = 0
    quoted_refs: int = 0
    supported_refs: int = 0
    named_missing_refs: int = 0
    latency_ms: float = 0.0
    llm_calls: int = 0
    abstained: bool = False
    cited_units: list[str] = field(default_factory=list)
    cited_units_source: str = ""
    unsupported: list[dict[str, Any]] = field(default_factory=list)
    error: str | None = None

    def metric_values(self) -> dict[str, float | None]:
        return {k: getattr(self, k) for k in ITEM_METRICS}


ITEM_METRICS = (
    "article_recall",
    "article_precision",
    "point_recall",
    "point_precision",
    "key_fact",
    "trap_abstention",
    "false_abstention",
    "unsupported_refs",
    "quoted_refs",
    "latency_ms",
    "llm_calls",
)


def score_item(
    item: AnswerItem, question: str, outputs: dict[str, Any] | None, code: CodeUnits
) -> ItemScores:
    """All scores of one answer; a failed run (no outputs) scores as an empty answer."""
    scores = ItemScores(id=item.id, dataset=item.dataset, trap=item.trap, trap_kind=item.trap_kind)
    if outputs is None:
        scores.error = "the agent run failed"
        outputs = {"answer": "", "cited_units": [], "retrieved": []}
    for key, value in citation_scores(outputs, item).items():
        setattr(scores, key, value)
    scores.key_fact = key_fact_score(outputs, item)
    scores.trap_abstention = abstention_score(outputs, item, question)
    scores.abstained = abstained(str(outputs.get("answer") or ""))
    if not item.trap:
        scores.false_abstention = float(scores.abstained)
    refs = reference_report(outputs, code, question)
    scores.unsupported_refs = len(refs["unsupported"])
    scores.quoted_refs = len(refs["quoted"])
    scores.supported_refs = len(refs["supported"])
    scores.named_missing_refs = len(refs["named_missing"])
    scores.unsupported = refs["unsupported"]
    scores.latency_ms = float(outputs.get("latency_ms") or 0.0)
    scores.llm_calls = int(outputs.get("llm_calls") or 0)
    scores.cited_units = list(outputs.get("cited_units") or [])
    scores.cited_units_source = str(outputs.get("cited_units_source") or "")
    return scores


# --- aggregation -------------------------------------------------------------------------


def percentile(values: Sequence[float], q: float) -> float:
    """Nearest-rank percentile (0 for no values)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


def _mean(values: Iterable[float | None]) -> tuple[float | None, int]:
    present = [v for v in values if v is not None]
    return (round(sum(present) / len(present), 3) if present else None), len(present)


def aggregate(items: Sequence[ItemScores]) -> dict[str, Any]:
    """Dataset-level metrics: means over the items each applies to, with their counts."""
    out: dict[str, Any] = {"size": len(items), "errors": sum(1 for i in items if i.error)}
    counts: dict[str, int] = {}
    for key in (
        "article_recall",
        "article_precision",
        "point_recall",
        "point_precision",
        "key_fact",
        "trap_abstention",
        "false_abstention",
    ):
        out[key], counts[key] = _mean(getattr(i, key) for i in items)
    out["unsupported_refs"] = sum(i.unsupported_refs for i in items)
    out["quoted_refs"] = sum(i.quoted_refs for i in items)
    out["named_missing_refs"] = sum(i.named_missing_refs for i in items)
    out["supported_refs"] = sum(i.supported_refs for i in items)
    out["answers_with_unsupported"] = sum(1 for i in items if i.unsupported_refs)
    # abstentions may name the missing article and its nearest existing neighbours
    out["unsupported_in_abstentions"] = sum(i.unsupported_refs for i in items if i.abstained)
    latencies = [i.latency_ms for i in items]
    out["latency_p50_ms"] = round(percentile(latencies, 50), 1)
    out["latency_p95_ms"] = round(percentile(latencies, 95), 1)
    out["llm_calls_per_answer"] = round(sum(i.llm_calls for i in items) / max(len(items), 1), 2)
    out["counts"] = counts
    return out


# The targets: (metric, comparison, threshold)
TARGETS: tuple[tuple[str, str, float], ...] = (
    ("key_fact", ">=", 0.80),
    ("article_recall", ">=", 0.95),
    ("point_recall", ">=", 0.85),
    ("point_precision", ">=", 0.60),
    ("trap_abstention", ">=", 0.90),
    ("unsupported_refs", "==", 0),
)


def check_targets(metrics: dict[str, Any]) -> dict[str, bool | None]:
    """Each target met (True/False), or None when the metric had no items."""
    checked: dict[str, bool | None] = {}
    for key, op, threshold in TARGETS:
        value = metrics.get(key)
        if value is None:
            checked[key] = None
        elif op == ">=":
            checked[key] = value >= threshold - 1e-9
        else:
            checked[key] = value == threshold
    return checked
