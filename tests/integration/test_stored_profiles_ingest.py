"""Sentence profiles of user documents: made at ingestion, read by the offline answer, made
on first use for documents stored before, and deleted with their document."""

from __future__ import annotations

from typing import Any

from finagent.answering.stored_profiles import DocumentProfiler, profiled_sentences
from finagent.cards.sentence_vectors import pack
from finagent.graph.agent import Agent

QUESTION = "Какие пени за просрочку оплаты аренды?"


async def test_ingestion_stores_current_profiles_of_every_sentence(loaded: dict[str, Any]):
    services, ids = loaded["services"], loaded["doc_ids"]
    for doc_id in ids.values():
        record = await services.documents.sentence_profiles.get("alice", doc_id)
        doc = await services.documents.get("alice", doc_id)
        assert record is not None and DocumentProfiler().current(record)
        assert record.sentences == profiled_sentences(doc.text)
        # per user: another user holds no profiles of alice's documents
        assert await services.documents.sentence_profiles.get("bob", doc_id) is None


async def test_the_answer_is_the_same_with_stored_missing_or_stale_profiles(
    loaded: dict[str, Any],
):
    services, ids = loaded["services"], loaded["doc_ids"]
    profiles = services.documents.sentence_profiles
    agent = Agent(services)
    stored = await agent.run(user_id="alice", query=QUESTION)
    assert "0,1" in stored.answer

    # a data dir from before: no records; the answer makes them and stores them
    for doc_id in ids.values():
        await profiles.delete("alice", doc_id)
    before = await agent.run(user_id="alice", query=QUESTION)
    assert before.answer == stored.answer
    made = await profiles.get("alice", ids["lease"])
    assert made is not None and DocumentProfiler().current(made)

    # a record made by other code is never read, and is made again
    stale = made.model_copy(update={"fingerprint": "older", "rows": [[]] * len(made.rows)})
    await profiles.put("alice", stale)
    again = await agent.run(user_id="alice", query=QUESTION)
    assert again.answer == stored.answer
    remade = await profiles.get("alice", ids["lease"])
    assert remade is not None and DocumentProfiler().current(remade)


async def test_deleting_a_document_deletes_its_profiles(loaded: dict[str, Any]):
    services, ids = loaded["services"], loaded["doc_ids"]
    await services.documents.delete("alice", ids["lease"])
    assert await services.documents.sentence_profiles.get("alice", ids["lease"]) is None
    assert await services.documents.sentence_profiles.get("alice", ids["invoice"]) is not None


async def test_reingesting_an_unchanged_document_restores_missing_profiles(
    loaded: dict[str, Any], doc_files: dict[str, Any]
):
    services, ids = loaded["services"], loaded["doc_ids"]
    await services.documents.sentence_profiles.delete("alice", ids["lease"])
    report = await services.ingestor().ingest_documents("alice", [doc_files["lease"]])
    assert report.results[0].status == "unchanged"
    record = await services.documents.sentence_profiles.get("alice", ids["lease"])
    assert record is not None and DocumentProfiler().current(record)


async def test_reingesting_remakes_sentence_vectors_made_over_an_older_split(
    loaded: dict[str, Any], doc_files: dict[str, Any]
):
    services, ids = loaded["services"], loaded["doc_ids"]
    vectors = services.documents.sentence_vectors
    current = await vectors.get("alice", ids["lease"])
    assert current is not None and len(current.sentences) >= 2
    # as an older splitter read it: two sentences glued into one, the rest as today
    glued = [f"{current.sentences[0]} {current.sentences[1]}", *current.sentences[2:]]
    matrix = current.matrix()[1:]
    older = pack(current.document_id, current.model_id, glued, matrix)
    await vectors.put("alice", older)

    report = await services.ingestor().ingest_documents("alice", [doc_files["lease"]])
    assert report.results[0].status == "unchanged"
    remade = await vectors.get("alice", ids["lease"])
    assert remade is not None and remade.sentences == current.sentences
