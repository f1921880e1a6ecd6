"""Several ``finagent serve`` worker processes on one PostgreSQL, and a conversation load
spread over them (tests/integration/test_scale_out.py, benchmarks/bench_scale_out.py).

Each worker is a real ``finagent serve`` subprocess on its own loopback port with its own
data dir (its embedded Qdrant Edge index: Edge is single-process), and every worker gets
the same ``FINAGENT_POSTGRES_URL``: the store (chat history, document records) and the
checkpointer are shared. The load sends each chat's questions to the workers in turn, so
every follow-up is answered by another process than the question before it.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from pydantic import SecretStr

from tests.fakes.net import free_port

REPO = Path(__file__).resolve().parents[1]
QUESTIONS = [
    "какая ставка НДС на продукты питания?",
    "а на детские товары?",
    "какой штраф за непредставление декларации?",
    "как получить вычет на лечение?",
]


def spawn_serve(port: int, env: Mapping[str, str]) -> subprocess.Popen[bytes]:
    """One ``finagent serve`` process on ``port`` (its output discarded)."""
    return subprocess.Popen(
        [sys.executable, "-m", "finagent.cli", "serve", "--port", str(port)],
        env=env,
        cwd=REPO,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )


def rss_mb(pid: int) -> float:
    """Resident memory of a process, MiB."""
    pages = int(Path(f"/proc/{pid}/statm").read_text().split()[1])
    return pages * os.sysconf("SC_PAGE_SIZE") / 2**20


@dataclass
class Worker:
    data_dir: Path
    port: int
    env: dict[str, str]
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"


class WorkerPool:
    """``count`` ``finagent serve`` processes sharing ``postgres_url``."""

    def __init__(
        self,
        root: Path,
        count: int,
        postgres_url: str,
        users: int,
        extra_env: Mapping[str, str] | None = None,
    ) -> None:
        self.postgres_url = postgres_url
        self.tokens = {f"user{i}": f"token-user-{i:04d}-abcdef" for i in range(users)}
        base = {
            **{k: v for k, v in os.environ.items() if not k.startswith(("FINAGENT_", "LANG"))},
            "FINAGENT_API_TOKENS": ",".join(f"{t}:{u}" for u, t in self.tokens.items()),
            "FINAGENT_POSTGRES_URL": postgres_url,
            "FINAGENT_CBR_ENABLED": "false",
            "LANGSMITH_TRACING": "false",
            **(extra_env or {}),
        }
        self.workers = [
            Worker(
                root / f"worker{i}",
                free_port(),
                {**base, "FINAGENT_DATA_DIR": str(root / f"worker{i}")},
            )
            for i in range(count)
        ]

    def headers(self, user: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {self.tokens[user]}"}

    def ingest_kb(self, kb_csv: Path) -> None:
        """``finagent ingest kb`` once, then a copy of that data dir (its embedded index and
        KB folder) for every other worker: the same read-only knowledge base in each (the
        records went to the shared PostgreSQL store once)."""
        first = self.workers[0]
        done = subprocess.run(
            [sys.executable, "-m", "finagent.cli", "ingest", "kb", str(kb_csv)],
            env=first.env,
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=300,
        )
        if done.returncode != 0:
            raise RuntimeError(f"ingest kb failed: {done.stderr[-2000:]}")
        for worker in self.workers[1:]:
            shutil.copytree(first.data_dir, worker.data_dir)

    def spawn(self) -> None:
        """Start every worker process (``start`` waits until they answer)."""
        for worker in self.workers:
            worker.proc = spawn_serve(worker.port, worker.env)

    async def start(self) -> float:
        """Start every worker; seconds until all answer ``/healthz``."""
        started = time.perf_counter()
        self.spawn()
        async with httpx.AsyncClient() as http:
            await asyncio.gather(*(_healthy(http, w) for w in self.workers))
        return time.perf_counter() - started

    def rss_mb(self) -> list[float]:
        return [rss_mb(w.proc.pid) for w in self.workers if w.proc is not None]

    def stop(self) -> None:
        for worker in self.workers:
            if worker.proc is not None and worker.proc.poll() is None:
                worker.proc.send_signal(signal.SIGTERM)
        for worker in self.workers:
            if worker.proc is not None:
                try:
                    worker.proc.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    worker.proc.kill()
                    worker.proc.wait()


async def _healthy(http: httpx.AsyncClient, worker: Worker) -> None:
    assert worker.proc is not None
    while True:  # readiness polling, bounded by the process exiting
        if worker.proc.poll() is not None:
            raise RuntimeError(f"finagent serve on port {worker.port} exited during start-up")
        try:
            if (await http.get(f"{worker.url}/healthz", timeout=1)).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        await asyncio.sleep(0.1)


@dataclass
class Sent:
    """One question sent in a chat, the worker that answered and what it answered."""

    user: str
    chat: str
    query: str
    worker: int
    status: int = 0
    answer: str = ""


@dataclass
class LoadRun:
    sent: list[Sent] = field(default_factory=list)
    latencies: list[float] = field(default_factory=list)
    wall_s: float = 0.0

    @property
    def acknowledged(self) -> list[Sent]:
        return [s for s in self.sent if s.status == 200 and s.answer]


def chat_query(n: int, q: int) -> str:
    """The ``q``-th question of chat ``n``: a question of the list and the chat's own
    marker, so that a turn stored in another chat is seen."""
    return f"{QUESTIONS[(n + q) % len(QUESTIONS)]} (беседа {n}, вопрос {q + 1})"


async def run_conversations(
    pool: WorkerPool, sessions: int, questions: int, prefix: str = "chat"
) -> LoadRun:
    """``sessions`` chats at once (ids ``{prefix}{n}``), ``questions`` follow-ups each;
    question ``q`` of chat ``n`` goes to worker ``(n + q) % count`` (a new process for
    every follow-up)."""
    run = LoadRun()
    count = len(pool.workers)

    async def session(http: httpx.AsyncClient, n: int) -> None:
        user = f"user{n % len(pool.tokens)}"
        for q in range(questions):
            index = (n + q) % count
            sent = Sent(user, f"{prefix}{n}", chat_query(n, q), index)
            run.sent.append(sent)
            started = time.perf_counter()
            try:
                response = await http.post(
                    f"{pool.workers[index].url}/v1/ask",
                    headers=pool.headers(user),
                    json={"query": sent.query, "chat_id": sent.chat},
                    timeout=300,
                )
            except httpx.HTTPError:
                continue
            run.latencies.append(time.perf_counter() - started)
            sent.status = response.status_code
            if response.status_code == 200:
                sent.answer = str(response.json().get("answer") or "")

    started = time.perf_counter()
    async with httpx.AsyncClient() as http:
        await asyncio.gather(*(session(http, n) for n in range(sessions)))
    run.wall_s = time.perf_counter() - started
    return run


async def audit(pool: WorkerPool, run: LoadRun) -> dict[str, Any]:
    """Read every chat back from PostgreSQL (a fresh connection, no worker involved):

    - ``lost``: acknowledged answers whose exchange is not stored;
    - ``crossed``: stored exchanges that are not the chat's own questions, in the order
      sent, with the answer the client received (a turn of another chat or user, a
      duplicate, a reordering);
    - ``half``: stored items that are not one whole question-and-answer exchange;
    - ``threads_off``: chats whose checkpointer thread does not end on the chat's last
      question, or whose messages are not the chat's exchanges (the thread is shared by
      the workers: each follow-up continues the state another process wrote).
    """
    from contextlib import AsyncExitStack

    from langchain_core.messages import AIMessage, HumanMessage

    from finagent.config import Settings
    from finagent.graph.agent import chat_thread_id
    from finagent.storage.backend import open_persistence
    from finagent.storage.history import ChatHistory

    settings = Settings(  # type: ignore[call-arg]
        data_dir=pool.workers[0].data_dir, postgres_url=SecretStr(pool.postgres_url), _env_file=None
    )
    chats: dict[tuple[str, str], list[Sent]] = {}
    for one in run.sent:
        chats.setdefault((one.user, one.chat), []).append(one)
    lost = crossed = half = threads_off = stored = 0
    async with AsyncExitStack() as stack:
        persistence = await open_persistence(settings, stack)
        history = ChatHistory(persistence.store)
        for (user, chat), sent in chats.items():
            acked = [s for s in sent if s.status == 200 and s.answer]
            turns = await history.last(user, chat, 1000)
            roles = [t.role for t in turns]
            if len(roles) % 2 or any(
                r != ("user", "assistant") for r in zip(roles[::2], roles[1::2], strict=False)
            ):
                half += 1
            pairs = [(turns[i].content, turns[i + 1].content) for i in range(0, len(turns) - 1, 2)]
            stored += len(pairs)
            questions = [p[0] for p in pairs]
            lost += sum(1 for s in acked if s.query not in questions)
            expected = [s.query for s in sent if s.query in questions]
            if questions != expected or any(
                not answer.startswith(_lead(s.answer))
                for (question, answer), s in zip(
                    pairs, [s for s in sent if s.query in questions], strict=False
                )
                if s.answer
            ):
                crossed += 1
            config = {"configurable": {"thread_id": chat_thread_id(user, chat)}}
            state = await persistence.checkpointer.aget_tuple(config)  # type: ignore[arg-type]
            values = state.checkpoint["channel_values"] if state else {}
            humans = [m.content for m in values.get("messages", []) if isinstance(m, HumanMessage)]
            ais = [m for m in values.get("messages", []) if isinstance(m, AIMessage)]
            if (
                not acked
                or values.get("query") != sent[-1].query
                or humans != [s.query for s in acked]
                or len(ais) != len(acked)
            ):
                threads_off += 1
    return {
        "chats": len(chats),
        "sent": len(run.sent),
        "acknowledged": len(run.acknowledged),
        "stored_exchanges": stored,
        "lost": lost,
        "crossed": crossed,
        "half": half,
        "threads_off": threads_off,
        "workers_per_chat": min(len({s.worker for s in sent}) for sent in chats.values()),
    }


def _lead(answer: str) -> str:
    """The start of an answer as the client got it (the stored text may append sources)."""
    return answer[:200]
