"""What a turn reads or writes again is not redone: a card validated once per stored
version, a text redacted once per set of secrets."""

from __future__ import annotations

import asyncio

import numpy as np
from langgraph.store.memory import InMemoryStore

from finagent.cards.build import build_card
from finagent.cards.sentence_vectors import pack
from finagent.redaction import Redactor
from finagent.storage.cards import CardStore
from finagent.storage.sentence_vectors import SentenceVectorStore

TEXT = "# Договор поставки № П-3/2026\n1.1. Цена товара составляет 12 000 рублей.\n"


def test_cards_are_shared_until_their_stored_version_changes() -> None:
    async def run() -> None:
        cards = CardStore(InMemoryStore())
        await cards.put("u", build_card("d1", "supply", TEXT))
        first, again = await cards.list("u"), await cards.list("u")
        assert first[0] is again[0]
        await cards.put("u", build_card("d1", "supply", TEXT.replace("12 000", "15 000")))
        changed = await cards.list("u")
        assert changed[0] is not first[0]
        assert "15 000" in changed[0].model_dump_json()
        await cards.delete("u", "d1")
        assert await cards.list("u") == []

    asyncio.run(run())


def test_one_users_cards_and_sentence_vectors_never_reach_another() -> None:
    async def run() -> None:
        store = InMemoryStore()
        cards, vectors = CardStore(store), SentenceVectorStore(store)
        await cards.put("alice", build_card("d1", "supply", TEXT))
        await vectors.put("alice", pack("d1", "m", ["a"], np.ones((1, 2), dtype=np.float32)))
        assert await cards.list("alice") and await cards.get("alice", "d1") is not None
        # the same document id under another user: nothing, from the cache or the store
        assert await cards.list("bob") == [] and await cards.get("bob", "d1") is None
        assert await vectors.get("bob", "d1") is None
        assert await vectors.get_many("bob", ["d1"]) == []

    asyncio.run(run())


def test_a_remembered_text_is_redacted_again_for_a_new_secret() -> None:
    text = "в письме указано ABCDEFGH12345678ZYXW, повторно"
    clean = Redactor(())
    assert clean.redact(text) == text
    assert clean.redact(text) == text
    secret = Redactor(["ABCDEFGH12345678ZYXW"])
    assert "ABCDEFGH12345678" not in secret.redact(text)
    assert secret.redact(text) == secret.redact(text)
