"""Fuzzing the LangGraph API (a real ``langgraph dev`` on loopback): no body gets a 5xx.

Run-creating routes (stateless and on a thread, wait, stream, batch) and the thread,
assistant and store routes get bodies valid and broken: huge integers, lone surrogates,
deep nesting, NaN, invalid UTF-8, over-long questions and chat ids, wrong types and
oversized batches. Every answer is below 500 and every 4xx a Russian ``{"detail": ...}``.
The example count is small (120, about 30 s): each valid run executes the agent graph.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from finagent.server.input_limits import MAX_BATCH_INPUTS
from tests.conftest import KB_CSV, run_finagent
from tests.e2e.langgraph_server import langgraph_dev, offline_api_env

ALICE = {"Authorization": "Bearer alice-token-0001"}
CYRILLIC = re.compile("[А-Яа-яЁё]")
THREAD = "{thread}"  # in a path: replaced by the id of Alice's thread


@pytest.fixture(scope="module")
def api(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[httpx.Client, str]]:
    tmp = tmp_path_factory.mktemp("langgraph-fuzz")
    env = offline_api_env(tmp / "data")
    kb = tmp / "kb.csv"
    kb.write_text(KB_CSV, encoding="utf-8")
    done = run_finagent(env, "ingest", "kb", str(kb))
    assert done.returncode == 0, done.stderr
    with (
        langgraph_dev(env, tmp / "server.log") as url,
        httpx.Client(base_url=url, headers=ALICE, timeout=120) as http,
    ):
        thread = http.post("/threads", json={}).json()["thread_id"]
        yield http, thread


ROUTES = [
    ("POST", "/runs/wait"),
    ("POST", "/runs/stream"),
    ("POST", "/runs/batch"),
    ("POST", f"/threads/{THREAD}/runs/wait"),
    ("POST", f"/threads/{THREAD}/runs/stream"),
    ("POST", "/threads"),
    ("POST", "/threads/search"),
    ("PATCH", f"/threads/{THREAD}"),
    ("POST", "/assistants/search"),
    ("PUT", "/store/items"),
    ("POST", "/store/items/search"),
]
text = st.text(st.characters(exclude_categories=()), max_size=30)  # lone surrogates too
json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | text,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(text, inner, max_size=3),
    max_leaves=8,
)
agent_input = st.fixed_dictionaries(
    {},
    optional={
        "query": st.sampled_from(["ставка НДС", " ", "я" * 4001]) | json_values,
        "chat_id": st.sampled_from(["c1", "c" * 10_000]) | json_values,
        "selected_document_ids": st.lists(text, max_size=60) | json_values,
        "answer_instructions": st.sampled_from(["коротко", "к" * 2001]) | json_values,
    },
)
run = st.fixed_dictionaries(
    {"assistant_id": st.sampled_from(["agent", "research"]) | json_values},
    optional={
        "input": agent_input | json_values,
        "config": st.fixed_dictionaries(
            {"configurable": st.fixed_dictionaries({"chat_id": st.just("c" * 300) | text})}
        )
        | json_values,
        "context": st.fixed_dictionaries({"chat_id": st.just("c" * 300) | text}) | json_values,
    },
)


@st.composite
def bodies(draw: st.DrawFn, path: str) -> bytes:
    """A body for ``path`` as raw JSON text (so it can hold what Python's json cannot)."""
    kind = draw(st.sampled_from(["shaped", "shaped", "huge int", "deep", "surrogate", "raw"]))
    if kind == "raw":
        return draw(
            st.sampled_from([b"NaN", b"\xff\xfe", b'{"a":', b"[1]", b""]) | st.binary(max_size=40)
        )
    if path == "/runs/batch":
        size = draw(st.integers(0, 2) | st.integers(MAX_BATCH_INPUTS + 1, 200))
        value: Any = [draw(run)] * size
    elif "/runs" in path:
        value = draw(run)
    else:
        value = draw(st.dictionaries(text, json_values, max_size=3))
    encoded = json.dumps(value)
    if kind == "huge int":
        encoded = '{"n": ' + "9" * draw(st.integers(400, 6000)) + "}"
    elif kind == "deep":
        depth = draw(st.integers(65, 20_000))
        encoded = "[" * depth + "]" * depth
    elif kind == "surrogate":
        encoded = '{"assistant_id": "agent", "input": {"query": "\\ud800"}}'
    return encoded.encode()


@st.composite
def requests(draw: st.DrawFn) -> tuple[str, str, bytes]:
    method, path = draw(st.sampled_from(ROUTES))
    return method, path, draw(bodies(path))


@settings(
    max_examples=120,
    derandomize=True,
    database=None,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
@given(request=requests())
def test_fuzz_langgraph_api(api: tuple[httpx.Client, str], request: tuple[str, str, bytes]) -> None:
    http, thread = api
    method, path, body = request
    headers = {"Content-Type": "application/json"}
    response = http.request(method, path.replace(THREAD, thread), content=body, headers=headers)
    event(f"HTTP {response.status_code}")
    assert response.status_code < 500, (method, path, body[:200], response.text[:500])
    if response.status_code >= 400:
        detail = response.json()["detail"]
        assert isinstance(detail, str) and CYRILLIC.search(detail), (path, detail)


def test_run_limits_are_the_services(api: tuple[httpx.Client, str]) -> None:
    """The run routes refuse what ``/v1/ask`` refuses, with its Russian texts."""
    http, thread = api
    ask = {"assistant_id": "agent", "input": {"query": "Какая ставка НДС?"}}
    refused = [
        ("/runs/wait", {**ask, "input": {"query": "я" * 4001}}, "Вопрос слишком длинный"),
        (f"/threads/{thread}/runs/wait", {**ask, "context": {"chat_id": "c" * 201}}, "«чат»"),
        ("/runs/stream", {**ask, "input": {"query": "q", "chat_id": "c" * 10_000}}, "«чат»"),
        ("/runs/batch", [ask] * (MAX_BATCH_INPUTS + 1), "Слишком много запросов"),
    ]
    raw = [(path, json.dumps(value).encode(), expected) for path, value, expected in refused]
    huge = b'{"metadata": {"n": ' + b"9" * 5000 + b"}}"
    raw.append(("/threads", huge, "число вне допустимого диапазона"))
    raw.append(("/store/items/search", b"{}", "namespace_prefix"))  # was: 500 (KeyError)
    for path, body, expected in raw:
        response = http.post(path, content=body, headers={"Content-Type": "application/json"})
        assert response.status_code == 422, response.text
        assert expected in response.json()["detail"], response.text
    ok = http.post("/runs/wait", json=ask)
    assert ok.status_code == 200 and "## Источники" in ok.json()["answer"]
