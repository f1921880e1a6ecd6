"""Rebuilds ``finagent/data/embeddings.npz``: runs the demo on fresh data dirs (without
and with the Tax Code, offline, no LLM), records every text embedded on the way and
ships exactly those vectors. Vectors already in ``seed_cache`` are reused (they are
keyed by model and text, so they are the same vectors).

It also rebuilds ``finagent/data/sentence_embeddings.npz``: the candidate sentences the
answer step may rank for every Tax Code and knowledge-base passage of the demo's index
(:func:`finagent.answering.evidence.passage_sentences`), so that a new question about
them embeds only itself.

A build tool above the layers: it runs the demo and lists the answer step's sentences, so it
lives beside ``finagent.demo`` rather than in ``finagent.retrieval``."""

from __future__ import annotations

import asyncio
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from finagent.config import Settings
from finagent.retrieval import shipped
from finagent.retrieval.embedding_cache import (
    CachedEmbedder,
    EmbeddingCache,
    cache_path,
    seed_shipped,
    text_key,
)
from finagent.retrieval.embeddings import build_embedder
from finagent.retrieval.index import SearchFilter, VectorIndex
from finagent.retrieval.taxcode_source import try_find_tax_code

RECALL_K = 10


@dataclass
class RebuildReport:
    """What a rebuild wrote and how well the int8 vectors keep the float32 neighbours."""

    path: Path
    vectors: int
    queries: int
    with_tax_code: bool
    bytes: int
    recall_at_10: float
    max_cosine_error: float
    sentences: int = 0
    sentence_bytes: int = 0


def offline(settings: Settings, data_dir: Path, taxcode_dir: Path | None) -> Settings:
    """``settings`` for a build run: a fresh data dir, no LLM, no live Bank of Russia, no
    shipped vectors (they are what is rebuilt), every embedding cached."""
    return settings.model_copy(
        update={
            "data_dir": data_dir,
            "kb_root_dir": None,
            "shipped_embeddings": False,
            "taxcode_dir": taxcode_dir,
            "cbr_enabled": False,
            "llm_api_key": None,
            "llm_model": None,
            "embedding_cache": True,
        }
    )


def quantization_recall(vectors: np.ndarray, queries: np.ndarray, k: int = RECALL_K) -> float:
    """Mean overlap of the top-k neighbours of each query among ``vectors``: float32 vs
    the int8 round trip (1.0 = the same passages are found)."""
    if len(vectors) == 0 or len(queries) == 0:
        return 1.0
    codes, scales = shipped.quantize(vectors)
    approx = shipped.dequantize(codes, scales)
    k = min(k, len(vectors))
    exact = np.argsort(-(queries @ vectors.T), axis=1)[:, :k]
    found = np.argsort(-(queries @ approx.T), axis=1)[:, :k]
    overlap = [len(set(a) & set(b)) / k for a, b in zip(exact, found, strict=True)]
    return float(np.mean(overlap))


async def passage_sentences_in(index: VectorIndex, collection: str) -> list[str]:
    """Every candidate sentence of the Tax Code and knowledge-base passages in
    ``collection`` (unique, in index order)."""
    from finagent.answering.evidence import passage_sentences
    from finagent.retrieval.law_ingest import LAW_SOURCE
    from finagent.retrieval.retriever import KB, chunk_of_hit

    texts: dict[str, None] = {}
    for source in (LAW_SOURCE, KB):
        for payload in await index.scroll(collection, SearchFilter(source=source)):
            texts.update(dict.fromkeys(passage_sentences(chunk_of_hit("", 0.0, payload))))
    return list(texts)


async def passage_sentences_of_index(settings: Settings) -> list[str]:
    """:func:`passage_sentences_in` the knowledge-base collection of ``settings.data_dir``."""
    from finagent.retrieval.factory import build_index
    from finagent.retrieval.retriever import KB

    index = build_index(settings)
    try:
        return await passage_sentences_in(index, f"{settings.collection_prefix}_{KB}")
    finally:
        await index.close()


def _record_demo_runs(
    settings: Settings,
    data_root: Path,
    runs: list[tuple[str, Path]],
    root: Path,
    shipped_files: list[Path],
    seed_cache: Path | None,
    record: dict[str, tuple[str, str]],
) -> tuple[dict[str, np.ndarray], list[str]]:
    """Run the demo once per ``(name, taxcode_dir)`` on fresh data dirs whose cache holds
    the shipped vectors as a user gets them (int8 round trip), recording what is embedded;
    returns the recorded vectors and the passage sentences of the last run's index."""
    from finagent.demo import run_demo

    model_id = build_embedder(settings).model_id
    previous = seed_cache if seed_cache and seed_cache.is_file() else None
    sentences: list[str] = []
    for name, taxcode_dir in runs:
        run_settings = offline(settings, root / name, taxcode_dir)
        run_settings.data_dir.mkdir(parents=True)
        if previous is not None:
            shutil.copyfile(previous, cache_path(run_settings.data_dir))
        seeded = EmbeddingCache(cache_path(run_settings.data_dir))
        for path in shipped_files:
            if path.is_file():
                seed_shipped(seeded, model_id, path, force=True, marker=path.name)
        seeded.close()
        asyncio.run(run_demo(run_settings, data_root, echo=False, record=record))
        sentences = asyncio.run(passage_sentences_of_index(run_settings))
        previous = cache_path(run_settings.data_dir)
    assert previous is not None
    cache = EmbeddingCache(previous)
    try:
        found = cache.get_many(model_id, list(record))
    finally:
        cache.close()
    missing = set(record) - set(found)
    if missing:
        raise RuntimeError(f"{len(missing)} recorded vectors are not in the cache")
    return found, sentences


def write_sentences(
    settings: Settings, texts: list[str], out: Path, seed_cache: Path | None
) -> shipped.ShippedVectors:
    """Embed ``texts`` as passages (vectors in ``seed_cache`` are reused, not changed) and
    ship them to ``out``."""
    embedder = build_embedder(settings)
    with tempfile.TemporaryDirectory(prefix="finagent-sentences-") as tmp:
        work = Path(tmp) / "cache.sqlite"
        if seed_cache is not None and seed_cache.is_file():
            shutil.copyfile(seed_cache, work)
        cache = EmbeddingCache(work)
        try:
            vectors = asyncio.run(CachedEmbedder(embedder, cache).embed_passages(texts))
        finally:
            cache.close()
    keys = [text_key(t, "passage") for t in texts]
    return shipped.save(out, embedder.model_id, dict(zip(keys, vectors, strict=True)))


def rebuild(
    settings: Settings,
    data_root: Path,
    out: Path = shipped.SHIPPED_PATH,
    seed_cache: Path | None = None,
    rounds: int = 3,
    sentences_out: Path | None = None,
) -> RebuildReport:
    """Rounds until a run with the shipped vectors embeds nothing new: int8 vectors can
    reorder near-tied passages, and then other answer sentences get embedded. The
    passage sentences (``sentences_out``, by default beside ``out``) are written after the
    first round, so the later rounds run with them as a user gets them."""
    sentences_path = sentences_out or out.with_name(shipped.SENTENCES_PATH.name)
    sentence_vectors: shipped.ShippedVectors | None = None
    record: dict[str, tuple[str, str]] = {}
    tax_code = try_find_tax_code(settings.taxcode_dir)
    model_id = build_embedder(settings).model_id
    for round_no in range(rounds):
        with tempfile.TemporaryDirectory(prefix="finagent-embeddings-") as tmp:
            root = Path(tmp)
            empty = root / "no-tax-code"
            empty.mkdir()
            runs = [("without", empty)]
            if tax_code:
                runs.append(("with", tax_code[0].path.parent))
            loaded = shipped.load(out) if round_no else None
            before = set(loaded.keys) if loaded is not None else set()
            found, texts = _record_demo_runs(
                settings, data_root, runs, root, [out, sentences_path], seed_cache, record
            )
        written = shipped.save(out, model_id, found)
        if sentence_vectors is None:
            sentence_vectors = write_sentences(settings, texts, sentences_path, seed_cache)
        if round_no and set(found) <= before:
            break
    passages = np.stack([found[k] for k, (kind, _) in record.items() if kind == "passage"])
    queries = [found[k] for k, (kind, _) in record.items() if kind == "query"]
    query_matrix = np.stack(queries) if queries else np.zeros((0, passages.shape[1]))
    exact = np.stack([found[k] for k in written.keys])
    cosine = np.sum(exact * written.vectors, axis=1)
    return RebuildReport(
        path=out,
        vectors=len(written.keys),
        queries=len(queries),
        with_tax_code=bool(tax_code),
        bytes=out.stat().st_size,
        recall_at_10=quantization_recall(passages, query_matrix),
        max_cosine_error=float(1.0 - cosine.min()),
        sentences=len(sentence_vectors.keys) if sentence_vectors is not None else 0,
        sentence_bytes=sentences_path.stat().st_size if sentences_path.is_file() else 0,
    )
