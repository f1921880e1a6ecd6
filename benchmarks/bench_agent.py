"""Agent overhead per turn, excluding the LLM.

Side by side in one run:
- baseline: the bare components a turn needs (query embedding + hybrid search +
  extractive composition), called directly with no graph;
- agent offline: the compiled graph with no LLM (rules + extractive answer);
- agent + instant LLM: the graph with a zero-latency scripted chat model, so the
  figure is everything finagent adds around the model (orchestrator call, context,
  tool binding, answer post-processing, history).

Usage: python benchmarks/bench_agent.py [--turns 60] [--no-cache]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

from langchain_core.messages import AIMessage

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from finagent.answering.context import build_context  # noqa: E402
from finagent.answering.extractive import compose_extractive  # noqa: E402
from finagent.bootstrap import Root  # noqa: E402
from finagent.config import Settings  # noqa: E402
from finagent.graph.agent import Agent  # noqa: E402
from finagent.observability import configure_logging  # noqa: E402
from finagent.retrieval.retriever import KB  # noqa: E402
from tests.fakes.llm import ScriptedChatModel, tool_call_message  # noqa: E402

QUESTIONS = [
    "Какие ставки НДС действуют?",
    "Сколько можно вернуть за лечение?",
    "Какой лимит доходов на УСН?",
    "Когда платить ЕНП?",
    "Какой штраф за непредставление декларации?",
    "Что такое ключевая ставка?",
]


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def scripted(turns: int) -> ScriptedChatModel:
    script: list[AIMessage] = []
    for _ in range(turns):
        script.append(
            tool_call_message(
                "OrchestratorOutput",
                {
                    "scenario": 2,
                    "intents": ["kb"],
                    "confidence": 0.9,
                    "reason": "bench",
                    "sub_queries": [],
                    "clarifying_questions": [],
                },
            )
        )
        script.append(AIMessage("## Краткий вывод\nОтвет [1].\n\n## Подробный анализ\nДетали [1]."))
    return ScriptedChatModel(script)


async def main(turns: int, cache: bool) -> None:
    configure_logging("WARNING")
    data = Path(tempfile.mkdtemp(prefix="finagent-bench-"))
    settings = Settings(  # type: ignore[call-arg]
        data_dir=data / "d", cbr_enabled=False, embedding_cache=cache, _env_file=None
    )
    offline_root = Root(settings)
    offline = await offline_root.start()
    await offline.ingestor().ingest_kb([REPO / "knowledge_base" / "train_data.csv"])
    agent = Agent(offline)
    for q in QUESTIONS:  # warm-up: model load, first queries
        await agent.run(user_id="bench", query=q)

    async def baseline(q: str) -> None:
        chunks = await offline.retriever.search(KB, q)
        compose_extractive(q, build_context(chunks, [], settings.max_context_chars))

    async def agent_offline(q: str) -> None:
        await agent.run(user_id="bench", query=q)

    results: dict[str, list[float]] = {}
    for name, fn in (
        ("baseline (components, no graph)", baseline),
        ("agent offline (rules + extractive)", agent_offline),
    ):
        times = []
        for i in range(turns):
            started = time.perf_counter()
            await fn(QUESTIONS[i % len(QUESTIONS)])
            times.append((time.perf_counter() - started) * 1000)
        results[name] = times
    await offline_root.aclose()

    llm = scripted(turns + len(QUESTIONS))
    online = Root(settings.model_copy(update={"data_dir": data / "d"}), llm=llm)
    llm_agent = Agent(online)
    times = []
    for i in range(turns):
        started = time.perf_counter()
        await llm_agent.run(user_id="bench", query=QUESTIONS[i % len(QUESTIONS)])
        times.append((time.perf_counter() - started) * 1000)
    results["agent + instant LLM (2 calls/turn)"] = times
    await online.aclose()

    base = statistics.median(results["baseline (components, no graph)"])
    print(f"query embeddings: {'cached' if cache else 'computed every turn (e5 on CPU)'}")
    print(f"{'variant':40} {'p50 ms':>8} {'p95 ms':>8} {'overhead':>9} {'x base':>7}")
    for name, values in results.items():
        p50 = statistics.median(values)
        print(f"{name:40} {p50:8.1f} {pct(values, 0.95):8.1f} {p50 - base:+9.1f} {p50 / base:7.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--turns", type=int, default=60)
    parser.add_argument("--no-cache", action="store_true", help="disable the embedding cache")
    args = parser.parse_args()
    asyncio.run(main(args.turns, cache=not args.no_cache))
