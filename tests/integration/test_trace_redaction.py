"""LangSmith traces carry no form of a secret; without a LangSmith key, none are sent.

The real LangSmith client and LangChain tracer upload to a loopback fake of the LangSmith
API (tests/fakes/langsmith_api.py); every uploaded byte is scanned.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import langsmith
import pytest
from langchain_core.runnables import RunnableLambda
from langchain_core.tracers.langchain import wait_for_all_tracers
from langsmith import run_trees, utils

from finagent.observability import register_secrets
from finagent.tracing import configure_tracing
from tests.e2e.test_secret_forms import KEY, leaked_runs
from tests.fakes.langsmith_api import run_fake_langsmith
from tests.fakes.openai_api import key_forms_text

LANGSMITH_KEY = "lsv2_pt_fake0trace0key0for0tests0001"


@pytest.fixture
def tracing_env(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    monkeypatch.setenv("LANGSMITH_TRACING", "true")
    monkeypatch.setenv("LANGSMITH_DISABLE_RUN_COMPRESSION", "true")
    monkeypatch.setenv("LANGSMITH_PROJECT", "finagent-tests")
    utils.get_env_var.cache_clear()
    yield monkeypatch
    langsmith.configure(client=None, enabled=None)
    monkeypatch.delenv("LANGSMITH_TRACING")
    utils.get_env_var.cache_clear()


def _echoing_chain() -> Any:
    def provider(question: dict[str, Any]) -> dict[str, Any]:
        return {"answer": "нет", "response_metadata": {"body": key_forms_text(KEY)}}

    def failing(_: dict[str, Any]) -> None:
        raise RuntimeError(key_forms_text(KEY))

    return RunnableLambda(provider, name="echoing_provider"), RunnableLambda(failing)


def test_traces_reach_langsmith_redacted(tracing_env: pytest.MonkeyPatch) -> None:
    register_secrets([KEY])
    with run_fake_langsmith() as fake:
        tracing_env.setenv("LANGSMITH_ENDPOINT", fake.url)
        tracing_env.setenv("LANGSMITH_API_KEY", LANGSMITH_KEY)
        utils.get_env_var.cache_clear()
        assert configure_tracing()
        provider, failing = _echoing_chain()
        provider.invoke({"question": f"ключ {KEY}?"})
        with pytest.raises(RuntimeError):
            failing.invoke({"q": KEY.upper()})
        wait_for_all_tracers()
        run_trees.get_cached_client().flush()
    sent = b"".join(body for _, body in fake.uploads)
    assert b"echoing_provider" in sent, "no run was uploaded: the test proves nothing"
    assert b"RuntimeError" in sent  # the failed run and its (redacted) error went too
    assert leaked_runs(sent) == [] and leaked_runs(sent, LANGSMITH_KEY) == []


def test_without_a_langsmith_key_nothing_is_sent(tracing_env: pytest.MonkeyPatch) -> None:
    with run_fake_langsmith() as fake:
        tracing_env.setenv("LANGSMITH_ENDPOINT", fake.url)
        tracing_env.delenv("LANGSMITH_API_KEY", raising=False)
        tracing_env.delenv("LANGCHAIN_API_KEY", raising=False)
        utils.get_env_var.cache_clear()
        assert configure_tracing() is False
        provider, _ = _echoing_chain()
        provider.invoke({"question": "?"})
        wait_for_all_tracers()
    assert fake.uploads == []
