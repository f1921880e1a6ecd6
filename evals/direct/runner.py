"""Run the direct-answer evaluation: one data dir, every composer mode, one table.

Every item goes through ``Agent.run`` (offline: no LLM, no network) as its user, with
"today" pinned to the item's ``as_of`` (:func:`finagent.moscow_time.pinned_today`). The
modes are the values of the ``answer_composer`` setting; each runs on the same data dir
and the same questions. The key fact comes from the answer evaluation's own runner and
scores (:mod:`evals.answers`) over its dev and hold-out sets, per mode. Hold-out datasets
(:func:`~evals.direct.dataset.is_blind`) keep totals only: nothing per item is returned.
"""

from __future__ import annotations

import re
import time
import typing
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path
from typing import Any

from evals.answers.aggregate import aggregate as aggregate_answers
from evals.answers.code_units import CodeUnits
from evals.answers.dataset import AnswerItem
from evals.answers.langsmith_io import offline_client
from evals.answers.outputs import outputs_from_result
from evals.answers.quotes import reference_report
from evals.answers.runner import _evaluate_mode, _item_scores, eval_settings
from evals.answers.text import abstained, answer_body
from evals.direct.dataset import DirectItem, LoadedDataset, docs_folder, fresh_user
from evals.direct.figures import cited_source_texts, source_titles, unsupported_figures
from evals.direct.matching import first_section, group_met, lead_line, missing_groups
from evals.direct.scoring import ItemResult, aggregate, check_targets
from evals.direct.setup import Sources, data_dir_for, ingest, mark_ready, ready_summary
from finagent.answering import messages
from finagent.bootstrap import Root
from finagent.config import Settings
from finagent.graph.agent import Agent
from finagent.moscow_time import pinned_today
from finagent.retrieval.embedding_cache import build_cached_embedder
from finagent.retrieval.embeddings import Embedder
from finagent.state import Scenario

DEMO_USER = "demo"
# «Источник данных «Банк России» не настроен…», «Источник «…» сейчас не вернул данные…»
_UNAVAILABLE = [
    re.compile(re.escape(m).replace(r"\{name\}", ".+?"))
    for m in (messages.SOURCE_NOT_CONFIGURED, messages.SOURCE_FAILED.split(".")[0])
]


def composer_modes() -> list[str]:
    """Every value the ``answer_composer`` setting allows."""
    annotation = Settings.model_fields["answer_composer"].annotation
    return [str(v) for v in typing.get_args(annotation)] or ["extractive"]


@dataclass
class DirectEvalConfig:
    """What to ingest and run. ``taxcode`` empty: no Tax Code (and no key fact)."""

    kb_csv: Path | None
    demo_docs: Path | None
    taxcode: Sequence[tuple[Path, int]] = ()
    chapters: set[str] | None = None
    modes: Sequence[str] | None = None  # default: every composer mode
    key_fact_items: Sequence[AnswerItem] = ()
    embedder: Embedder | None = None  # default: the configured one, with its cache
    data_root: Path | None = None  # default: FINAGENT_DATA_DIR
    warmup: bool = True  # one unmeasured run per user and mode before the timed ones
    extra: dict[str, Any] = field(default_factory=dict)


def _sources(datasets: Sequence[LoadedDataset], config: DirectEvalConfig) -> Sources:
    users: dict[str, list[Path]] = {}
    if config.demo_docs is not None:
        users[DEMO_USER] = sorted(p for p in config.demo_docs.iterdir() if p.is_file())
    for data in datasets:
        folder = docs_folder(data.path)
        if folder.is_dir():
            users[fresh_user(data.name)] = sorted(p for p in folder.iterdir() if p.is_file())
    return Sources(config.kb_csv, config.taxcode, config.chapters, users)


def user_of(item: DirectItem) -> str:
    return DEMO_USER if item.user == "demo" else fresh_user(item.dataset)


async def answer_item(agent: Agent, item: DirectItem, code: CodeUnits) -> ItemResult:
    """Run one question as its user on its as-of date and score what it answered."""
    scored = ItemResult.of(item)
    started = time.perf_counter()
    try:
        with pinned_today(item.as_of):
            result = await agent.run(user_id=user_of(item), query=item.question)
    except Exception as exc:  # an evaluation records a failed run and goes on
        scored.error = f"{type(exc).__name__}: {exc}"[:300]
        return scored
    scored.latency_ms = round(1000 * (time.perf_counter() - started), 1)
    answer = result.answer
    body = answer_body(answer)
    scored.summary = first_section(answer)
    scored.scenario = result.scenario
    scored.clarified = result.scenario == Scenario.CLARIFY or body.startswith(
        messages.CLARIFY_HEADER
    )
    scored.declined = abstained(answer) or messages.NOTHING_FOUND in body
    scored.live_unavailable = any(p.match(scored.summary) for p in _UNAVAILABLE)
    chunks = list(result.used_chunks)
    scored.source_kinds = sorted({c.source for c in chunks})
    numbers = result.debug.get("source_numbers")
    cited = cited_source_texts(answer, chunks, numbers)
    scored.cited = sorted({_label(t) for t in cited})
    if item.answerable:
        scored.missing = missing_groups(scored.summary, item.must_contain)
        scored.hit = not scored.missing
        scored.lead = lead_line(scored.summary, cited)
        scored.lead_hit = scored.hit and not missing_groups(scored.lead, item.must_contain)
        scored.value_in_body = not missing_groups(body, item.must_contain)
        scored.value_in_sources = all(
            any(group_met(c.text, g) for c in chunks) for g in item.must_contain
        )
    scored.unsupported_figures = unsupported_figures(
        answer, [*cited, *source_titles(chunks, answer)], item.question
    )
    refs = reference_report(outputs_from_result(result), code, item.question)
    scored.unsupported_refs = [r["text"] for r in refs["unsupported"]]
    return scored


def _label(cited_text: str) -> str:
    return cited_text.split("\n", 1)[0][:80]


async def _key_fact(
    agent: Agent, items: Sequence[AnswerItem], code: CodeUnits, mode: str
) -> dict[str, Any]:
    """The answer evaluation's key fact per dataset of ``items``, run by its own runner."""
    out: dict[str, Any] = {}
    for name in dict.fromkeys(i.dataset for i in items):
        subset = [i for i in items if i.dataset == name]
        scored, _ = await _evaluate_mode(
            agent,
            subset,
            code,
            mode=mode,
            upload=False,
            client=offline_client(),
            metadata={"suite": "direct"},
        )
        item_scores = _item_scores(scored)
        metrics = aggregate_answers(item_scores)
        # the items whose answer lacks the key fact, with the points it cited (to classify)
        misses = [
            {"id": i.id, "abstained": i.abstained, "cited": i.cited_units[:6]}
            for i in item_scores
            if i.key_fact is not None and i.key_fact < 1.0
        ]
        out[name] = {
            "key_fact": metrics["key_fact"],
            "n": metrics["counts"]["key_fact"],
            "misses": misses,
        }
    return out


async def run_direct_eval(
    datasets: Sequence[LoadedDataset], settings: Settings, config: DirectEvalConfig
) -> dict[str, Any]:
    """Set up (or reuse) the data dir, answer every item under every mode, aggregate."""
    modes = list(config.modes or composer_modes())
    unknown = [m for m in modes if m not in composer_modes()]
    if unknown:
        raise ValueError(f"unknown composer modes: {unknown}; known: {composer_modes()}")
    embedder = config.embedder or build_cached_embedder(settings)
    sources = _sources(datasets, config)
    folder, warm = data_dir_for(config.data_root or settings.data_dir, sources, embedder.model_id)
    run_settings = eval_settings(settings, folder, verified=True)
    root = Root(run_settings, llm=None, embedder=embedder)
    result: dict[str, Any] = {"modes": modes, "data_dir": str(folder), "warm": warm}
    try:
        deps = await root.start()
        if warm:
            result["ingested"] = ready_summary(folder)
        else:
            result["ingested"] = await ingest(deps, sources)
            mark_ready(folder, result["ingested"])
        code = CodeUnits.from_taxcode(config.taxcode, config.chapters)
        by_dataset: dict[str, Any] = {
            d.name: {
                "size": len(d.items),
                "skipped": len(d.problems),
                "blind": d.blind,
                "modes": {},
            }
            for d in datasets
        }
        key_fact: dict[str, Any] = {}
        for mode in modes:
            mode_settings = deps.settings.model_copy(update={"answer_composer": mode})
            agent = Agent(replace(deps, settings=mode_settings))
            for data in datasets:
                if config.warmup and data.items:
                    await answer_item(agent, data.items[0], code)
                scored = [await answer_item(agent, item, code) for item in data.items]
                metrics = aggregate(scored)
                entry: dict[str, Any] = {"metrics": metrics, "targets": check_targets(metrics)}
                if not data.blind:
                    entry["items"] = [asdict(s) for s in scored]
                by_dataset[data.name]["modes"][mode] = entry
                if not data.blind:
                    by_dataset[data.name]["problems"] = data.problems
            if config.key_fact_items:
                key_fact[mode] = await _key_fact(agent, config.key_fact_items, code, mode)
        result["by_dataset"] = by_dataset
        result["key_fact"] = key_fact
    finally:
        await root.aclose()  # closes the index and the embedding cache too
    return result
