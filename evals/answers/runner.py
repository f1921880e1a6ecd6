"""Run the answer evaluation: the Tax Code in a temporary index, the agent, ``aevaluate``.

Setup mirrors ``finagent eval retrieval``: both parts of the Tax Code are ingested into a
temporary Qdrant Edge index through :class:`LawIngestor`, with the persistent embedding
cache of ``FINAGENT_DATA_DIR`` (reruns cost no model time). Only the Tax Code is
ingested; the Bank of Russia, Tavily and the internal search are off; no LLM runs unless
asked for (``llm=True`` uses the configured OpenAI-compatible model).

Every item goes through ``Agent.run(user_id="eval", query=question)``, the graph users
get. With ``baseline`` on, each dataset runs twice on the same index in one process:
with ``verified_answers=False`` (the unverified extractive composer) and with the
defaults. Each run is a ``langsmith.aevaluate`` experiment. Without a LangSmith API key
(``LANGSMITH_API_KEY`` / ``LANGCHAIN_API_KEY``) results stay local
(``upload_runs=False``) and nothing contacts LangSmith: the client samples no traces
and tracing is off inside the target (``aevaluate`` would otherwise trace the target
even when not uploading). With a key, each run uploads as an experiment over a LangSmith
dataset named ``finagent-<dataset>`` (created from the JSONL items when missing).
"""

from __future__ import annotations

import asyncio
import contextlib
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from langchain_core.callbacks import AsyncCallbackHandler
from langchain_core.outputs import LLMResult

from evals.answers.aggregate import aggregate, check_targets
from evals.answers.code_units import CodeUnits
from evals.answers.dataset import AnswerItem
from evals.answers.evaluators import evaluate_example, make_evaluators, make_summary_evaluator
from evals.answers.langsmith_io import (
    example_of,
    langsmith_key_set,
    offline_client,
    quiet_langsmith,
    remote_examples,
)
from finagent.bootstrap import Root
from finagent.config import Settings
from finagent.graph.agent import Agent
from finagent.retrieval.edge_index import EdgeIndex
from finagent.retrieval.embedding_cache import build_cached_embedder
from finagent.retrieval.law_ingest import LawIngestor
from finagent.retrieval.retriever import KB

TAXCODE_FILES = {1: "nk-part1-2025.txt", 2: "nk-part2-2025.txt"}
MODES = ("baseline", "verified")
EVAL_USER = "eval"


@dataclass
class AnswerEvalConfig:
    """How to run: where the Tax Code is, what to ingest, which columns, which model."""

    taxcode_dir: Path
    baseline: bool = True
    llm: bool = False
    parts: Sequence[int] | None = None  # default: both parts
    chapters: set[str] | None = None  # default: every chapter (tests ingest a few)
    upload: bool | None = None  # default: upload when a LangSmith key is set


def verified_setting_available() -> bool:
    return "verified_answers" in Settings.model_fields


class LLMCallCounter(AsyncCallbackHandler):
    """Counts chat-model (and plain LLM) calls of one agent run and the tokens the
    provider reports for them (usage metadata; 0 when it reports none)."""

    def __init__(self) -> None:
        self.calls = 0
        self.prompt_tokens = 0
        self.completion_tokens = 0

    async def on_chat_model_start(self, *args: Any, **kwargs: Any) -> None:
        self.calls += 1

    async def on_llm_start(self, *args: Any, **kwargs: Any) -> None:
        self.calls += 1

    async def on_llm_end(self, response: LLMResult, **kwargs: Any) -> None:
        for generations in response.generations:
            for generation in generations:
                usage = getattr(getattr(generation, "message", None), "usage_metadata", None)
                if usage:
                    self.prompt_tokens += int(usage.get("input_tokens") or 0)
                    self.completion_tokens += int(usage.get("output_tokens") or 0)


def eval_settings(settings: Settings, data_dir: Path, *, verified: bool) -> Settings:
    """The user's settings on a temporary data dir, with only the Tax Code as a source."""
    update: dict[str, Any] = {
        "data_dir": data_dir,
        "kb_root_dir": None,
        "reports_dir": None,
        "cbr_enabled": False,
        "tavily_api_key": None,
        "doc_api_url": None,
        "internal_gateway_api_url": None,
        "postgres_url": None,
        "qdrant_url": None,
    }
    if verified_setting_available():
        update["verified_answers"] = verified
    return settings.model_copy(update={k: v for k, v in update.items() if _has(settings, k)})


def _has(settings: Settings, name: str) -> bool:
    return name in type(settings).model_fields


async def _evaluate_mode(
    agent: Agent,
    items: Sequence[AnswerItem],
    code: CodeUnits,
    *,
    mode: str,
    upload: bool,
    client: Any,
    metadata: dict[str, Any],
) -> tuple[list[dict[str, Any]], str]:
    """One ``aevaluate`` experiment over one dataset; per-item score dicts and its name."""
    from langsmith import aevaluate, tracing_context

    async def target(inputs: dict[str, Any]) -> dict[str, Any]:
        from evals.answers.outputs import outputs_from_result

        counter = LLMCallCounter()
        started = time.perf_counter()
        tracing = contextlib.nullcontext() if upload else tracing_context(enabled=False)
        with tracing:
            result = await agent.run(
                user_id=EVAL_USER, query=str(inputs["question"]), callbacks=[counter]
            )
        latency = 1000 * (time.perf_counter() - started)
        outputs = outputs_from_result(result, latency_ms=latency, llm_calls=counter.calls)
        outputs["prompt_tokens"] = counter.prompt_tokens
        outputs["completion_tokens"] = counter.completion_tokens
        outputs["tool_calls"] = list(result.debug.get("tool_calls") or [])
        return outputs

    dataset = items[0].dataset
    if upload:
        data = await asyncio.to_thread(remote_examples, client, dataset, items)
    else:
        data = [example_of(i) for i in items]
    with quiet_langsmith():
        results = await aevaluate(
            target,
            data=data,
            evaluators=make_evaluators(code),  # type: ignore[arg-type]
            summary_evaluators=[make_summary_evaluator(code)],  # type: ignore[list-item]
            experiment_prefix=f"finagent-answers-{mode}",
            metadata={**metadata, "mode": mode, "dataset": dataset},
            max_concurrency=0,  # one question at a time: latencies are not contended
            client=client,
            upload_runs=upload,
        )
        rows = [row async for row in results]
    by_id = {str(i.id): i for i in items}
    scored: list[dict[str, Any]] = []
    for row in rows:
        example, run = row["example"], row["run"]
        outputs = run.outputs if run is not None else None
        scores = evaluate_example(example.inputs or {}, outputs, example.outputs or {}, code)
        if run is not None and run.error:
            scores.error = str(run.error)[:300]
        entry = asdict(scores)
        entry["question"] = by_id[scores.id].question if scores.id in by_id else ""
        entry["answer"] = (outputs or {}).get("answer", "")
        keys = ("answer_mode", "scenario", "prompt_tokens", "completion_tokens", "tool_calls")
        for key in (*keys, "llm_path"):
            entry[key] = (outputs or {}).get(key)
        entry["retrieved_units"] = list(
            dict.fromkeys(str(r.get("unit_id")) for r in (outputs or {}).get("retrieved") or [])
        )
        scored.append(entry)
    order = {i.id: n for n, i in enumerate(items)}
    scored.sort(key=lambda e: order.get(e["id"], len(order)))
    return scored, results.experiment_name


def _item_scores(entries: Sequence[dict[str, Any]]) -> list[Any]:
    from evals.answers.metrics import ItemScores

    fields = ItemScores.__dataclass_fields__
    return [ItemScores(**{k: v for k, v in e.items() if k in fields}) for e in entries]


async def run_answer_eval(
    items: Sequence[AnswerItem], settings: Settings, config: AnswerEvalConfig
) -> dict[str, Any]:
    """Ingest the Tax Code, answer every item per mode, score and aggregate per dataset."""
    if not items:
        raise ValueError("no items to evaluate")
    modes = list(MODES) if config.baseline else ["verified"]
    upload = langsmith_key_set() if config.upload is None else config.upload
    client = None if upload else offline_client()
    if upload:
        import langsmith

        client = langsmith.Client()
    parts = sorted(config.parts or TAXCODE_FILES)
    files = [(config.taxcode_dir / TAXCODE_FILES[p], p) for p in parts]
    embedder = build_cached_embedder(settings)  # the persistent cache of the user's data dir
    result: dict[str, Any] = {
        "datasets": {},
        "modes": modes,
        "llm": settings.llm_model_name if config.llm else "offline",
        "embedder": embedder.model_id,
        "langsmith": {"upload": upload, "experiments": {}},
        "verified_setting": verified_setting_available(),
        "ingest": [],
        "by_dataset": {},
    }
    with tempfile.TemporaryDirectory(prefix="finagent-eval-answers-") as tmp:
        index = EdgeIndex(Path(tmp) / "qdrant_edge")
        agents: dict[str, Agent] = {}
        try:
            for mode in modes:
                run_settings = eval_settings(
                    settings, Path(tmp) / mode, verified=mode != "baseline"
                )
                extra: dict[str, Any] = {} if config.llm else {"llm": None}
                root = Root(run_settings, index=index, embedder=embedder, **extra)
                await root.start()
                agents[mode] = Agent(root)
            first = agents[modes[0]].deps
            ingestor = LawIngestor(
                index, embedder, first.bm25, first.settings, first.retriever.collection(KB)
            )
            for path, part in files:
                report = await ingestor.ingest_file(
                    path, code="nk", part=part, chapters=config.chapters
                )
                result["ingest"].append(
                    {"part": part, "chunks": report.chunks, "seconds": round(report.seconds, 2)}
                )
            code = await asyncio.to_thread(CodeUnits.from_taxcode, files, config.chapters)
            names = list(dict.fromkeys(i.dataset for i in items))
            metadata = {"llm": result["llm"], "embedder": embedder.model_id}
            for name in names:
                subset = [i for i in items if i.dataset == name]
                result["datasets"][name] = len(subset)
                part_result: dict[str, Any] = {"size": len(subset), "modes": {}, "items": {}}
                for mode in modes:
                    scored, experiment = await _evaluate_mode(
                        agents[mode],
                        subset,
                        code,
                        mode=mode,
                        upload=upload,
                        client=client,
                        metadata=metadata,
                    )
                    metrics = aggregate(_item_scores(scored))
                    part_result["modes"][mode] = {
                        "metrics": metrics,
                        "targets": check_targets(metrics),
                    }
                    part_result["items"][mode] = scored
                    result["langsmith"]["experiments"].setdefault(name, {})[mode] = experiment
                result["by_dataset"][name] = part_result
        finally:
            for agent in agents.values():
                await agent.aclose()  # closing the shared index twice is harmless
            await index.close()
    return result
