"""``finagent ask`` streams: progress on stderr, the answer on stdout; ``--json`` unchanged."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from finagent.commands.stream_render import CHECKED_HEADER, TerminalRenderer
from finagent.graph.agent import InvalidRequestError
from tests.conftest import run_finagent


def test_ask_streams_progress_to_stderr_and_the_answer_to_stdout(
    env: dict[str, str], doc_files: dict[str, Path]
) -> None:
    docs = run_finagent(env, "ingest", "docs", "--user", "alice", str(doc_files["lease"]))
    assert docs.returncode == 0, docs.stderr
    question = "какие пени в моём договоре аренды?"
    # progress lines are shown on a terminal or with -v (here stderr is a pipe)
    streamed = run_finagent(env, "-v", "ask", question, "--user", "alice", "--chat", "c1")
    assert streamed.returncode == 0, streamed.stderr
    assert "… Сценарий S1" in streamed.stderr and "Найдено фрагментов" in streamed.stderr
    assert "Сценарий" not in streamed.stdout
    assert "0,1 %" in streamed.stdout and "## Источники" in streamed.stdout
    as_json = run_finagent(env, "ask", question, "--user", "alice", "--json")
    assert as_json.returncode == 0, as_json.stderr
    result = json.loads(as_json.stdout)  # stdout is one JSON document, as before
    assert result["scenario"] == 1 and result["answer"].strip() == streamed.stdout.strip()
    foreign = run_finagent(env, "ask", "сумма?", "--user", "bob", "--doc", "doc_missing")
    assert foreign.returncode == 2 and "Документы не найдены" in foreign.stderr


def test_renderer_completes_or_replaces_the_streamed_tokens() -> None:
    out, err = io.StringIO(), io.StringIO()
    renderer = TerminalRenderer(out, err)
    renderer.event("progress", {"stage": "scenario", "message": "Сценарий S2: база знаний."})
    renderer.event("token", {"text": "Ставка 20 % "})
    renderer.event("token", {"text": "[1]."})
    renderer.event("final", {"answer": "Ставка 20 % [1].\n\n## Источники\n[1] НК РФ"})
    assert out.getvalue() == "Ставка 20 % [1].\n\n## Источники\n[1] НК РФ\n"
    assert err.getvalue() == "… Сценарий S2: база знаний.\n"

    out = io.StringIO()
    renderer = TerminalRenderer(out, err)
    renderer.event("token", {"text": "Ставка 20 % [7]."})
    renderer.event("final", {"answer": "Ставка 20 %."})  # the check dropped [7]
    assert out.getvalue() == "Ставка 20 % [7]." + CHECKED_HEADER + "Ставка 20 %.\n"
    with pytest.raises(InvalidRequestError, match="Документы"):
        renderer.event("error", {"message": "Документы не найдены"})
