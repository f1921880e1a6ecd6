"""Train the direct composer's sentence ranker and write ``finagent/answering/data/ranker.json``.

``python -m evals.ranker [--write]``: every dev question (the three blind dev rounds
``direct_dev_blind{1,2,3}``, our own ``direct_dev_own`` and the answer evaluation's dev key
facts, never a hold-out) is answered
offline by the agent on the direct evaluation's data dir; the candidate sentences of its
retrieved passages are labelled by whether they hold the expected value, and a logistic
regression over :data:`finagent.answering.ranker.FEATURES` is fitted. Prints the
cross-validated top-1 of the prior and the learned weights (all questions and the Tax
Code/knowledge-base ones); ``--write`` ships the fit, ``--cache=FILE.npz`` keeps the
collected sentences to refit without answering again.
"""

from __future__ import annotations

import hashlib
import json
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np

from evals.answers.dataset import load_answer_dataset
from evals.answers.runner import eval_settings
from evals.answers.text import normalise
from evals.direct.dataset import DATASETS_DIR, load_direct_dataset
from evals.direct.matching import group_met
from evals.direct.runner import _sources, user_of
from evals.direct.setup import data_dir_for, ingest, mark_ready
from evals.ranker.collecting import (
    REPO,
    cache_path,
    collected,
    direct_config,
    load_labelled,
    save_labelled,
)
from evals.ranker.fit import Group, cross_validated_top1, fit_logistic, top1
from finagent.answering.context import build_context
from finagent.answering.evidence import candidates, rank
from finagent.answering.ranker import FEATURES, RANKER_FILE, features, model_digest, prior_model
from finagent.bootstrap import Root
from finagent.config import get_settings
from finagent.graph.agent import Agent
from finagent.moscow_time import pinned_today
from finagent.question.build import build_question
from finagent.retrieval.embedding_cache import build_cached_embedder
from finagent.retrieval.tax_focus import tax_focus

OWN_DATASET = DATASETS_DIR / "direct_dev_own.jsonl"
DEV_ROUNDS = [DATASETS_DIR / f"direct_dev_blind{n}.jsonl" for n in (1, 2, 3, 4)]
KEY_FACTS = DATASETS_DIR / "answers_taxcode.jsonl"
TRAIN_USER = "ranker-train"
LAW_CATEGORIES = frozenset({"taxcode", "kb"})
OUT = REPO / "finagent" / "answering" / "data" / RANKER_FILE


async def collect() -> list[Group]:
    settings = get_settings()
    datasets = [load_direct_dataset(path) for path in DEV_ROUNDS]
    config = direct_config(settings)
    embedder = build_cached_embedder(settings)
    sources = _sources(datasets, config)
    data_dir, warm = data_dir_for(settings.data_dir, sources, embedder.model_id)
    root = Root(eval_settings(settings, data_dir, verified=True), llm=None, embedder=embedder)
    deps = await root.start()
    try:
        if not warm:
            mark_ready(data_dir, await ingest(deps, sources))
        agent = Agent(
            replace(
                deps, settings=deps.settings.model_copy(update={"answer_composer": "extractive"})
            )
        )
        items: list[tuple[str, str, str, Any, list[list[str]], str]] = []
        for data in datasets + (
            [load_direct_dataset(OWN_DATASET)] if OWN_DATASET.is_file() else []
        ):
            for item in data.items:
                if item.answerable:
                    kind = "law" if item.category in LAW_CATEGORIES else "docs"
                    items.append(
                        (item.id, item.question, user_of(item), item.as_of, item.must_contain, kind)
                    )
        for a in load_answer_dataset(KEY_FACTS):
            if a.key_fact and not a.trap:
                items.append((a.id, a.question, TRAIN_USER, None, [[a.key_fact]], "law"))
        groups = []
        for qid, question, user, as_of, groups_wanted, kind in items:
            with pinned_today(as_of):
                result = await agent.run(user_id=user, query=question)
                ctx = build_context(result.used_chunks, [], deps.settings.max_context_chars)
                cards = await deps.documents.cards.list(user)
                q = build_question(question, cards=cards)
                found, _ = await rank(question, candidates(ctx), deps.embedder, question=q)
            if not found:
                continue
            x = features(q, found, tax_focus(q))
            y = np.asarray(
                [
                    float(
                        any(
                            group_met(c.sentence, g) or normalise(g[0]) in normalise(c.sentence)
                            for g in groups_wanted
                        )
                    )
                    for c in found
                ]
            )
            groups.append(Group(qid, x, y, kind))
        return groups
    finally:
        await root.aclose()


def main(write: bool, cache: Path | None = None) -> None:
    """Fit and report; ``cache`` keeps the collected sentences (an .npz) to refit quickly."""
    groups = collected(cache, collect, save_groups, load_groups)
    answerable = [g for g in groups if g.y.any()]
    y = np.concatenate([g.y for g in groups])
    prior = prior_model()
    cv, folds = cross_validated_top1(groups)
    law = [g for g in groups if g.kind == "law"]
    cv_law, _ = cross_validated_top1(groups, kind="law")
    x = np.vstack([g.x for g in groups])
    weights, bias = fit_logistic(x, y)
    bias = round(bias, 8)
    report = {
        "questions": len(groups),
        "answerable": len(answerable),
        "sentences": len(y),
        "top1_prior": round(top1(groups, prior.weights, prior.bias), 3),
        "top1_learned_cv": round(cv, 3),
        "top1_learned_cv_folds": folds,
        "top1_learned_train": round(top1(groups, weights, bias), 3),
        "law_kb_questions": len(law),
        "top1_prior_law_kb": round(top1(law, prior.weights, prior.bias), 3),
        "top1_learned_cv_law_kb": round(cv_law, 3),
    }
    print(json.dumps(report, indent=2))
    if write:
        rounded = [round(float(w), 8) for w in weights]
        ids = "\n".join(g.qid for g in groups)
        data = {
            "features": list(FEATURES),
            "weights": rounded,
            "bias": bias,
            "digest": model_digest(FEATURES, rounded, bias),
            "training": {**report, "questions_digest": hashlib.sha256(ids.encode()).hexdigest()},
        }
        OUT.parent.mkdir(parents=True, exist_ok=True)
        OUT.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", "utf-8")
        print(f"wrote {OUT}")


def save_groups(path: Path, groups: list[Group]) -> None:
    save_labelled(path, [(g.qid, g.kind, g.x, g.y) for g in groups], "kinds")


def load_groups(path: Path) -> list[Group]:
    return [Group(qid, x, y, kind) for qid, kind, x, y in load_labelled(path, "kinds")]


if __name__ == "__main__":
    args = sys.argv[1:]
    main("--write" in args, cache_path(args))
