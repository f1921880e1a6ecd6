"""Bugs a blind review of stop 41 found, each in wording written for this test (no eval
item's): a failing backend leg's error logged with the secrets of its URL, a person
missed or found inside another word, a promoted candidate's score changed for every list
holding it, an unbounded readings cache, two copies of a breach's «не»."""

from __future__ import annotations

import asyncio
import gc
import logging
import tracemalloc
from typing import Any

import pytest
import structlog

from finagent.answering.asked_action import actions_named
from finagent.answering.evidence import Candidate, promoted, promoted_at
from finagent.config import Settings
from finagent.language import lemmas
from finagent.language.lemmas import breach_act
from finagent.observability import configure_logging, register_secrets
from finagent.retrieval.qdrant_index import QdrantServerIndex
from finagent.retrieval.retriever import Retriever
from finagent.retrieval.sparse import RussianBm25
from finagent.state import Chunk

PASSWORD = "Zq8vTn4wKc2pR7"
API_KEY = "qdr-61be0f9c44a7d2e8"
URL = f"https://svc:{PASSWORD}@vectors.example.net:6333"


class _BackendDown(Exception):
    """A vector store client's error that echoes its URL and headers."""


async def _failing_search(*_args: Any, **_kwargs: Any) -> Any:
    raise _BackendDown(f"POST {URL}/collections/x/points/query failed; api-key: {API_KEY}")


def _log_a_failing_leg() -> None:
    settings = Settings(qdrant_url=URL, qdrant_api_key=API_KEY)
    register_secrets(settings.secret_values())  # what bootstrap does
    index = QdrantServerIndex(location=":memory:")
    retriever = Retriever(index, embedder=None, bm25=RussianBm25(), settings=settings)  # type: ignore[arg-type]
    retriever._search_batch = _failing_search  # type: ignore[method-assign]

    async def run() -> None:
        try:
            await retriever.code_extra("kb", "срок уплаты сбора", [], limit=1, lexical=1)
        finally:
            await index.close()

    asyncio.run(run())


# 1. security: a backend error's text never reaches a log with its URL's password or key
@pytest.mark.parametrize("json_logs", [False, True])
def test_a_failing_leg_logs_no_secret_through_the_entry_point_logging(
    capsys: pytest.CaptureFixture[str], json_logs: bool
) -> None:
    configure_logging("INFO", json_logs=json_logs)
    _log_a_failing_leg()
    err = capsys.readouterr().err
    assert "code_extra_failed" in err and "_BackendDown" in err
    assert PASSWORD not in err and API_KEY not in err


def test_a_failing_leg_logs_no_secret_through_plain_stdlib_logging(
    caplog: pytest.LogCaptureFixture,
) -> None:
    structlog.reset_defaults()  # a host that never configured structlog
    with caplog.at_level(logging.WARNING):
        _log_a_failing_leg()
    text = "\n".join(r.getMessage() for r in caplog.records)
    assert "code_extra_failed" in text
    assert PASSWORD not in text and API_KEY not in text


def test_a_configured_url_s_password_is_a_registered_secret() -> None:
    settings = Settings(qdrant_url=URL, embeddings_base_url="http://e5:p%40ss-w0rd-9@emb:8080")
    secrets = settings.secret_values()
    assert PASSWORD in secrets and "p@ss-w0rd-9" in secrets
    assert URL not in secrets  # the URL itself stays loggable


# 3. promoted: a second reader of a shared candidate never sees a raised score
def test_promoting_a_shared_candidate_leaves_the_other_list_alone() -> None:
    chunk = Chunk(id="kb:7", text="", source="kb", title="Земельный налог")
    rule = Candidate(chunk, 1, "Налоговым периодом признаётся календарный год.", 0, 0, score=9.0)
    rate = Candidate(chunk, 1, "Ставка составляет 0,3 процента.", 0, 1, score=4.0)
    shared = [rule, rate]
    other_leg = [rate]
    out = promoted(shared, rate)
    assert out[0].sentence == rate.sentence and out[0].score == 9.0
    assert rate.score == 4.0 and other_leg[0].score == 4.0
    worked = promoted_at(shared, rate, 9.5)
    assert worked[0].score == 9.5 and rate.score == 4.0


# 4. the readings cache: bounded in words, and so in memory
def test_the_readings_cache_is_bounded_to_tens_of_megabytes() -> None:
    assert lemmas.parses.cache_info().maxsize == lemmas.READINGS_CACHED
    words = [f"пробн{a}{b}ость" for a in "абвгдежзик" for b in "лмнопрстуф"]
    lemmas.parses.cache_clear()
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        for word in words:
            lemmas.parses(word)
        used = tracemalloc.get_traced_memory()[0] - before
    finally:
        tracemalloc.stop()
    per_word = used / len(words)
    assert lemmas.READINGS_CACHED * per_word < 64_000_000


# 5. a breach's noun: one reading for the asked action and for a sanction's rule
def test_a_breach_noun_names_the_act_it_negates() -> None:
    assert breach_act("неперечисление") == "перечисление"
    assert breach_act("несдача") == "сдача"
    assert breach_act("необходимый") is None  # an adjective, no breach
    assert breach_act("нет") is None
    assert "pay" in actions_named("штраф за неперечисление сбора в срок")
