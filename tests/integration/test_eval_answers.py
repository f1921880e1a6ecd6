"""``finagent eval answers`` end to end: the real runner over part of the Tax Code, and
proof that without a LangSmith key nothing tries to reach LangSmith."""

from __future__ import annotations

import logging
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from langchain_core.messages import AIMessage
from typer.testing import CliRunner

from evals.answers import AnswerEvalConfig, format_report, load_answer_dataset, run_answer_eval
from evals.answers.code_units import CodeUnits
from evals.answers.dataset import DEV_DATASET, AnswerItem
from evals.answers.langsmith_io import offline_client
from evals.answers.runner import _evaluate_mode
from finagent.config import Settings
from finagent.graph.agent import Agent
from tests.fakes.llm import ScriptedChatModel

REPO = Path(__file__).resolve().parents[2]
TRACING_VARS = (
    "LANGSMITH_API_KEY",
    "LANGCHAIN_API_KEY",
    "LANGSMITH_TRACING",
    "LANGCHAIN_TRACING_V2",
    "LANGCHAIN_TRACING",
    "LANGSMITH_TRACING_V2",
    "LANGSMITH_PROJECT",
    "LANGCHAIN_PROJECT",
)


def _taxcode_dir() -> Path:
    """The Tax Code folder; its absence skips locally and fails when CI is set."""
    env = os.environ.get("FINAGENT_TAXCODE_DIR")
    folder = Path(env) if env else REPO.parent / "shared" / "data" / "tax-code"
    if not (folder / "nk-part1-2025.txt").exists():
        reason = f"Tax Code text not found at {folder} (set FINAGENT_TAXCODE_DIR)"
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {reason}", pytrace=False)
        pytest.skip(reason)
    return folder


class Recorder:
    """A loopback TCP server that records every connection made to it."""

    def __init__(self) -> None:
        self.server = socket.create_server(("127.0.0.1", 0))
        self.url = f"http://127.0.0.1:{self.server.getsockname()[1]}"
        self.requests: list[bytes] = []
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while True:
            try:
                conn, _ = self.server.accept()
            except OSError:
                return
            with conn:
                conn.settimeout(1)
                try:
                    self.requests.append(conn.recv(200))
                except OSError:
                    self.requests.append(b"")

    def close(self) -> None:
        self.server.close()


@pytest.fixture
def langsmith_recorder(monkeypatch: pytest.MonkeyPatch) -> Iterator[Recorder]:
    """No key and no tracing variables; every LangSmith endpoint points at the recorder."""
    recorder = Recorder()
    for name in TRACING_VARS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANGSMITH_ENDPOINT", recorder.url)
    monkeypatch.setenv("LANGCHAIN_ENDPOINT", recorder.url)
    yield recorder
    recorder.close()


def _assert_no_contact(recorder: Recorder, caplog: pytest.LogCaptureFixture) -> None:
    time.sleep(0.5)  # background senders would have connected by now
    assert recorder.requests == []
    warnings = [r.getMessage() for r in caplog.records if r.name.startswith("langsmith")]
    assert not [m for m in warnings if "connection" in m.lower() or "failed to" in m.lower()]
    assert not [r for r in caplog.records if r.name.startswith("langsmith") and r.levelno >= 30]


async def test_no_langsmith_key_means_no_connection(
    make_services, langsmith_recorder: Recorder, caplog: pytest.LogCaptureFixture
) -> None:  # type: ignore[no-untyped-def]
    """aevaluate traces its target even with upload_results=False; the runner must not
    let that (nor LangChain's tracer inside the agent) reach LangSmith."""
    caplog.set_level(logging.DEBUG, logger="langsmith")
    llm = ScriptedChatModel([AIMessage("Ответ без источников.")] * 20)
    services = await make_services(llm=llm)
    items = [
        AnswerItem(id="q1", question="Какая ставка НДС на хлеб?", dataset="tiny"),
        AnswerItem(
            id="q2",
            question="Какая ставка НДС в Казахстане?",
            trap=True,
            trap_kind="jurisdiction",
            dataset="tiny",
        ),
    ]
    scored, name = await _evaluate_mode(
        Agent(services),
        items,
        CodeUnits(),
        mode="verified",
        upload=False,
        client=offline_client(),
        metadata={},
    )
    assert name
    assert [s["id"] for s in scored] == ["q1", "q2"]
    assert all(s["error"] is None for s in scored)
    assert sum(s["llm_calls"] for s in scored) >= 1  # round-trips counted by the callback
    _assert_no_contact(langsmith_recorder, caplog)


@pytest.mark.taxcode
async def test_answer_eval_end_to_end_on_the_penalty_chapter(
    tmp_path: Path, langsmith_recorder: Recorder, caplog: pytest.LogCaptureFixture
) -> None:
    folder = _taxcode_dir()
    dev = load_answer_dataset(DEV_DATASET)
    answerable = [i for i in dev if not i.trap and i.expected_articles[0].startswith("nk1.ch16.")]
    traps = [i for i in dev if i.trap_kind in ("uningested_code", "jurisdiction")]
    items = answerable[:2] + traps[:1]
    assert len(items) == 3
    settings = Settings(
        data_dir=tmp_path / "cache",
        law_dense_max_chars=200,
        embeddings_batch_size=16,
        _env_file=None,  # type: ignore[call-arg]
    )
    config = AnswerEvalConfig(taxcode_dir=folder, parts=[1], chapters={"16"})
    result = await run_answer_eval(items, settings, config)

    assert result["modes"] == ["baseline", "verified"]
    assert result["datasets"] == {"answers_taxcode": 3}
    assert result["langsmith"]["upload"] is False
    assert result["ingest"][0]["chunks"] > 20
    part = result["by_dataset"]["answers_taxcode"]
    for mode in ("baseline", "verified"):
        metrics = part["modes"][mode]["metrics"]
        assert metrics["errors"] == 0
        for key in ("article_recall", "point_recall", "key_fact", "trap_abstention"):
            assert metrics[key] is not None and 0.0 <= metrics[key] <= 1.0
        for key in ("article_precision", "point_precision", "false_abstention"):
            assert metrics[key] is None or 0.0 <= metrics[key] <= 1.0
        assert metrics["unsupported_refs"] >= 0 and metrics["llm_calls_per_answer"] == 0
        assert metrics["latency_p95_ms"] >= metrics["latency_p50_ms"] > 0
        assert set(part["modes"][mode]["targets"]) >= {"key_fact", "unsupported_refs"}
        rows = part["items"][mode]
        assert [r["id"] for r in rows] == [i.id for i in items]
        assert all({"cited_units", "abstained", "latency_ms", "answer"} <= set(r) for r in rows)
    # the baseline composer never abstains; the chapter holds the penalty articles
    assert part["modes"]["baseline"]["metrics"]["article_recall"] > 0
    table = format_report(result)
    assert "== answers_taxcode (3 items)" in table and "abstention on traps" in table
    _assert_no_contact(langsmith_recorder, caplog)


def test_cli_rejects_a_missing_taxcode_folder_and_an_unconfigured_llm(tmp_path: Path) -> None:
    from finagent.cli import app

    runner = CliRunner()
    missing = runner.invoke(app, ["eval", "answers", "--taxcode-dir", str(tmp_path / "none")])
    assert missing.exit_code == 2 and "Tax Code folder not found" in missing.output
    env = {"FINAGENT_LLM_API_KEY": "", "OPENROUTER_API_KEY": "", "FINAGENT_LLM_MODEL": ""}
    from finagent.config import get_settings

    get_settings.cache_clear()
    try:
        offline = runner.invoke(
            app, ["eval", "answers", "--llm", "--taxcode-dir", str(tmp_path)], env=env
        )
    finally:
        get_settings.cache_clear()
    assert offline.exit_code == 2 and "no LLM is configured" in offline.output
