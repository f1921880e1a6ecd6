"""Retrieval benchmark over the Tax Code: recall@k and MRR for BM25, dense, hybrid, expansion.

The code's text is ingested into a temporary embedded index (Qdrant Edge in a temp
dir) through :class:`LawIngestor`; with the embedding cache, reruns cost no model
time. Every method is scored in the same run on the same index:

* ``bm25``    - the Russian BM25 sparse leg alone;
* ``dense``   - the e5 dense leg alone;
* ``hybrid``  - both legs fused by RRF in Qdrant;
* ``hybrid_expansion`` - hybrid over the question and its rule-based reformulations
  (colloquial words mapped to the Code's terms, :func:`expand_query`), fused by RRF.
* ``hybrid_expansion_tax`` - what the agent runs without an LLM: ``hybrid_expansion``
  with the chapter of the tax the question names preferred (:func:`tax_focus`).

Article level: a hit is a chunk of an expected article; point level: a chunk of an
expected unit. recall@k counts questions with a hit in the first k results; MRR uses the
rank of the first hit within the retrieved depth (10). Every method fetches 30 chunks
and keeps the best chunk per unit (:func:`collapse_units`), so one long point split
into several chunks takes one slot.

Several datasets (e.g. the development set and the blind hold-out set) are scored in
one run on one index: per dataset and all questions together, each with the issue's
targets (hybrid article recall@5 >= 0.90 and >= 10 points above the better single leg).
"""

from __future__ import annotations

import json
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evals import DATASETS_DIR
from finagent.config import Settings
from finagent.question.build import build_question
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embedding_cache import build_cached_embedder
from finagent.retrieval.embeddings import Embedder
from finagent.retrieval.index import SearchFilter, SearchMode
from finagent.retrieval.law_ingest import LAW_SOURCE, LawIngestor
from finagent.retrieval.retriever import KB, Retriever
from finagent.retrieval.sparse import RussianBm25
from finagent.retrieval.tax_focus import tax_focus
from finagent.routing.expansion import expand_query
from finagent.state import Chunk

METHODS = ("bm25", "dense", "hybrid", "hybrid_expansion", "hybrid_expansion_tax")
KS = (1, 5, 10)
DEPTH = 10
FETCH = 30  # chunks fetched before collapsing chunks of the same unit
ALL = "all"
TAXCODE_FILES = {1: "nk-part1-2025.txt", 2: "nk-part2-2025.txt"}
TARGET_RECALL_AT_5 = 0.90
TARGET_GAIN_OVER_SINGLE = 0.10
SINGLE_LEGS = ("bm25", "dense")


# the development set (expansion rules were tuned on it) and the blind hold-out set
DEFAULT_DATASETS = [
    DATASETS_DIR / "retrieval_taxcode.jsonl",
    DATASETS_DIR / "retrieval_taxcode_holdout.jsonl",
]


@dataclass
class EvalQuestion:
    id: str
    question: str
    expected_articles: list[str]
    expected_units: list[str]
    part: int | None = None
    dataset: str = "dataset"


def load_dataset(path: Path, limit: int | None = None) -> list[EvalQuestion]:
    """Questions of one JSONL file, tagged with the file's stem as their dataset name."""
    rows: list[EvalQuestion] = []
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        data = json.loads(line)
        rows.append(
            EvalQuestion(
                id=data["id"],
                question=data["question"],
                expected_articles=list(data["expected_articles"]),
                expected_units=list(data.get("expected_units", [])),
                part=data.get("part"),
                dataset=path.stem,
            )
        )
    return rows[:limit] if limit else rows


@dataclass
class MethodScores:
    method: str
    article_hits: dict[int, int] = field(default_factory=lambda: dict.fromkeys(KS, 0))
    unit_hits: dict[int, int] = field(default_factory=lambda: dict.fromkeys(KS, 0))
    article_rr: float = 0.0
    unit_rr: float = 0.0
    n: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, q: EvalQuestion, ranked: Sequence[Chunk]) -> None:
        self.n += 1
        articles = [str(c.metadata.get("article_id", "")) for c in ranked]
        units = [str(c.metadata.get("unit_id", "")) for c in ranked]
        a_rank = _first_rank(articles, set(q.expected_articles))
        u_rank = _first_rank(units, set(q.expected_units))
        for k in KS:
            self.article_hits[k] += int(a_rank is not None and a_rank <= k)
            self.unit_hits[k] += int(u_rank is not None and u_rank <= k)
        self.article_rr += 1.0 / a_rank if a_rank else 0.0
        self.unit_rr += 1.0 / u_rank if u_rank else 0.0
        if a_rank is None or a_rank > 5:
            self.misses.append(q.id)

    def summary(self) -> dict[str, Any]:
        n = max(self.n, 1)
        return {
            "article": {
                **{f"recall@{k}": round(self.article_hits[k] / n, 3) for k in KS},
                "mrr": round(self.article_rr / n, 3),
            },
            "point": {
                **{f"recall@{k}": round(self.unit_hits[k] / n, 3) for k in KS},
                "mrr": round(self.unit_rr / n, 3),
            },
            "misses_article@5": self.misses,
        }


def check_targets(methods: dict[str, dict[str, Any]]) -> dict[str, Any] | None:
    """Hybrid article recall@5 against the absolute target and the better single leg."""
    singles = [m for m in SINGLE_LEGS if m in methods]
    if "hybrid" not in methods or not singles:
        return None
    hybrid = methods["hybrid"]["article"]["recall@5"]
    best = max(singles, key=lambda m: methods[m]["article"]["recall@5"])
    best_recall = methods[best]["article"]["recall@5"]
    gain = round(hybrid - best_recall, 3)
    return {
        "hybrid_recall@5": hybrid,
        "best_single": best,
        "best_single_recall@5": best_recall,
        "gain": gain,
        "recall_met": hybrid >= TARGET_RECALL_AT_5,
        "gain_met": gain >= TARGET_GAIN_OVER_SINGLE - 1e-9,
    }


def _first_rank(ids: Sequence[str], expected: set[str]) -> int | None:
    for rank, value in enumerate(ids, start=1):
        if value in expected:
            return rank
    return None


def collapse_units(chunks: Sequence[Chunk], limit: int = DEPTH) -> list[Chunk]:
    """Keep the best chunk of each unit (long points are several chunks), in rank order."""
    seen: set[str] = set()
    out: list[Chunk] = []
    for chunk in chunks:
        key = str(chunk.metadata.get("unit_id") or chunk.id)
        if key in seen:
            continue
        seen.add(key)
        out.append(chunk)
        if len(out) == limit:
            break
    return out


async def _search(retriever: Retriever, method: str, question: str) -> list[Chunk]:
    flt = SearchFilter(source=LAW_SOURCE)
    if method.startswith("hybrid_expansion"):
        focus = tax_focus(build_question(question)) if method == "hybrid_expansion_tax" else None
        fused, _ = await retriever.search_many(
            KB, expand_query(question), flt=flt, top_k=FETCH, focus=focus
        )
        return collapse_units(fused)
    mode: SearchMode = {"bm25": "sparse", "dense": "dense"}.get(method, "hybrid")  # type: ignore[assignment]
    return collapse_units(await retriever.search(KB, question, flt=flt, top_k=FETCH, mode=mode))


async def run_eval(
    dataset: list[EvalQuestion],
    taxcode_dir: Path,
    settings: Settings,
    *,
    embedder: Embedder | None = None,
    prefetch_limit: int | None = None,
    methods: Sequence[str] = METHODS,
    parts: Sequence[int] | None = None,
    chapters: set[str] | None = None,
    bm25: RussianBm25 | None = None,
    rrf_k: int | None = None,
) -> dict[str, Any]:
    """Ingest the Tax Code into a temporary index and score every method in one run.

    ``parts`` / ``chapters`` restrict the ingested text (smoke tests); by default both
    parts are ingested whole.
    """
    prefetch = prefetch_limit or settings.prefetch_limit
    run_settings = settings.model_copy(
        update={
            "prefetch_limit": prefetch,
            "score_threshold": 0.0,
            "top_k": DEPTH,
            "rrf_k": rrf_k or settings.rrf_k,
        }
    )
    embedder = embedder or build_cached_embedder(settings)
    bm25 = bm25 or RussianBm25()
    wanted = sorted(parts or TAXCODE_FILES)
    with tempfile.TemporaryDirectory(prefix="finagent-eval-") as tmp:
        index = EdgeIndex(Path(tmp))
        try:
            retriever = Retriever(index, embedder, bm25, run_settings)
            ingestor = LawIngestor(index, embedder, bm25, run_settings, retriever.collection(KB))
            ingest: list[dict[str, Any]] = []
            for part in wanted:
                path = taxcode_dir / TAXCODE_FILES[part]
                report = await ingestor.ingest_file(path, code="nk", part=part, chapters=chapters)
                ingest.append(
                    {
                        "part": part,
                        "chunks": report.chunks,
                        "seconds": round(report.seconds, 2),
                        "chunks_per_s": round(report.chunks_per_second, 1),
                    }
                )
            names = list(dict.fromkeys(q.dataset for q in dataset))
            groups = {name: {m: MethodScores(m) for m in methods} for name in [*names, ALL]}
            latency: dict[str, float] = dict.fromkeys(methods, 0.0)
            for q in dataset:
                for m in methods:
                    started = time.perf_counter()
                    ranked = await _search(retriever, m, q.question)
                    latency[m] += time.perf_counter() - started
                    groups[q.dataset][m].add(q, ranked)
                    groups[ALL][m].add(q, ranked)
        finally:
            await index.close()
    n = max(len(dataset), 1)
    combined = {
        m: {**groups[ALL][m].summary(), "mean_latency_ms": round(1000 * latency[m] / n, 1)}
        for m in methods
    }
    by_dataset: dict[str, Any] = {}
    for name in names:
        summaries = {m: groups[name][m].summary() for m in methods}
        by_dataset[name] = {
            "size": groups[name][methods[0]].n if methods else 0,
            "methods": summaries,
            "targets": check_targets(summaries),
        }
    return {
        "dataset_size": len(dataset),
        "datasets": {name: by_dataset[name]["size"] for name in names},
        "prefetch_limit": prefetch,
        "rrf_k": run_settings.rrf_k,
        "law_chunk_size": settings.law_chunk_size,
        "law_dense_max_chars": settings.law_dense_max_chars,
        "embedder": embedder.model_id,
        "ingest": ingest,
        "methods": combined,
        "targets": check_targets(combined),
        "by_dataset": by_dataset,
    }
