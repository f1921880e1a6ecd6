"""Sentence vectors of a document: made once at ingestion, stored beside the card, and
the similarity to the question decides between clauses that share no word with it."""

from __future__ import annotations

import asyncio

import numpy as np
from langgraph.store.memory import InMemoryStore

from finagent.answering.document_sentences import document_sentences, rerank_document_sentences
from finagent.answering.evidence import Candidate
from finagent.cards.build import build_card
from finagent.cards.sentence_vectors import (
    SENTENCE_VECTORS_VERSION,
    embed_sentences,
    pack,
    sentence_key,
    similarities,
)
from finagent.question.build import build_question
from finagent.state import Chunk
from finagent.storage.documents import DocumentStore

WORKS = """# Договор подряда № ПР-8/2026
г. Кострома 5 марта 2026 г.
2.1. Начало работ — 1 апреля 2026 г.
2.2. Окончание работ — 30 июня 2026 г.
3.1. Смета согласована сторонами 20 марта 2026 г.
"""


def test_the_packed_vectors_round_trip_and_the_version_is_checked() -> None:
    vectors = np.eye(3, 4, dtype=np.float32)
    record = pack("d1", "model-x", ["a", "b", "c"], vectors)
    assert np.allclose(record.matrix(), vectors)
    assert record.usable("model-x") and not record.usable("model-y")
    old = record.model_copy(update={"version": SENTENCE_VECTORS_VERSION - 1})
    assert not old.usable("model-x")
    sims = similarities([record], np.array([0, 1, 0, 0], dtype=np.float32), "model-x")
    assert sims[("d1", "b")] == 1.0 and sims[("d1", "a")] == 0.0


def test_a_document_without_sentences_packs_to_an_empty_record() -> None:
    record = pack("d0", "model-x", [], np.zeros((0,), dtype=np.float32))
    assert record.sentences == [] and record.matrix().shape == (0, 0)
    assert similarities([record], np.array([1, 0], dtype=np.float32), "model-x") == {}


def test_every_sentence_the_answer_reads_is_embedded_and_stored() -> None:
    calls: list[list[str]] = []

    async def embed(texts: list[str]) -> np.ndarray:
        calls.append(texts)
        return np.ones((len(texts), 4), dtype=np.float32)

    record = asyncio.run(embed_sentences("d1", WORKS, "m", embed, document_sentences, batch=2))
    assert record.sentences == [sentence_key(s) for s in document_sentences(WORKS)]
    assert all(len(c) <= 2 for c in calls)
    store = DocumentStore(InMemoryStore())
    asyncio.run(store.sentence_vectors.put("u1", record))
    assert asyncio.run(store.sentence_vectors.get_many("u1", ["d1", "d2"])) == [record]
    assert asyncio.run(store.sentence_vectors.get("u2", "d1")) is None
    asyncio.run(store.delete("u1", "d1"))
    assert asyncio.run(store.sentence_vectors.get("u1", "d1")) is None


def test_the_clause_closest_in_meaning_wins_when_no_word_is_shared() -> None:
    card = build_card("d1", "works.md", WORKS)
    q = build_question(
        "Когда подрядчик должен завершить работы по договору ПР-8/2026?", cards=[card]
    )
    chunk = Chunk(id="c", text=WORKS, source="user_docs", title=card.title, document_id="d1")
    clauses = [
        s for s in document_sentences(WORKS) if s.startswith(("Начало", "Окончание", "Смета"))
    ]
    assert len(clauses) == 3
    ranked = [Candidate(chunk, 1, s, 0, i) for i, s in enumerate(clauses)]
    # the question's meaning is the end of the works: «Окончание работ» is the closest
    sims = {("d1", sentence_key(s)): 0.9 if s.startswith("Окончание") else 0.8 for s in clauses}
    assert rerank_document_sentences(q, ranked, [card], sims)[0].sentence.startswith("Окончание")
    assert not rerank_document_sentences(q, ranked, [card])[0].sentence.startswith("Окончание")
