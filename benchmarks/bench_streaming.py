"""50 concurrent ``POST /v1/ask/stream`` sessions against ``finagent serve`` on 127.0.0.1.

The service runs in a subprocess (so its memory is its own) with a fake LLM that streams
its answer word by word at a fixed pace (``--token-ms``). Every session is a different
user with their own uploaded document. Reported side by side, in one run:

- errors: non-200 answers, ``error`` events, streams without a ``final`` event (target 0);
- time to first event and to first token (p50/p95), and the full answer time;
- the same questions through ``POST /v1/ask`` (the whole answer at once) as the baseline:
  the ratio of its latency to the stream's time to first event;
- server memory: RSS after start-up and ingestion, peak RSS (VmHWM) after the load.

    python -m benchmarks.bench_streaming [--sessions 50] [--token-ms 20]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Sequence
from pathlib import Path
from typing import Any

import httpx
from langchain_core.messages import AIMessage, AIMessageChunk, BaseMessage
from langchain_core.outputs import ChatGeneration, ChatGenerationChunk, ChatResult

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.conftest import LEASE
from tests.fakes.llm import ScriptedChatModel, tool_call_message

QUESTION = "какие пени в моём договоре аренды?"
ANSWER = (
    "## Краткий вывод\nЗа просрочку оплаты арендатор уплачивает пени 0,1 % от суммы долга "
    "за каждый день просрочки [1]. Арендная плата составляет 150 000 рублей в месяц [1]."
)


class PacedChatModel(ScriptedChatModel):
    """A fake LLM for any number of runs: the orchestrator gets an S1 decision, the answer
    node the same text streamed word by word, ``token_ms`` apart (an LLM's pace)."""

    token_ms: float = 20.0
    orchestrator_prompt: str = ""

    def __init__(self, token_ms: float) -> None:
        from finagent.prompts import load_prompt

        super().__init__([], token_ms=token_ms, orchestrator_prompt=load_prompt("orchestrator"))

    def _reply(self, messages: list[BaseMessage]) -> AIMessage:
        first = str(messages[0].content) if messages else ""
        if self.orchestrator_prompt[:200] in first:
            args = {"scenario": 1, "intents": [], "confidence": 0.9, "reason": "документы"}
            return tool_call_message("OrchestratorOutput", args)
        return AIMessage(ANSWER)

    def _generate(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> ChatResult:
        return ChatResult(generations=[ChatGeneration(message=self._reply(messages))])

    async def _astream(
        self,
        messages: list[BaseMessage],
        stop: list[str] | None = None,
        run_manager: Any = None,
        **kwargs: Any,
    ) -> AsyncIterator[ChatGenerationChunk]:
        reply = self._reply(messages)
        if reply.tool_calls:
            calls = [
                {"name": c["name"], "args": json.dumps(c["args"]), "id": c["id"], "index": 0}
                for c in reply.tool_calls
            ]
            yield ChatGenerationChunk(message=AIMessageChunk(content="", tool_call_chunks=calls))  # type: ignore[arg-type]
            return
        for piece in re.findall(r"\S+\s*", reply.text):
            await asyncio.sleep(self.token_ms / 1000)  # the fake LLM's pace, not a sync
            chunk = ChatGenerationChunk(message=AIMessageChunk(content=piece))
            if run_manager is not None:
                await run_manager.on_llm_new_token(piece, chunk=chunk)
            yield chunk


def tokens(sessions: int) -> str:
    return ",".join(f"bench-token-{i:04d}:user{i}" for i in range(sessions))


def serve(port: int, data_dir: Path, sessions: int, token_ms: float) -> None:
    """The service process: ``finagent serve``'s app with the paced fake LLM."""
    import uvicorn

    from finagent.bootstrap import Root
    from finagent.config import Settings
    from finagent.server.app import create_app

    settings = Settings(  # type: ignore[call-arg]
        data_dir=data_dir, api_tokens=tokens(sessions), cbr_enabled=False, _env_file=None
    )
    services = Root(settings, llm=PacedChatModel(token_ms))
    uvicorn.run(create_app(settings, services), host="127.0.0.1", port=port, log_level="warning")


def rss_kib(pid: int) -> dict[str, int]:
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0])
    return fields


def pct(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def stream_session(http: httpx.AsyncClient, user: int) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer bench-token-{user:04d}"}
    start = time.perf_counter()
    first_event = first_token = None
    names: list[str] = []
    async with http.stream(
        "POST", "/v1/ask/stream", headers=headers, json={"query": QUESTION}
    ) as response:
        if response.status_code != 200:
            return {"error": f"HTTP {response.status_code}"}
        async for line in response.aiter_lines():
            if line.startswith("event:"):
                name = line[6:].strip()
                now = time.perf_counter() - start
                first_event = first_event if first_event is not None else now
                if name == "token" and first_token is None:
                    first_token = now
                names.append(name)
    total = time.perf_counter() - start
    if "error" in names or not names or names[-1] != "final":
        return {"error": f"events {names[-3:]}"}
    return {"first_event": first_event, "first_token": first_token, "total": total}


async def plain_session(http: httpx.AsyncClient, user: int) -> dict[str, Any]:
    headers = {"Authorization": f"Bearer bench-token-{user:04d}"}
    start = time.perf_counter()
    response = await http.post("/v1/ask", headers=headers, json={"query": QUESTION})
    if response.status_code != 200 or "0,1 %" not in response.json()["answer"]:
        return {"error": f"HTTP {response.status_code}"}
    return {"total": time.perf_counter() - start}


async def wait_ready(url: str, proc: subprocess.Popen[bytes]) -> None:
    async with httpx.AsyncClient(base_url=url) as http:
        for _ in range(6000):
            if proc.poll() is not None:
                raise RuntimeError("the service exited")
            try:
                if (await http.get("/healthz")).status_code == 200:
                    return
            except httpx.TransportError:
                await asyncio.sleep(0.05)  # readiness polling
    raise RuntimeError("the service did not start")


async def run(url: str, proc: subprocess.Popen[bytes], sessions: int) -> dict[str, Any]:
    """Upload one document per user, warm up, then the load: stream, plain, plain, stream
    (each kind once first and once second, so warm-up effects cancel out)."""
    await wait_ready(url, proc)
    limits = httpx.Limits(max_connections=sessions * 2)
    results: dict[str, Any] = {"stream": [], "plain": [], "wall_stream": 0.0, "wall_plain": 0.0}
    async with httpx.AsyncClient(base_url=url, timeout=600, limits=limits) as http:
        for user in range(sessions):  # one document per user
            files = [("files", ("lease.md", LEASE.encode(), "text/markdown"))]
            headers = {"Authorization": f"Bearer bench-token-{user:04d}"}
            r = await http.post("/v1/documents", files=files, headers=headers)
            assert r.status_code == 200, r.text
        await stream_session(http, 0)  # warm-up (first-run imports and caches)
        await plain_session(http, 0)
        results["idle"] = rss_kib(proc.pid)
        for kind in ("stream", "plain", "plain", "stream"):
            session = stream_session if kind == "stream" else plain_session
            started = time.perf_counter()
            batch = await asyncio.gather(
                *(session(http, u) for u in range(sessions)), return_exceptions=True
            )
            results[f"wall_{kind}"] += (time.perf_counter() - started) / 2
            results[kind] += batch
        results["after"] = rss_kib(proc.pid)
    return results


def report(sessions: int, token_ms: float, results: dict[str, Any]) -> None:
    streamed, plain = results["stream"], results["plain"]
    wall_stream, wall_plain = results["wall_stream"], results["wall_plain"]
    idle, after = results["idle"], results["after"]

    def ok(results: list[Any]) -> list[dict[str, Any]]:
        return [r for r in results if isinstance(r, dict) and "error" not in r]

    def errors(results: list[Any]) -> list[str]:
        return [
            str(r["error"]) if isinstance(r, dict) else repr(r)
            for r in results
            if r not in ok(results)
        ]

    good, base = ok(streamed), ok(plain)
    stream_errors, plain_errors = errors(streamed), errors(plain)
    print(
        f"sessions: {sessions} concurrent x 2 batches per kind, fake LLM pace {token_ms:g} ms/token"
    )
    print(f"stream errors: {len(stream_errors)} {stream_errors[:3]}")
    print(f"/v1/ask errors: {len(plain_errors)} {plain_errors[:3]}")
    if good:
        fe = [r["first_event"] for r in good]
        ft = [r["first_token"] for r in good if r["first_token"] is not None]
        total = [r["total"] for r in good]
        print(f"stream first event  p50 {statistics.median(fe):.3f} s  p95 {pct(fe, 0.95):.3f} s")
        print(f"stream first token  p50 {statistics.median(ft):.3f} s  p95 {pct(ft, 0.95):.3f} s")
        full = f"p50 {statistics.median(total):.3f} s  p95 {pct(total, 0.95):.3f} s"
        print(f"stream full answer  {full}")
        print(f"stream wall time    {wall_stream:.2f} s")
    if base:
        bt = [r["total"] for r in base]
        print(f"/v1/ask answer      p50 {statistics.median(bt):.3f} s  p95 {pct(bt, 0.95):.3f} s")
        print(f"/v1/ask wall time   {wall_plain:.2f} s")
        if good:
            ratio = pct(bt, 0.95) / pct([r["first_event"] for r in good], 0.95)
            print(f"p95 /v1/ask answer ÷ p95 stream first event: {ratio:.1f}x")
    print(
        f"server RSS: {idle['VmRSS'] / 1024:.0f} MiB before the load, "
        f"{after['VmRSS'] / 1024:.0f} MiB after, peak {after['VmHWM'] / 1024:.0f} MiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, default=50)
    parser.add_argument("--token-ms", type=float, default=20.0)
    parser.add_argument("--serve", nargs=2, metavar=("PORT", "DATA_DIR"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(int(args.serve[0]), Path(args.serve[1]), args.sessions, args.token_ms)
        return
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    with tempfile.TemporaryDirectory(prefix="finagent-bench-stream-") as tmp:
        cmd = [sys.executable, "-m", "benchmarks.bench_streaming", "--serve", str(port), tmp]
        cmd += ["--sessions", str(args.sessions), "--token-ms", str(args.token_ms)]
        env = {**os.environ, "LANGSMITH_TRACING": "false"}
        proc = subprocess.Popen(cmd, cwd=Path(__file__).resolve().parents[1], env=env)
        try:
            results = asyncio.run(run(f"http://127.0.0.1:{port}", proc, args.sessions))
        finally:
            proc.terminate()
            proc.wait(timeout=60)
    report(args.sessions, args.token_ms, results)


if __name__ == "__main__":
    main()
