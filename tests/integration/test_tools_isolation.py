"""User B never receives user A's chunks or documents through any tool argument."""

from __future__ import annotations

import json
from typing import Any

from finagent.tools.base import ToolContext

BOB = ToolContext(user_id="bob")
ALICE = ToolContext(user_id="alice")


async def test_search_user_documents_is_filtered_by_caller(loaded: dict[str, Any]) -> None:
    registry = loaded["services"].registry
    lease = loaded["doc_ids"]["lease"]
    own = json.loads(await registry.call("search_user_documents", {"query": "пени"}, ALICE))
    assert own["count"] > 0 and own["results"][0]["document_id"] == lease
    for args in ({"query": "пени"}, {"query": "пени", "document_ids": [lease]}):
        out = json.loads(await registry.call("search_user_documents", args, BOB))
        assert out["count"] == 0


async def test_injected_user_argument_is_rejected_or_ignored(loaded: dict[str, Any]) -> None:
    registry = loaded["services"].registry
    out = await registry.call("search_user_documents", {"query": "пени", "user_id": "alice"}, BOB)
    assert "150 000" not in out and "0,1" not in out


async def test_load_documents_full_only_own(loaded: dict[str, Any]) -> None:
    registry = loaded["services"].registry
    ids = list(loaded["doc_ids"].values())
    out = await registry.call("load_documents_full", {"document_ids": ids}, BOB)
    assert out.startswith("Error: no such documents for this user")
    mixed = await registry.call("load_documents_full", {"document_ids": [*ids, "doc_x"]}, ALICE)
    assert "150 000" in mixed and "Not found for this user: doc_x" in mixed


async def test_aggregate_passages_tool_searches_only_callers_documents(
    loaded: dict[str, Any],
) -> None:
    registry = loaded["services"].registry
    out = json.loads(
        await registry.call(
            "Req_Find_Passages_For_Queries", {"queries": ["пени за просрочку", "ставка НДС"]}, BOB
        )
    )
    assert out["success"] is True and not out.get("errors")
    docs = [r for r in out["results"] if r["collection"] == "docs"]
    assert len(docs) == 2 and all(r["passages"] == [] for r in docs)
    kb = [r for r in out["results"] if r["collection"] == "kb"]
    assert kb[1]["passages"][0]["title"] == "Ставки НДС"


async def test_kb_search_filters(loaded: dict[str, Any]) -> None:
    registry = loaded["services"].registry
    out = json.loads(
        await registry.call(
            "search_general_kb", {"query": "штраф", "filters": {"document_id": "kb-4"}}, BOB
        )
    )
    assert {r["document_id"] for r in out["results"]} == {"kb-4"}
