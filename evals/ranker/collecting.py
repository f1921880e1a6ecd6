"""What the two ranker scripts share: the direct evaluation's sources, the ``--cache``
option and the .npz cache of collected sentences (per question: its id, a tag such as its
kind or dataset, the sentences' features ``x`` and labels ``y``)."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any, TypeVar

import numpy as np

from evals.answers.runner import TAXCODE_FILES
from evals.direct.runner import DirectEvalConfig
from finagent.config import Settings
from finagent.retrieval.taxcode_source import find_tax_code

REPO = Path(__file__).resolve().parents[2]
CACHE_OPTION = "--cache="

T = TypeVar("T")
# one question's collected sentences: id, tag, features, labels
Labelled = tuple[str, str, np.ndarray, np.ndarray]


def direct_config(settings: Settings, modes: Sequence[str] | None = None) -> DirectEvalConfig:
    """The direct evaluation's sources (knowledge base, demo documents, the Tax Code the
    settings find), so that collecting reuses its warm data dir."""
    folder = find_tax_code(settings.taxcode_dir)[0].path.parent
    return DirectEvalConfig(
        kb_csv=REPO / "knowledge_base" / "train_data.csv",
        demo_docs=REPO / "sample_docs",
        taxcode=[(folder / name, part) for part, name in TAXCODE_FILES.items()],
        modes=modes,
    )


def cache_path(args: Sequence[str]) -> Path | None:
    """The ``--cache=FILE.npz`` of the command line, if given."""
    cached = next((a.removeprefix(CACHE_OPTION) for a in args if a.startswith(CACHE_OPTION)), None)
    return Path(cached) if cached else None


def collected(
    cache: Path | None,
    collect: Callable[[], Coroutine[Any, Any, list[T]]],
    save: Callable[[Path, list[T]], None],
    load: Callable[[Path], list[T]],
) -> list[T]:
    """The cached collection when ``cache`` exists, else a fresh one (kept in ``cache``
    when one is named)."""
    if cache is not None and cache.is_file():
        return load(cache)
    out = asyncio.run(collect())
    if cache is not None:
        save(cache, out)
    return out


def save_labelled(path: Path, rows: Sequence[Labelled], tag: str) -> None:
    """Write ``rows`` to ``path``; ``tag`` names the array of their tags."""
    arrays: dict[str, Any] = {
        "ids": np.asarray([qid for qid, _, _, _ in rows]),
        tag: np.asarray([t for _, t, _, _ in rows]),
    }
    for i, (_, _, x, y) in enumerate(rows):
        arrays[f"x{i}"], arrays[f"y{i}"] = x, y
    np.savez_compressed(path, **arrays)


def load_labelled(path: Path, tag: str) -> list[Labelled]:
    """The rows :func:`save_labelled` wrote to ``path``."""
    data = np.load(path)
    return [
        (str(qid), str(t), data[f"x{i}"], data[f"y{i}"])
        for i, (qid, t) in enumerate(zip(data["ids"], data[tag], strict=True))
    ]
