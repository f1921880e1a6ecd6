"""The turn's typed ``Question``: built once (by ``orchestrate``) and read by every later node."""

from __future__ import annotations

from typing import Any

from finagent.bootstrap import Deps
from finagent.cards.model import DocumentCard
from finagent.question.build import build_question
from finagent.question.model import Question
from finagent.storage.card_refresh import current_cards


async def user_cards(deps: Deps, user_id: str | None) -> list[DocumentCard]:
    """The cards of ``user_id``'s documents (none without a user or a document store)."""
    if not user_id:
        return []
    return await current_cards(deps.documents, user_id)


async def turn_question(state: dict[str, Any], deps: Deps, user_id: str | None) -> Question:
    """The question the state already holds, else one built now from the query and the
    user's cards (nodes run without ``orchestrate`` in some tests and tools)."""
    found = state.get("question")
    if isinstance(found, Question):
        return found
    if isinstance(found, dict):
        return Question.model_validate(found)
    return build_question(state["query"], cards=await user_cards(deps, user_id))
