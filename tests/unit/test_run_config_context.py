"""Inside a LangGraph/LangChain run, the run's configuration names the embedding user and
carries the answer deadline (how runs started by the LangGraph API get both)."""

from __future__ import annotations

import time

from langchain_core.runnables import RunnableLambda

from finagent.clients.budget import RUN_DEADLINE_KEY, answer_budget, remaining_s
from finagent.retrieval.fairness import current_embedding_user, embedding_user


async def test_the_run_configuration_names_the_user_and_the_deadline() -> None:
    seen: dict[str, object] = {}

    async def probe(_: object) -> None:
        seen["user"] = current_embedding_user()
        seen["left"] = remaining_s()
        with answer_budget(100.0):  # a budget inside the run's never extends it
            seen["inner"] = remaining_s()

    deadline = time.monotonic() + 5.0
    configurable = {"langgraph_auth_user_id": "alice", "user_id": "bob", RUN_DEADLINE_KEY: deadline}
    await RunnableLambda(probe).ainvoke(None, {"configurable": configurable})
    assert seen["user"] == "alice"  # the token's user wins over a claimed user_id
    assert isinstance(seen["left"], float) and 0 < seen["left"] <= 5.0
    assert isinstance(seen["inner"], float) and seen["inner"] <= 5.0
    assert remaining_s() is None and current_embedding_user() is None  # outside the run


async def test_the_context_variable_still_wins_over_the_configuration() -> None:
    seen: list[str | None] = []

    async def probe(_: object) -> None:
        seen.append(current_embedding_user())

    token = embedding_user.set("carol")
    try:
        await RunnableLambda(probe).ainvoke(None, {"configurable": {"user_id": "bob"}})
    finally:
        embedding_user.reset(token)
    await RunnableLambda(probe).ainvoke(None, {"configurable": {"user_id": "bob"}})
    assert seen == ["carol", "bob"]
