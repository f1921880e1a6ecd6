"""The order of a user's cards (which breaks ties between documents) is the upload order,
never the order of the cards' last writes: rebuilding a stale card does not reorder them."""

from __future__ import annotations

from dataclasses import replace

from finagent.cards.build import build_card
from finagent.cards.model import CARD_VERSION
from finagent.storage.card_refresh import current_cards
from tests.unit.node_deps import node_deps

TEXTS = {
    f"dogovor_{n}.txt": f"ДОГОВОР ОКАЗАНИЯ УСЛУГ № {n}-У\n\n1. Цена услуг {n} 000 рублей в месяц.\n"
    for n in range(1, 6)
}


async def test_rebuilt_and_rewritten_cards_keep_one_order() -> None:
    deps = replace(node_deps(), embedder=None)
    ids = []
    for name, text in TEXTS.items():
        doc = await deps.documents.put("bob", name, name, text)
        ids.append(doc.id)
        await deps.documents.cards.put("bob", build_card(doc.id, name, text))
    first = [c.document_id for c in await current_cards(deps.documents, "bob")]
    assert sorted(first) == sorted(ids)
    # every card goes stale (a card builder's version bump), in the listing's order
    for card in await deps.documents.cards.list("bob"):
        card.version = CARD_VERSION - 1
        await deps.documents.cards.put("bob", card)
    rebuilt = await current_cards(deps.documents, "bob")
    assert all(c.version == CARD_VERSION for c in rebuilt)
    assert [c.document_id for c in rebuilt] == first
    # a card written anew (deleted, then stored again) lists elsewhere in the store; the
    # documents' order stays
    card = rebuilt[0]
    await deps.documents.cards.delete("bob", card.document_id)
    await deps.documents.cards.put("bob", card)
    assert [c.document_id for c in await current_cards(deps.documents, "bob")] == first
