"""What a turn reads or writes again is not redone: a card validated once per stored
version, a text redacted once per set of secrets."""

from __future__ import annotations

import asyncio

from langgraph.store.memory import InMemoryStore

from finagent.cards.build import build_card
from finagent.redaction import Redactor
from finagent.storage.cards import CardStore

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


def test_a_remembered_text_is_redacted_again_for_a_new_secret() -> None:
    text = "в письме указано ABCDEFGH12345678ZYXW, повторно"
    clean = Redactor(())
    assert clean.redact(text) == text
    assert clean.redact(text) == text
    secret = Redactor(["ABCDEFGH12345678ZYXW"])
    assert "ABCDEFGH12345678" not in secret.redact(text)
    assert secret.redact(text) == secret.redact(text)
