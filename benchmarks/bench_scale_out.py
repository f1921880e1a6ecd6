"""Scale-out on one machine: 1 vs N ``finagent serve`` workers on one PostgreSQL.

The same conversation load (tests/workers.py: S chats at once, Q follow-ups each, every
follow-up sent to the next worker) runs against 1 worker and against N workers, each
count on a fresh database of one throw-away PostgreSQL cluster (tests/fakes/postgres.py),
offline (no LLM: rules and the extractive composer). Reported side by side:

- answered questions per second (wall clock) and their ratio to 1 worker;
- CPU seconds per question of the workers and of PostgreSQL (from /proc: what a core
  can carry, whatever else runs on the machine), and questions per second per worker core;
- p50/p95 latency, RSS per worker after the load;
- the audit: lost, crossed and half turns, threads that do not continue across workers.

``--llm-latency S`` adds an LLM: every worker's chat model is a loopback OpenAI-compatible
fake (the real ChatOpenAI client over HTTP) that answers each call after S seconds: the
routing decision (structured output) and the answer, so the figures are the fake's
latency plus finagent's own work, not a real model's.

No timing is asserted anywhere; tests/integration/test_scale_out.py checks correctness.

    python benchmarks/bench_scale_out.py [--workers 1,2] [--sessions 8] [--questions 4]
        [--llm-latency 0.5] [--out figures.json]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import sys
import tempfile
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from tests.conftest import KB_CSV  # noqa: E402
from tests.fakes.net import serving  # noqa: E402
from tests.fakes.postgres import PostgresCluster, find_bindir  # noqa: E402
from tests.workers import WorkerPool, audit, run_conversations  # noqa: E402

TICKS = os.sysconf("SC_CLK_TCK")
LLM_CALLS: list[int] = []  # one item per chat completion the fake LLM answered
DECISION = {
    "scenario": 2,
    "intents": ["kb"],
    "confidence": 0.9,
    "reason": "вопрос по базе знаний",
    "clarifying_questions": [],
    "sub_queries": [],
}
ANSWER = (
    "## Краткий вывод\nОтвет по базе знаний [1].\n\n## Подробный анализ\n"
    "Подробности приведены в источнике [1]."
)


def slow_llm(latency: float) -> Starlette:
    """Chat completions after ``latency`` seconds: the decision JSON for structured-output
    calls, a fixed Markdown answer (no tool calls) for the others."""

    async def completions(request: Request) -> JSONResponse:
        body = await request.json()
        LLM_CALLS.append(1)
        await asyncio.sleep(latency)  # the model's time, simulated
        structured = (body.get("response_format") or {}).get("type") == "json_schema"
        content = json.dumps(DECISION, ensure_ascii=False) if structured else ANSWER
        message = {"role": "assistant", "content": content}
        return JSONResponse(
            {
                "id": "chatcmpl-bench",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "fake"),
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
            }
        )

    return Starlette(routes=[Route("/v1/chat/completions", completions, methods=["POST"])])


def cpu_s(pid: int) -> float:
    """User + system CPU seconds of a process."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICKS


def postgres_pids(cluster: PostgresCluster) -> list[int]:
    """The postmaster and its backends."""
    master = int((cluster.data_dir / "postmaster.pid").read_text().split()[0])
    children = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == master:
            children.append(int(stat.parent.name))
    return [master, *children]


def postgres_cpu(cluster: PostgresCluster) -> float:
    total = 0.0
    for pid in postgres_pids(cluster):
        try:
            total += cpu_s(pid)
        except OSError:
            pass  # a backend that ended
    return total


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def one(cluster: PostgresCluster, count: int, args: argparse.Namespace) -> dict[str, Any]:
    import psycopg

    name = f"bench_scale_{count}"
    with psycopg.connect(cluster.dsn(), autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}"')
        conn.execute(f'CREATE DATABASE "{name}"')
    with tempfile.TemporaryDirectory(prefix="bench-scale-") as tmp:
        kb = Path(tmp) / "kb.csv"
        kb.write_text(KB_CSV, encoding="utf-8")
        pool = WorkerPool(
            Path(tmp), count, cluster.dsn(name), users=args.sessions, extra_env=args.llm_env
        )
        pool.ingest_kb(kb)
        try:
            start_s = await pool.start()
            await run_conversations(pool, count, 1, "warm")  # one question per worker
            pids = [w.proc.pid for w in pool.workers if w.proc is not None]
            cpu_before = sum(cpu_s(p) for p in pids)
            pg_before = postgres_cpu(cluster)
            calls_before = len(LLM_CALLS)
            run = await run_conversations(pool, args.sessions, args.questions)
            llm_calls = len(LLM_CALLS) - calls_before
            worker_cpu = sum(cpu_s(p) for p in pids) - cpu_before
            pg_cpu = postgres_cpu(cluster) - pg_before
            rss = pool.rss_mb()
        finally:
            pool.stop()
        found = await audit(pool, run)
    answered = len(run.acknowledged)
    return {
        "workers": count,
        "start_s": round(start_s, 1),
        "questions": len(run.sent),
        "answered": answered,
        "wall_s": round(run.wall_s, 2),
        "qps": round(answered / run.wall_s, 2),
        "worker_cpu_s_per_q": round(worker_cpu / answered, 3),
        "postgres_cpu_s_per_q": round(pg_cpu / answered, 4),
        "qps_per_worker_core": round(answered / worker_cpu, 2),
        "llm_calls_per_q": round(llm_calls / answered, 2),
        "p50_s": round(pct(run.latencies, 0.5), 2),
        "p95_s": round(pct(run.latencies, 0.95), 2),
        "rss_mb_per_worker": round(statistics.mean(rss), 1),
        "audit": found,
    }


async def main(args: argparse.Namespace) -> dict[str, Any]:
    bindir = find_bindir()
    if bindir is None:
        raise SystemExit("PostgreSQL server binaries (initdb, pg_ctl) are not installed")
    cluster = PostgresCluster(bindir)
    cluster.start()
    try:
        with ExitStack() as stack:
            args.llm_env = {}
            if args.llm_latency is not None:
                url = stack.enter_context(serving(slow_llm(args.llm_latency)))
                args.llm_env = {
                    "FINAGENT_LLM_BASE_URL": url + "/v1",
                    "FINAGENT_LLM_MODEL": "fake-model",
                    "FINAGENT_LLM_API_KEY": "sk-bench-0000",
                    "FINAGENT_LLM_MAX_RETRIES": "0",
                }
            rows = [await one(cluster, int(n), args) for n in args.workers.split(",")]
    finally:
        cluster.stop()
    base = rows[0]["qps"]
    for row in rows:
        row["qps_ratio_to_first"] = round(row["qps"] / base, 2) if base else None
    return {
        "cores": os.cpu_count(),
        "sessions": args.sessions,
        "llm_latency_s": args.llm_latency,
        "rows": rows,
    }


def table(result: dict[str, Any]) -> str:
    keys = [
        "workers",
        "qps",
        "qps_ratio_to_first",
        "worker_cpu_s_per_q",
        "postgres_cpu_s_per_q",
        "qps_per_worker_core",
        "llm_calls_per_q",
        "p50_s",
        "p95_s",
        "rss_mb_per_worker",
        "start_s",
    ]
    lines = [" | ".join(keys), " | ".join("---" for _ in keys)]
    for row in result["rows"]:
        lines.append(" | ".join(str(row[k]) for k in keys))
    audits = [
        {k: row["audit"][k] for k in ("lost", "crossed", "half", "threads_off")}
        for row in result["rows"]
    ]
    return "\n".join(lines) + f"\naudit: {audits}"


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--workers", default="1,2")
    parser.add_argument("--sessions", type=int, default=8)
    parser.add_argument("--questions", type=int, default=4)
    parser.add_argument("--llm-latency", type=float, help="seconds per call of a fake LLM")
    parser.add_argument("--out")
    parsed = parser.parse_args()
    figures = asyncio.run(main(parsed))
    if parsed.out:
        Path(parsed.out).write_text(json.dumps(figures, ensure_ascii=False, indent=2))
    print(table(figures))
