"""The user's document inventory from the document store."""

from __future__ import annotations

from finagent.routing.inventory import Inventory, InventoryItem, describe
from finagent.storage.documents import DocumentInfo, DocumentStore


def item_for(info: DocumentInfo) -> InventoryItem:
    """Stored type, counterparty and date; what is not stored is read from the title."""
    derived = describe(info.title or info.filename)
    return InventoryItem(
        title=info.title or info.filename,
        doc_type=info.doc_type or derived.doc_type,
        counterparty=info.counterparty or derived.counterparty,
        date=info.doc_date or derived.date,
    )


async def load_inventory(documents: DocumentStore, user_id: str, limit: int) -> Inventory:
    infos = await documents.inventory(user_id, limit=limit) if limit > 0 else []
    return Inventory(item_for(info) for info in infos)
