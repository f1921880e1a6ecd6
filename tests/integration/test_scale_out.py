"""Several ``finagent serve`` workers on one PostgreSQL store and checkpointer, under the
conversation load of benchmarks/bench_scale_out.py: every follow-up of a chat goes to
another worker process, and no turn is lost or crossed (docs/deployment.md)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.workers import WorkerPool, audit, run_conversations

WORKERS = 3
SESSIONS = 6
QUESTIONS = 3


@pytest.mark.slow
async def test_workers_share_one_postgres_without_lost_or_crossed_turns(
    tmp_path: Path, postgres_url: str, kb_csv: Path
) -> None:
    pool = WorkerPool(tmp_path, WORKERS, postgres_url, users=4)
    pool.ingest_kb(kb_csv)  # each worker's own Edge index; the records go to PostgreSQL
    try:
        await pool.start()
        run = await run_conversations(pool, SESSIONS, QUESTIONS)
    finally:
        pool.stop()
    assert [s.status for s in run.sent] == [200] * SESSIONS * QUESTIONS
    found = await audit(pool, run)
    assert found == {
        "chats": SESSIONS,
        "sent": SESSIONS * QUESTIONS,
        "acknowledged": SESSIONS * QUESTIONS,
        "stored_exchanges": SESSIONS * QUESTIONS,
        "lost": 0,
        "crossed": 0,
        "half": 0,
        "threads_off": 0,
        "workers_per_chat": WORKERS,  # every chat was answered by all three processes
    }
    assert all(re.search("[а-яё]", s.answer) for s in run.sent)  # Russian answers
