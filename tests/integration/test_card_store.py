"""Document cards in the store (SQLite and PostgreSQL), per user, built at ingestion."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import AsyncExitStack
from pathlib import Path

import pytest
from langgraph.store.base import BaseStore

from finagent.bootstrap import Deps
from finagent.cards.build import build_card
from finagent.config import Settings
from finagent.storage.backend import open_persistence
from finagent.storage.cards import CardStore
from finagent.storage.documents import DocumentStore

SAMPLES = Path(__file__).resolve().parents[2] / "sample_docs"


@pytest.fixture(params=["sqlite", "postgres"])
async def store(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[BaseStore]:
    url = request.getfixturevalue("postgres_url") if request.param == "postgres" else None
    settings = Settings(  # type: ignore[call-arg]
        data_dir=tmp_path, postgres_url=url, cbr_enabled=False, _env_file=None
    )
    async with AsyncExitStack() as stack:
        yield (await open_persistence(settings, stack)).store


async def test_cards_are_per_user_and_removed_with_their_document(store: BaseStore) -> None:
    documents = DocumentStore(store)
    text = (SAMPLES / "dogovor_arendy.md").read_text(encoding="utf-8")
    doc = await documents.put("alice.smith@example.com", "Договор аренды", "lease.md", text)
    card = build_card(doc.id, doc.title, text)
    await documents.cards.put("alice.smith@example.com", card)
    cards = CardStore(store)
    assert await cards.get("alice.smith@example.com", doc.id) == card
    assert [c.document_id for c in await cards.list("alice.smith@example.com")] == [doc.id]
    # another user never reads it, even knowing the id; «alice.smith@example» is another id
    assert await cards.get("bob", doc.id) is None
    assert await cards.list("bob") == []
    assert await cards.list("alice.smith@example") == []
    await documents.delete("alice.smith@example.com", doc.id)
    assert await cards.get("alice.smith@example.com", doc.id) is None


async def test_ingestion_builds_the_card_and_rebuilds_it(
    services: Deps, doc_files: dict[str, Path]
) -> None:
    report = await services.ingestor().ingest_documents("alice", [doc_files["lease"]])
    doc_id = report.results[0].document_id
    assert doc_id is not None
    cards = services.documents.cards
    card = await cards.get("alice", doc_id)
    assert card is not None and card.doc_type == "lease"
    assert [(f.value, f.per) for f in card.values("rent")] == [("150 000 руб.", "month")]
    assert await cards.get("bob", doc_id) is None
    # a stale card (an older builder's) is replaced when the document is ingested again
    await cards.put("alice", card.model_copy(update={"title": "устаревшая карточка", "facts": []}))
    again = await services.ingestor().ingest_documents("alice", [doc_files["lease"]])
    assert again.results[0].status == "unchanged"
    assert await cards.get("alice", doc_id) == card
