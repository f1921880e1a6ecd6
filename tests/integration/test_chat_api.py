"""The web chat's JSON endpoints: chats per user and research runs with a clarification."""

from __future__ import annotations

from finagent.bootstrap import Deps
from finagent.storage.namespaces import label, unlabel
from tests.fakes.llm import ScriptedChatModel
from tests.integration.test_langserve import step
from tests.integration.test_server_stream import ALICE, BOB, TOKENS, asgi_client

CLARIFY = step(
    "clarification",
    reasoning="Неясен период",
    unclear_terms=["период"],
    assumptions=["2024 год", "2025 год"],
    questions=["За какой год?"],
)
FINAL = step(
    "final_answer",
    reasoning="Готово",
    completed_steps=["Уточнение"],
    answer="Ставка НДС в 2025 году 20 %.",
    status="completed",
)


def test_labels_round_trip() -> None:
    for value in ("alice", "a.b@c", "100%", "%2E", "x\x00y", "%252E."):
        assert unlabel(label(value)) == value


async def test_chats_are_listed_per_user(make_services) -> None:  # type: ignore[no-untyped-def]
    services: Deps = await make_services(api_tokens=TOKENS)
    async with asgi_client(services) as http:
        for chat, question in (("c.1", "какая ставка НДС?"), ("c2", "что такое вычет?")):
            r = await http.post("/v1/ask", headers=ALICE, json={"query": question, "chat_id": chat})
            assert r.status_code == 200
        chats = (await http.get("/v1/chats", headers=ALICE)).json()
        assert sorted((c["id"], c["title"], c["turns"]) for c in chats) == [
            ("c.1", "какая ставка НДС?", 2),
            ("c2", "что такое вычет?", 2),
        ]
        turns = (await http.get("/v1/chats/c.1", headers=ALICE)).json()["turns"]
        assert [t["role"] for t in turns] == ["user", "assistant"]
        assert (await http.get("/v1/chats", headers=BOB)).json() == []
        assert (await http.get("/v1/chats/c.1", headers=BOB)).json()["turns"] == []
        assert (await http.get("/v1/chats")).status_code == 401


async def test_research_clarification_and_resume(make_services) -> None:  # type: ignore[no-untyped-def]
    llm = ScriptedChatModel([CLARIFY, FINAL])
    services: Deps = await make_services(llm, api_tokens=TOKENS)
    async with asgi_client(services) as http:
        started = await http.post("/v1/research", headers=ALICE, json={"query": "Ставка НДС?"})
        body = started.json()
        assert body["status"] == "needs_clarification" and body["questions"] == ["За какой год?"]
        run = body["run_id"]
        # bob cannot answer alice's run
        stolen = await http.post(f"/v1/research/{run}/answer", headers=BOB, json={"answer": "x"})
        assert stolen.status_code == 422 and "не найдено" in stolen.json()["detail"]
        done = await http.post(f"/v1/research/{run}/answer", headers=ALICE, json={"answer": "2025"})
        assert done.json()["status"] == "completed" and "20 %" in done.json()["answer"]
        again = await http.post(f"/v1/research/{run}/answer", headers=ALICE, json={"answer": "y"})
        assert again.status_code == 422  # the run no longer waits


async def test_research_without_llm_is_a_russian_422(make_services) -> None:  # type: ignore[no-untyped-def]
    services: Deps = await make_services(api_tokens=TOKENS)
    async with asgi_client(services) as http:
        r = await http.post("/v1/research", headers=ALICE, json={"query": "Ставка НДС?"})
    assert r.status_code == 422 and "языковая модель" in r.json()["detail"]
