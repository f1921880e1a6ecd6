"""The reply to a question about a document the user does not hold: say so, list theirs."""

from __future__ import annotations

from collections.abc import Sequence

from finagent.bootstrap import Deps
from finagent.prompts import routing_messages

MAX_LISTED = 20


async def held_titles(deps: Deps, user_id: str) -> list[str]:
    """The user's documents by their clean titles (the card's heading or type; the stored
    title for a document without a card)."""
    limit = deps.settings.routing_inventory_max_documents
    infos = await deps.documents.inventory(user_id, limit=limit)
    cards = {card.document_id: card.title for card in await deps.documents.cards.list(user_id)}
    return [cards.get(info.id) or info.title for info in infos]


def not_held_answer(missing: str, titles: Sequence[str]) -> str:
    """Russian: «… не найден среди ваших документов», then the documents the user has."""
    listed = [f"- {title}" for title in sorted(titles)[:MAX_LISTED]]
    if len(titles) > MAX_LISTED:
        listed.append(routing_messages.MORE_DOCUMENTS.format(count=len(titles) - MAX_LISTED))
    return routing_messages.DOCUMENT_NOT_HELD.format(what=missing, documents="\n".join(listed))
