"""A document is named by its card's title (its own heading), not by the title its
passages were indexed under (a letterhead or a form code read by an older builder)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from finagent.cards.build import build_card
from finagent.cards.model import CARD_VERSION
from finagent.nodes.answer import answer
from finagent.state import Chunk, Decision, Scenario
from finagent.storage.card_refresh import current_cards
from tests.unit.node_deps import node_deps, runtime

LETTERHEAD = "ООО «Кедр-Сервис» · ИНН 3811000001 · г. Томск, ул. Лесная, д. 4"
TEXT = (
    f"{LETTERHEAD}\n\n"
    "ДОГОВОР ХРАНЕНИЯ № 15-Х\n"
    "г. Томск, 3 февраля 2026 г.\n\n"
    "1. Вознаграждение хранителя составляет 48 300 рублей в месяц.\n"
    "2. Хранитель возвращает вещь в течение 3 рабочих дней по требованию поклажедателя.\n"
)


async def _stale(user: str) -> tuple[Any, str]:
    """A store holding the document under its letterhead, with a card of an older version."""
    deps = replace(node_deps(), embedder=None)  # the offline composer, words only
    doc = await deps.documents.put(user, LETTERHEAD, "hranenie.txt", TEXT)
    card = build_card(doc.id, LETTERHEAD, TEXT)
    card.version = CARD_VERSION - 1
    await deps.documents.cards.put(user, card)
    return deps, doc.id


async def test_a_rebuilt_card_retitles_its_stored_document() -> None:
    deps, doc_id = await _stale("alice")
    cards = await current_cards(deps.documents, "alice")
    assert [c.title for c in cards] == ["Договор хранения № 15-Х"]
    stored = await deps.documents.get("alice", doc_id)
    assert stored is not None and stored.title == "Договор хранения № 15-Х"


async def test_passages_indexed_under_an_old_title_are_cited_by_the_cards_title() -> None:
    deps, doc_id = await _stale("alice")
    chunk = Chunk(
        id=f"{doc_id}:1", text=TEXT, source="user_docs", title=LETTERHEAD, document_id=doc_id
    )
    state: dict[str, Any] = {
        "query": "сколько в месяц вознаграждение хранителя?",
        "decision": Decision(scenario=Scenario.ALL_DOCUMENTS),
        "chunks": [chunk],
    }
    update = await answer(state, runtime(deps))  # type: ignore[arg-type]
    sources = update["answer"].split("## Источники", 1)[1]
    assert "Договор хранения № 15-Х" in sources and "Кедр-Сервис" not in sources
    assert "48 300" in update["answer"].split("\n\n", 2)[1]
