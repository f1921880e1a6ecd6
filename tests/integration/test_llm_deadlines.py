"""The LLM and embeddings endpoints: each request, its body included, has a total deadline.

A server that answers the head at once and then drips a byte now and then never trips
the SDK's per-read timeout; the deadline transport ends the request anyway.
"""

from __future__ import annotations

import openai
import pytest
from langchain_core.messages import HumanMessage

from finagent.clients.budget import answer_budget
from finagent.clients.llm import build_chat_model
from finagent.config import Settings
from finagent.retrieval.embeddings import OpenAICompatibleEmbedder
from tests.fakes.faults import FaultMode, fault_server


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.mark.parametrize("mode", ["drip", "hang"])
async def test_llm_request_ends_at_its_deadline(mode: FaultMode) -> None:
    with fault_server(mode, content_type="application/json") as upstream:
        conf = settings(
            llm_base_url=upstream.url.rstrip("/"),
            llm_model="fake-model",
            llm_api_key="sk-test-deadline",
            llm_timeout_s=30.0,  # per read: would wait far longer than the deadline
            llm_max_retries=0,
            llm_deadline_s=0.3,
        )
        model = build_chat_model(conf, "answer")
        assert model is not None
        with pytest.raises(openai.APITimeoutError):
            await model.ainvoke([HumanMessage("Какая ставка НДС?")])
    assert upstream.connections == 1


async def test_the_answer_budget_also_bounds_llm_requests() -> None:
    with fault_server("drip", content_type="application/json") as upstream:
        conf = settings(
            llm_base_url=upstream.url.rstrip("/"),
            llm_model="fake-model",
            llm_max_retries=3,
            llm_deadline_s=60.0,
        )
        model = build_chat_model(conf)
        assert model is not None
        with answer_budget(0.3), pytest.raises(openai.APITimeoutError):
            await model.ainvoke([HumanMessage("Какая ставка НДС?")])
    # the retries after the budget was spent were refused before connecting
    assert upstream.connections == 1


@pytest.mark.parametrize("mode", ["drip", "hang"])
async def test_embeddings_request_ends_at_its_deadline(mode: FaultMode) -> None:
    with fault_server(mode, content_type="application/json") as upstream:
        conf = settings(embeddings_base_url=upstream.url.rstrip("/"), embeddings_deadline_s=0.3)
        embedder = OpenAICompatibleEmbedder(conf)
        with pytest.raises(openai.APITimeoutError):
            await embedder.embed_passages(["Ставка НДС 20 процентов"])
    assert upstream.connections == 3  # the SDK's two retries, each bounded
