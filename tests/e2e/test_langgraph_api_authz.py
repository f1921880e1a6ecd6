"""Default-deny authorization of the LangGraph API, as two users through langgraph_sdk.

One ``langgraph dev`` serves the module. Alice creates one of every resource (a thread
with a finished run, a background run, an assistant, a cron, store items); Bob then calls
every method of every resource on them. Each call must be refused (403 or 404, in Russian)
or, for searches, counts and listings, show nothing of Alice's; afterwards Alice's things
are unchanged. Alice's own calls succeed, so a refusal is not an accident of the call.
Requests without a valid token get 401, and the server starts without the warning about
resource actions that have no authorization handler.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

import httpx
import pytest
from langgraph_sdk import get_client
from langgraph_sdk.client import LangGraphClient

from tests.e2e.langgraph_server import langgraph_dev, offline_api_env

ALICE = {"Authorization": "Bearer alice-token-0001"}
BOB = {"Authorization": "Bearer bob-token-00002"}
YEARLY = "0 0 1 1 *"  # a cron that never fires while the test runs
QUESTION = {"query": "Какая ставка НДС при экспорте?"}
DENIED = {403, 404}
TAKEN = {409}  # creating with another user's id: refused as a conflict
MISSING_HANDLERS_WARNING = "no handler registered for some dispatch paths"


@dataclass(frozen=True)
class Server:
    url: str
    log: Path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    root = tmp_path_factory.mktemp("authz")
    workdir = root / "server"
    workdir.mkdir()
    env = offline_api_env(root / "data")
    log = root / "server.log"
    with langgraph_dev(env, log, workdir=workdir) as url:
        yield Server(url, log)


def clients(server: Server) -> tuple[LangGraphClient, LangGraphClient]:
    return get_client(url=server.url, headers=ALICE), get_client(url=server.url, headers=BOB)


async def refused(call: Callable[[], Awaitable[Any]], allowed: set[int] = DENIED) -> int:
    """The call fails with one of ``allowed`` and a Russian detail; a success fails the test."""
    try:
        result = await call()
    except httpx.HTTPStatusError as exc:  # the SDK's APIStatusError is one too
        status = exc.response.status_code
        assert status in allowed, (status, exc.response.text)
        detail = re.sub("«[^»]*»", "", exc.response.json()["detail"])  # quoted names aside
        assert re.search("[А-Яа-яЁё]", detail) and not re.search("[a-z]{3,}", detail), detail
        return status
    raise AssertionError(f"a cross-user call succeeded: {result!r}")


async def stream_refused(stream: AsyncIterator[Any]) -> None:
    """A stream of another user's run or thread: refused before it starts (an HTTP error
    ``refused`` checks) or made of nothing but a 403/404 error event."""
    try:
        parts = [part async for part in stream]
    except httpx.HTTPStatusError as exc:
        assert exc.response.status_code in DENIED, exc.response.text
        return
    assert parts and all(part.event == "error" for part in parts), parts
    assert all(str(part.data["message"]).startswith(("403", "404")) for part in parts), parts
    assert all(is_russian(str(part.data["message"])) for part in parts), parts


def is_russian(text: str) -> bool:
    """Russian words and no English ones (a status code may lead)."""
    return bool(re.search("[А-Яа-яЁё]{3}", text)) and not re.search("[A-Za-z]{3}", text)


def ids(items: list[dict[str, Any]], key: str) -> set[str]:
    return {str(item[key]) for item in items}


async def test_requests_without_a_valid_token_get_401(server: Server) -> None:
    thread = "00000000-0000-4000-8000-000000000000"
    calls = [
        ("POST", "/threads", {}),
        ("GET", f"/threads/{thread}", None),
        ("POST", "/threads/search", {}),
        ("POST", "/runs/wait", {"assistant_id": "agent", "input": QUESTION}),
        ("POST", "/assistants/search", {}),
        ("POST", "/runs/crons/search", {}),
        ("PUT", "/store/items", {"namespace": ["alice"], "key": "k", "value": {}}),
        ("POST", "/store/namespaces", {}),
    ]
    headers = [
        {},
        {"Authorization": "Bearer not-a-known-token"},
        {"Authorization": "alice-token-0001"},  # no scheme
        {"x-auth-scheme": "langsmith"},  # LangGraph Studio's scheme is not a way in
    ]
    async with httpx.AsyncClient(base_url=server.url, timeout=30) as http:
        for header in headers:
            for method, path, body in calls:
                response = await http.request(method, path, json=body, headers=header)
                assert response.status_code == 401, (header, method, path, response.text)
                assert re.search("[А-Яа-яЁё]", response.json()["detail"]), response.text


def test_every_resource_action_has_an_authorization_handler(server: Server) -> None:
    log = server.log.read_text(encoding="utf-8", errors="replace")
    assert "Using auth of type=custom" in log, log[-3000:]  # the log is the server's
    assert MISSING_HANDLERS_WARNING not in log


async def test_threads_and_runs_are_their_creators_only(server: Server) -> None:
    alice, bob = clients(server)
    thread = await alice.threads.create(metadata={"case": "alice-private"})
    tid = thread["thread_id"]
    final = await alice.runs.wait(tid, "agent", input=QUESTION)
    assert isinstance(final, dict) and final["answer"]
    background = await alice.runs.create(tid, "agent", input=QUESTION)
    run_id = background["run_id"]
    await alice.runs.join(tid, run_id)
    # Alice's own calls work, so Bob's refusals below are about who he is
    assert (await alice.threads.get(tid))["thread_id"] == tid
    assert (await alice.runs.get(tid, run_id))["status"] == "success"
    assert tid in ids(await alice.threads.search(limit=100), "thread_id")
    alice_state = await alice.threads.get_state(tid)
    alice_history = await alice.threads.get_history(tid, limit=100)
    assert alice_history and run_id in ids(await alice.runs.list(tid, limit=100), "run_id")

    for call in (
        lambda: bob.threads.get(tid),
        lambda: bob.threads.update(tid, metadata={"case": "bob-was-here"}),
        lambda: bob.threads.get_state(tid),
        lambda: bob.threads.update_state(tid, {"query": "подмена"}),
        lambda: bob.threads.get_history(tid, limit=100),
        lambda: bob.threads.delete(tid),
        lambda: bob.threads.prune([tid]),
        lambda: bob.runs.create(tid, "agent", input=QUESTION),
        lambda: bob.runs.wait(tid, "agent", input=QUESTION),
        lambda: bob.runs.list(tid),
        lambda: bob.runs.get(tid, run_id),
        lambda: bob.runs.join(tid, run_id),
        lambda: bob.runs.cancel(tid, run_id),
        lambda: bob.runs.cancel_many(thread_id=tid, run_ids=[run_id]),
        lambda: bob.runs.delete(tid, run_id),
    ):
        await refused(call)
    await stream_refused(bob.runs.stream(tid, "agent", input=QUESTION))
    await stream_refused(bob.runs.join_stream(tid, run_id))
    await stream_refused(await bob.threads.join_stream(tid))  # a coroutine of a stream
    async with httpx.AsyncClient(base_url=server.url, headers=BOB, timeout=30) as http:
        # the thread protocol (``threads.stream``) cannot start a run on Alice's thread
        start = {"id": 1, "method": "run.start", "params": {"assistant_id": "agent"}}
        answer = (await http.post(f"/threads/{tid}/commands", json=start)).json()
        assert answer["type"] == "error" and answer["message"].startswith("404"), answer
    for call in (
        lambda: bob.threads.copy(tid),
        lambda: bob.threads.create(thread_id=tid, if_exists="do_nothing"),
    ):
        await refused(call, TAKEN)
    # listings show nothing of Alice's
    assert tid not in ids(await bob.threads.search(limit=100), "thread_id")
    assert tid not in ids(await bob.threads.search(metadata={"owner": "alice"}), "thread_id")
    assert await bob.threads.count(metadata={"owner": "alice"}) == 0
    assert await bob.threads.count(metadata={"case": "alice-private"}) == 0

    # Bob cannot plant a thread in Alice's list, neither on create nor on update
    planted = await bob.threads.create(metadata={"owner": "alice"})
    renamed = await bob.threads.create()
    await bob.threads.update(renamed["thread_id"], metadata={"owner": "alice"})
    mine = ids(await alice.threads.search(limit=100), "thread_id")
    assert planted["thread_id"] not in mine and renamed["thread_id"] not in mine
    assert (await bob.threads.get(renamed["thread_id"]))["metadata"]["owner"] == "bob"

    # Alice's thread, state, history and runs are as they were
    after = await alice.threads.get(tid)
    assert after["metadata"]["case"] == "alice-private" and after["metadata"]["owner"] == "alice"
    assert (await alice.threads.get_state(tid))["values"] == alice_state["values"]
    assert len(await alice.threads.get_history(tid, limit=100)) == len(alice_history)
    assert (await alice.runs.get(tid, run_id))["status"] == "success"


async def test_assistants_are_their_creators_and_system_ones_read_only(server: Server) -> None:
    alice, bob = clients(server)
    system = {a["graph_id"]: a for a in await bob.assistants.search(limit=100)}
    assert {"agent", "research"} <= system.keys()  # the graphs of langgraph.json serve everyone
    assert {"agent", "research"} <= {a["graph_id"] for a in await alice.assistants.search()}
    mine = await alice.assistants.create("agent", name="alice-private", metadata={"team": "a"})
    aid = mine["assistant_id"]
    assert (await alice.assistants.get(aid))["name"] == "alice-private"
    await alice.assistants.update(aid, name="alice-private", metadata={"team": "a"})
    assert len(await alice.assistants.get_versions(aid)) == 2
    final = await alice.runs.wait(None, aid, input=QUESTION)
    assert isinstance(final, dict) and final["answer"]

    thread = (await bob.threads.create())["thread_id"]
    for call in (
        lambda: bob.assistants.get(aid),
        lambda: bob.assistants.get_graph(aid),
        lambda: bob.assistants.get_schemas(aid),
        lambda: bob.assistants.get_subgraphs(aid),
        lambda: bob.assistants.get_versions(aid),
        lambda: bob.assistants.update(aid, name="bob-was-here"),
        lambda: bob.assistants.set_latest(aid, 1),
        lambda: bob.assistants.delete(aid),
        lambda: bob.runs.wait(None, aid, input=QUESTION),
        lambda: bob.runs.create(thread, aid, input=QUESTION),
        lambda: bob.crons.create(aid, schedule=YEARLY, input=QUESTION),
    ):
        await refused(call)
    # another user's id is taken, not shared
    await refused(
        lambda: bob.assistants.create("agent", assistant_id=aid, if_exists="do_nothing"), TAKEN
    )
    assert aid not in ids(await bob.assistants.search(limit=100), "assistant_id")
    assert aid not in ids(await bob.assistants.search(metadata={"team": "a"}), "assistant_id")
    assert await bob.assistants.count(metadata={"team": "a"}) == 0

    # the system assistants: readable and runnable by anyone, changeable by nobody
    for graph in ("agent", "research"):
        sid = system[graph]["assistant_id"]
        assert (await bob.assistants.get(sid))["graph_id"] == graph
        for call in (
            partial(bob.assistants.update, sid, name="bob-was-here"),
            partial(bob.assistants.update, sid, metadata={"owner": "bob"}),
            partial(bob.assistants.set_latest, sid, 1),
            partial(bob.assistants.delete, sid),
        ):
            await refused(call)
        assert (await alice.assistants.get(sid)) == system[graph]
    assert isinstance(await bob.runs.wait(None, "agent", input=QUESTION), dict)

    # Bob cannot publish an assistant to Alice: not as a system one, not as hers
    disguised = await bob.assistants.create("agent", metadata={"created_by": "system"})
    given = await bob.assistants.create("agent", name="bob-own")
    await bob.assistants.update(given["assistant_id"], metadata={"owner": "alice"})
    visible = ids(await alice.assistants.search(limit=100), "assistant_id")
    assert disguised["assistant_id"] not in visible and given["assistant_id"] not in visible
    assert (await bob.assistants.get(given["assistant_id"]))["metadata"]["owner"] == "bob"

    after = await alice.assistants.get(aid)
    assert after["name"] == "alice-private" and after["version"] == 2
    await alice.assistants.delete(aid)
    await refused(lambda: alice.assistants.get(aid))


async def test_crons_are_their_creators_only(server: Server) -> None:
    alice, bob = clients(server)
    thread = (await alice.threads.create())["thread_id"]
    on_thread = await alice.crons.create_for_thread(
        thread, "agent", schedule=YEARLY, input=QUESTION, metadata={"team": "a"}
    )
    stateless = await alice.crons.create("agent", schedule=YEARLY, input=QUESTION)
    crons = [on_thread["cron_id"], stateless["cron_id"]]
    assert set(crons) <= ids(await alice.crons.search(limit=100), "cron_id")
    await alice.crons.update(stateless["cron_id"], schedule="0 0 2 1 *")

    async with httpx.AsyncClient(base_url=server.url, headers=BOB, timeout=30) as http:
        for cron in crons:
            response = await http.get(f"/runs/crons/{cron}")  # the SDK has no crons.get
            assert response.status_code == 404, response.text
            for call in (
                partial(bob.crons.update, cron, schedule="* * * * *"),
                partial(bob.crons.update, cron, metadata={"owner": "bob"}),
                partial(bob.crons.delete, cron),
            ):
                await refused(call)
    await refused(
        lambda: bob.crons.create_for_thread(thread, "agent", schedule=YEARLY, input=QUESTION)
    )
    assert not set(crons) & ids(await bob.crons.search(limit=100), "cron_id")
    assert not set(crons) & ids(await bob.crons.search(thread_id=thread), "cron_id")
    assert await bob.crons.count(metadata={"team": "a"}) == 0

    planted = await bob.crons.create("agent", schedule=YEARLY, metadata={"owner": "alice"})
    assert planted["cron_id"] not in ids(await alice.crons.search(limit=100), "cron_id")

    left = {c["cron_id"]: c for c in await alice.crons.search(limit=100)}
    assert set(crons) <= left.keys()
    assert left[stateless["cron_id"]]["schedule"] == "0 0 2 1 *"
    for cron in crons:
        await alice.crons.delete(cron)
    assert not set(crons) & ids(await alice.crons.search(limit=100), "cron_id")


async def test_the_store_is_scoped_to_the_callers_namespace(server: Server) -> None:
    alice, bob = clients(server)
    await alice.store.put_item(["alice", "notes"], "memo", {"text": "секрет Алисы"})
    assert (await alice.store.get_item(["alice", "notes"], "memo"))["value"] == {
        "text": "секрет Алисы"
    }
    assert ["alice", "notes"] in (await alice.store.list_namespaces())["namespaces"]
    assert len((await alice.store.search_items([]))["items"]) == 1
    await bob.store.put_item(["bob", "notes"], "memo", {"text": "заметка Боба"})

    for call in (
        lambda: bob.store.get_item(["alice", "notes"], "memo"),
        lambda: bob.store.put_item(["alice", "notes"], "memo", {"text": "подмена"}),
        lambda: bob.store.put_item(["chats", "alice"], "x", {"text": "подброшено"}),
        lambda: bob.store.put_item(["notes"], "x", {"text": "общее"}),
        lambda: bob.store.delete_item(["alice", "notes"], "memo"),
        lambda: bob.store.search_items(["alice"]),
        lambda: bob.store.search_items(["chats"]),
        lambda: bob.store.list_namespaces(prefix=["alice"]),
    ):
        assert await refused(call) == 403
    everything = await bob.store.search_items([], limit=100)
    assert [item["namespace"] for item in everything["items"]] == [["bob", "notes"]]
    assert (await bob.store.list_namespaces())["namespaces"] == [["bob", "notes"]]
    assert (await bob.store.list_namespaces(suffix=["notes"]))["namespaces"] == [["bob", "notes"]]

    assert (await alice.store.get_item(["alice", "notes"], "memo"))["value"] == {
        "text": "секрет Алисы"
    }
    assert (await alice.store.list_namespaces())["namespaces"] == [["alice", "notes"]]
    await alice.store.delete_item(["alice", "notes"], "memo")
    assert await alice.store.get_item(["alice", "notes"], "memo") is None
